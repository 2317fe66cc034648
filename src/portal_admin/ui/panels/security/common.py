"""What the security panels add to the panel base: loading with the error line, confirmation
before a change, operations run through the runner.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.widgets.confirm import confirm_production_change
from portal_admin.ui.widgets.error_line import ErrorLine

from ...operations import Op

log = logging.getLogger(__name__)


class SecurityPanel(PanelBase):
    """Base of the security panels: loads on first show, shows a failure in its error line."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.error_line = ErrorLine(self)

    # -- loading -------------------------------------------------------------------------------

    async def reload(self) -> bool:
        """Load everything the panel shows; a failure is shown in the panel. True on success."""
        self.error_line.clear_error()
        if self.client is None:
            self.error_line.show_message(
                QCoreApplication.translate("SecurityPanel", "Sign in to see this panel.")
            )
            return False
        await self.load_permissions()
        try:
            await self.load()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            info = self.error_line.show_error(exc)
            log.warning(
                "%s could not load: code=%s request_id=%s",
                type(self).__name__,
                info.code,
                info.request_id,
            )
            return False
        self.loaded = True
        return True

    async def load(self) -> None:
        """Fetch and show the panel's data (subclasses)."""

    def refresh(self) -> None:
        """Reload (F5)."""
        self.start_reload()

    async def tour_ready(self) -> None:
        """Return once the panel shows its data (``--tour``)."""
        if not self.loaded and not self.loading:
            self.start_reload()
        await self.wait_idle()

    # -- changes -------------------------------------------------------------------------------

    async def confirm_change(self, action: str) -> bool:
        """The program's confirmation before a change (asks on production profiles only)."""
        hook = self.context.extras.get("confirm_change")
        if callable(hook):
            return bool(await hook(action, self))
        return await confirm_production_change(self, self.context.profile, action)

    async def execute(self, op: Op[Any]) -> Any:
        """Run ``op`` through the runner (failures are shown by it, with code and request id)."""
        if op.parent is None:
            op.parent = self
        return await self.runner.execute(op)
