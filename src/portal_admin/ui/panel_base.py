"""What the panel widgets share: :class:`PanelBase` and its helpers.

A panel built on :class:`PanelBase` keeps the tasks it starts (``spawn``; ``wait_idle`` waits
for them, ``close_tasks`` cancels them), loads itself the first time it is shown
(``reload()``), knows what the signed-in account may do (``load_permissions``, from the live
profile shared through ``PanelContext.live_profile()``), and is retranslated on
``LanguageChange`` (``retranslateUi()``). :class:`ErrorLine` shows a failure inside a panel.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, ClassVar, TypeVar, cast

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QAction, QShowEvent
from PySide6.QtWidgets import QLabel, QWidget
from qasync import asyncSlot

from .error_info import ErrorInfo, describe_error
from .panels import PanelContext
from .permissions import Permissions
from .text import fill

log = logging.getLogger(__name__)

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def async_slot(*types: type) -> Callable[[F], F]:
    """qasync's ``asyncSlot``, typed (keep such handlers one line long)."""
    return cast(Callable[[F], F], asyncSlot(*types))


def event_loop() -> asyncio.AbstractEventLoop | None:
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


async def account_permissions(context: PanelContext) -> tuple[Permissions, Any]:
    """What the signed-in account may do, and its live profile (None when unavailable).

    Without the profile the permissions come from the client alone (every action stays
    enabled; the server's 403 answers then explain themselves).
    """
    client = context.client
    if client is None:
        return Permissions.of(None, None), None
    try:
        profile = await context.live_profile()
    except Exception as exc:
        log.info("profile not loaded (%s): permissions from the client only", type(exc).__name__)
        return Permissions.of(client, None), None
    return Permissions.of(client, profile), profile


def error_text(info: ErrorInfo, code: str, request_id: str, *, joiner: str = "\n") -> str:
    """A failure for people: the summary, the server's message (when it says more), then the
    error code and the request id filled into the translated templates ``code`` and
    ``request_id`` (``%1``), joined by ``joiner`` (each on its own line by default).
    """
    lines = [info.summary]
    if info.message and info.message != info.summary:
        lines.append(info.message)
    details = []
    if info.code:
        details.append(fill(code, info.code))
    if info.request_id:
        details.append(fill(request_id, info.request_id))
    if details:
        lines.append(joiner.join(details))
    return "\n".join(lines)


class ErrorLine(QLabel):
    """A failure to load, shown in the panel with its code and request id (selectable)."""

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

    # the texts keep the "SecurityPanel" context of the panels that introduced the line
    def show_error(self, exc: BaseException) -> ErrorInfo:
        """Show ``exc``; returns what was shown."""
        self.info = describe_error(exc)
        self.setText(
            error_text(
                self.info,
                QCoreApplication.translate("SecurityPanel", "Error code: %1"),
                QCoreApplication.translate("SecurityPanel", "Request id: %1"),
            )
        )
        self.setAccessibleName(QCoreApplication.translate("SecurityPanel", "Error"))
        self.show()
        return self.info

    def show_message(self, text: str) -> None:
        """Show ``text`` (no failure behind it)."""
        self.info = None
        self.setText(text)
        self.show()

    def clear_error(self) -> None:
        """Hide the line."""
        self.info = None
        self.clear()
        self.hide()


class PanelBase(QWidget):
    """A panel: kept tasks, loading on first show, permissions, retranslation.

    Subclasses implement ``reload()``, ``apply_permissions()`` and ``retranslateUi()`` as
    needed, and set ``loaded`` once their data is shown.
    """

    #: Start ``reload()`` when first shown (False: the panel starts loading by itself).
    LOAD_ON_SHOW: ClassVar[bool] = True

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.client: Any = context.client
        self.runner = context.runner
        self.permissions = Permissions.of(self.client, None)
        #: The live profile the permissions were read from (None until then, or unavailable).
        self.profile_record: Any = None
        self.loaded = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._load: asyncio.Task[Any] | None = None

    # -- tasks ---------------------------------------------------------------------------------

    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T] | None:
        """Run ``coro`` as a task the panel keeps (None, and closed, without an event loop)."""
        loop = event_loop()
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

    def close_tasks(self) -> None:
        """Cancel what the panel runs (it is going away)."""
        for task in list(self._tasks):
            task.cancel()

    # -- loading -------------------------------------------------------------------------------

    @property
    def loading(self) -> bool:
        """True while a ``reload()`` started by ``start_reload`` runs."""
        return self._load is not None and not self._load.done()

    def start_reload(self) -> asyncio.Task[Any] | None:
        """Run ``reload()`` in the background (from a plain slot)."""
        self._load = self.spawn(self.reload())
        return self._load

    async def reload(self) -> object:
        """Load what the panel shows (subclasses)."""
        return None

    def reload_when_shown(self) -> None:
        """What the panel shows went stale (for example, the language changed): reload now if
        it is on screen, else when it is next shown (hidden panels do no work)."""
        if not self.loaded:
            return  # the first show loads anyway
        if self.isVisible():
            self.start_reload()
        else:
            self.loaded = False

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.LOAD_ON_SHOW and not self.loaded and not self.loading:
            self.start_reload()

    # -- permissions ---------------------------------------------------------------------------

    async def load_permissions(self) -> Permissions:
        """Read what the account may do (from the live profile) and apply it."""
        self.permissions, self.profile_record = await account_permissions(self.context)
        self.apply_permissions()
        return self.permissions

    def apply_permissions(self) -> None:
        """Enable what the account may do (subclasses)."""

    def allow(
        self,
        control: QWidget | QAction,
        operation_id: str,
        why_not: str | None = None,
        *,
        enabled: bool = True,
    ) -> str | None:
        """Enable ``control`` when permitted, ``enabled`` and ``why_not`` is None; returns the
        reason shown as its tooltip ("" when merely not ``enabled``).

        In a read-only (kiosk) session a mutating control is hidden (``Permissions.bind``).
        """
        if not enabled and why_not is None:
            why_not = ""
        return self.permissions.bind(control, operation_id, why_not)

    # -- language ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        """Texts in the current language (subclasses)."""

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
