"""What the security panels share: loading on first show, permissions, the error line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar, cast

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget
from qasync import asyncSlot as _async_slot

from ...confirm import confirm_production_change
from ...error_info import ErrorInfo, describe_error
from ...operations import Op
from ...panels import PanelContext
from ...permissions import Permissions
from ...text import fill

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Coroutine[Any, Any, Any]])


def async_slot(*types: type) -> Callable[[F], Callable[..., Any]]:
    """qasync's ``asyncSlot`` with a type (the handler must stay one line long)."""
    return cast(Callable[[F], Callable[..., Any]], _async_slot(*types))


def error_text(info: ErrorInfo) -> str:
    """A failure as lines: what happened, the server's message, the code and the request id."""
    lines = [info.summary]
    if info.message and info.message != info.summary:
        lines.append(info.message)
    if info.code:
        lines.append(fill(QCoreApplication.translate("SecurityPanel", "Error code: %1"), info.code))
    if info.request_id:
        lines.append(
            fill(QCoreApplication.translate("SecurityPanel", "Request id: %1"), info.request_id)
        )
    return "\n".join(lines)


class ErrorLine(QLabel):
    """A failure to load, shown in the panel with its code and request id."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorLine")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setStyleSheet(
            "QLabel#errorLine { color: #8a1c1c; background: #fdecea;"
            " border: 1px solid #f5c2c0; padding: 6px; }"
        )
        self.info: ErrorInfo | None = None
        self.hide()

    def show_error(self, exc: BaseException) -> ErrorInfo:
        """Show ``exc``; returns what was shown."""
        self.info = describe_error(exc)
        self.setText(error_text(self.info))
        self.setAccessibleName(QCoreApplication.translate("SecurityPanel", "Error"))
        self.show()
        return self.info

    def clear_error(self) -> None:
        """Hide the line."""
        self.info = None
        self.clear()
        self.hide()


class SecurityPanel(QWidget):
    """Base of the security panels: loads on first show, knows what the account may do."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.client: Any = context.client
        self.runner = context.runner
        self.permissions = Permissions.of(self.client, None)
        self.error_line = ErrorLine(self)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._load: asyncio.Task[bool] | None = None
        self.loaded = False

    # -- loading -------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self.loaded and (self._load is None or self._load.done()):
            self.start_reload()

    def start_reload(self) -> None:
        """Reload in the background (from a plain slot)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            log.debug("no running loop: %s not loaded", type(self).__name__)
            return
        self._load = loop.create_task(self.reload())
        self._keep(self._load)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` as a task whose reference the panel keeps."""
        task = asyncio.get_running_loop().create_task(coro)
        self._keep(task)
        return task

    def _keep(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait_idle(self) -> None:
        """Wait until no task of the panel runs."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def reload(self) -> bool:
        """Load everything the panel shows; a failure is shown in the panel. True on success."""
        self.error_line.clear_error()
        if self.client is None:
            self.error_line.setText(
                QCoreApplication.translate("SecurityPanel", "Sign in to see this panel.")
            )
            self.error_line.show()
            return False
        await self._load_permissions()
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

    async def _load_permissions(self) -> None:
        try:
            profile = await self.client.auth.profile()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.info("profile not loaded (%s): permissions from the client only", type(exc))
            profile = None
        self.permissions = Permissions.of(self.client, profile)
        self.apply_permissions()

    def apply_permissions(self) -> None:
        """Enable what the account may do (subclasses)."""

    def allow(self, button: QAbstractButton, operation_id: str, enabled: bool = True) -> None:
        """Enable ``button`` when ``enabled`` and permitted; the reason becomes its tooltip.

        In a read-only (kiosk) session a mutating button is hidden (``Permissions.bind``).
        """
        reason = self.permissions.bind(button, operation_id)
        if reason is None and not enabled:
            button.setEnabled(False)

    def refresh(self) -> None:
        """Reload (F5)."""
        self.start_reload()

    async def tour_ready(self) -> None:
        """Return once the panel shows its data (``--tour``)."""
        if not self.loaded and (self._load is None or self._load.done()):
            self.start_reload()
        await self.wait_idle()

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

    # -- language ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        """Texts in the current language (subclasses)."""

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def close_tasks(self) -> None:
        """Cancel what the panel runs (it is going away)."""
        for task in list(self._tasks):
            task.cancel()
