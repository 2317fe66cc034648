"""What the invitation and reference panels share: background tasks kept, loading on first
show, the live profile's permissions, the constants cache, the clock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QAbstractButton, QWidget

from ...list_view import ListView
from ...paged_model import PagedTableModel
from ...panels import PanelContext
from ...permissions import Permissions
from ..reference.constants_cache import ConstantsCache
from .formatting import Clock, utc_now

log = logging.getLogger(__name__)


def constants_of(context: PanelContext) -> ConstantsCache:
    """The program's constants cache (a private one when the main window provides none)."""
    cache = context.extras.get("constants")
    if isinstance(cache, ConstantsCache):
        return cache
    cache = ConstantsCache(lambda: context.client)
    context.extras["constants"] = cache
    return cache


def clock_of(context: PanelContext) -> Clock:
    """``extras["clock"]`` (a callable returning an aware datetime), else the system clock."""
    clock = context.extras.get("clock")
    return clock if callable(clock) else utc_now


def _event_loop() -> asyncio.AbstractEventLoop | None:
    """The running loop, else the thread's loop (a plain slot between two runs), else None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    try:
        loop = asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:
        return None
    return None if loop.is_closed() else loop


async def _requery(model: PagedTableModel[Any]) -> None:
    model.refresh()
    await model.wait_idle()


def fit_columns(view: ListView, maximum: int = 340) -> None:
    """Size the visible columns to their contents (at most ``maximum`` pixels each)."""
    table = view.table
    table.resizeColumnsToContents()
    visible = [c for c in range(view.model.columnCount()) if not table.isColumnHidden(c)]
    for column in visible:
        if table.columnWidth(column) > maximum:
            table.setColumnWidth(column, maximum)
    if visible:  # the last visible column takes what is left (hidden ones may come after it)
        used = sum(table.columnWidth(c) for c in visible)
        spare = table.viewport().width() - used
        if spare > 0:
            table.setColumnWidth(visible[-1], table.columnWidth(visible[-1]) + spare)


class TaskPanel(QWidget):
    """A panel that runs coroutines as kept tasks and loads itself when first shown."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.client: Any = context.client
        self.runner = context.runner
        self.constants = constants_of(context)
        self.clock = clock_of(context)
        self.permissions = Permissions.of(self.client, None)
        self.profile_record: Any = None
        self.loaded = False
        self._tasks: set[asyncio.Task[Any]] = set()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self.loaded and not self._tasks:
            self.spawn(self.reload())

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any] | None:
        """Run ``coro`` as a task the panel keeps (None, and closed, without an event loop)."""
        loop = _event_loop()
        if loop is None:
            coro.close()
            log.debug("no event loop: %s task not started", type(self).__name__)
            return None
        task = loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def wait_idle(self) -> None:
        """Wait until no task of the panel runs."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def reload(self) -> None:
        """Load what the panel shows (subclasses)."""

    def requery(self, model: PagedTableModel[Any]) -> None:
        """Refresh ``model`` on the loop (from a plain slot); ``wait_idle`` waits for it."""
        self.spawn(_requery(model))

    async def load_permissions(self) -> Permissions:
        """Read the live profile (its permission codes) and apply what the account may do."""
        try:
            self.profile_record = await self.client.auth.profile()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.info("profile not loaded (%r): permissions from the client only", exc)
            self.profile_record = None
        self.permissions = Permissions.of(self.client, self.profile_record)
        self.apply_permissions()
        return self.permissions

    def apply_permissions(self) -> None:
        """Enable what the account may do (subclasses)."""

    def allow(self, button: QAbstractButton, operation_id: str, why_not: str | None) -> str | None:
        """Enable ``button`` unless not permitted or ``why_not``; returns the reason shown.

        In a read-only (kiosk) session a mutating button is hidden (``Permissions.bind``).
        """
        return self.permissions.bind(button, operation_id, why_not)

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
