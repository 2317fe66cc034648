"""What the panel widgets share: :class:`PanelBase` and its helpers.

A panel built on :class:`PanelBase` keeps the tasks it starts (``spawn``; a failure is logged
once, without the server's message; ``wait_idle`` waits for them; ``close_tasks`` cancels them,
its inner panels' and its lists' page fetches: the main window calls it when it closes or the
session ends), loads itself the first time it is shown (``reload()``), knows what the
signed-in account may do (``load_permissions``, from the live profile shared through
``PanelContext.live_profile()``), and is retranslated on ``LanguageChange``
(``retranslateUi()``). :func:`error_text` (and :func:`error_details`) write a failure for
people (a panel shows one in ``widgets.error_line.ErrorLine``). :class:`ConstantsSource`
gives the constants lists (the shared cache when there is one).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction, QGuiApplication, QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QWidget
from qasync import asyncSlot

from portal_admin.ui.error_info import ErrorInfo, describe_error, error_details
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.lists.paged_model import PagedTableModel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.permissions import Permissions
from portal_admin.ui.widgets.file_watch import FileWatch, Stamp, stamp

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
    return "\n".join([info.summary, *error_details(info, code, request_id, joiner=joiner)])


def _log_failure(owner: str, task: asyncio.Future[Any]) -> None:
    """Log how ``task`` failed, if it did (not when cancelled).

    An unforeseen failure (a bug) is logged with its traceback; a failure the program knows
    (the server's answer, the network, a local file) with its kind, error code, HTTP status
    and request id only: the server's message may repeat what was typed.
    """
    if task.cancelled():
        return
    exc = task.exception()
    if exc is None:
        return
    info = describe_error(exc)
    if info.unexpected:
        log.error("%s: a background task failed", owner, exc_info=exc)
    else:
        log.warning(
            "%s: a background task failed: %s code=%s status=%s request_id=%s",
            owner,
            type(exc).__name__,
            info.code,
            info.http_status,
            info.request_id,
        )


class ConstantsSource:
    """The constants lists: the shared cache from ``extras["constants"]``, else the client."""

    def __init__(self, context: PanelContext) -> None:
        self._context = context

    @property
    def cache(self) -> Any:
        """The program's ConstantsCache, if there is one."""
        return self._context.extras.get("constants")

    async def items(self, list_name: str) -> list[Any]:
        """The items of ``list_name`` (e.g. "user-portal-types")."""
        cache = self.cache
        if cache is not None:
            return list(await cache.items(list_name))
        method = getattr(self._context.client.constants, list_name.replace("-", "_"))
        return list(await method())

    def on_cleared(self, callback: Callable[..., object]) -> None:
        """Call ``callback`` when the cache is emptied (language switch), if it says so."""
        signal = getattr(self.cache, "cleared", None)
        if signal is not None:
            signal.connect(callback)


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
        #: Stale while hidden (``reload_when_shown``): reload on the next show.
        self._reload_on_show = False
        #: The files the panel shows (``watch_files``), and how they looked when last read.
        self._watched: Callable[[], Sequence[Path]] | None = None
        self.file_watch: FileWatch | None = None
        self._stamp: Stamp | None = None

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
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        _log_failure(type(self).__name__, task)

    async def wait_idle(self) -> None:
        """Wait until no task of the panel runs."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    def close_tasks(self) -> None:
        """Cancel what the panel runs, what the panels inside it run and the page fetches of
        its lists (it is going away: the main window closes, or the session ends)."""
        for panel in (self, *self.findChildren(PanelBase)):
            for task in list(panel._tasks):
                task.cancel()
        models = {id(view.model()): view.model() for view in self.findChildren(QAbstractItemView)}
        for model in models.values():  # a table and its headers show the same model
            if isinstance(model, PagedTableModel):
                model.close()

    # -- loading -------------------------------------------------------------------------------

    @property
    def loading(self) -> bool:
        """True while a ``reload()`` started by ``start_reload`` runs."""
        return self._load is not None and not self._load.done()

    def start_reload(self) -> asyncio.Task[Any] | None:
        """Run ``reload()`` in the background (from a plain slot)."""
        self._load = self.spawn(self._stamped_reload())
        return self._load

    async def _stamped_reload(self) -> object:
        """``reload()``, noting first how the watched files look (see ``watch_files``)."""
        if self._watched is not None:
            self._stamp = await in_worker(stamp, list(self._watched()))
        return await self.reload()

    def watch_files(self, paths: Callable[[], Sequence[Path]]) -> FileWatch:
        """Follow the files or folders the panel shows, whoever changes them (this program,
        or the command line beside it): the panel reloads when they change (at once when on
        screen, else when next shown), and checks them when it is shown again or the program
        becomes active again (a watch may miss a change: network folders, say)."""
        self._watched = paths
        self.file_watch = FileWatch(paths, self)
        self.file_watch.changed.connect(self.reload_when_shown)
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.applicationStateChanged.connect(self._application_state)
        return self.file_watch

    def _application_state(self, state: Qt.ApplicationState) -> None:
        if state == Qt.ApplicationState.ApplicationActive and self.isVisible():
            self.spawn(self.check_files())

    async def _check_after(self, load: asyncio.Task[Any] | None) -> None:
        if load is not None:
            await asyncio.wait({load})
        await self.check_files()

    async def check_files(self) -> bool:
        """Reload when the watched files differ from what was last read; True if so."""
        if self._watched is None or not self.loaded or self.loading:
            return False
        now = await in_worker(stamp, list(self._watched()))
        if now == self._stamp:
            return False
        self.start_reload()
        return True

    async def reload(self) -> object:
        """Load what the panel shows (subclasses)."""
        return None

    def reload_when_shown(self) -> None:
        """What the panel shows went stale (for example, the language changed): reload now if
        it is on screen, else when it is next shown (hidden panels do no work)."""
        if not self.loaded:
            return  # the first load is still to come, or under way
        if self.isVisible():
            if not self.loading:
                self.start_reload()
            elif self._watched is not None:  # changed while being read: check once it is
                self.spawn(self._check_after(self._load))
        else:
            self.loaded = False
            self._reload_on_show = True

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if (self.LOAD_ON_SHOW or self._reload_on_show) and not self.loaded and not self.loading:
            self._reload_on_show = False
            self.start_reload()
        elif self._watched is not None and self.loaded:
            self.spawn(self.check_files())

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
