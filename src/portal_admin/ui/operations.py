"""Command objects for actions (after Anki's aqt/operations) and the runner that runs them.

An :class:`Op` holds a coroutine factory, success and failure handlers, a progress flag and
the topics it changes. :meth:`OperationRunner.run` starts it as a task on the loop (keeping a
strong reference); on success the runner publishes ``changed(topics)`` and panels refresh
themselves from that. Failures are shown, never raised into Qt.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from .error_info import ErrorInfo, describe_error

if TYPE_CHECKING:  # imported once the loop runs: the first window shows without it
    import asyncio

log = logging.getLogger(__name__)

T = TypeVar("T")

ErrorPresenter = Callable[[ErrorInfo, str, "QWidget | None"], object]


@dataclass(slots=True)
class Op(Generic[T]):
    """One action: what to run and what to do with its outcome."""

    run: Callable[[], Awaitable[T]]
    #: Called with the result on success.
    on_success: Callable[[T], object] | None = None
    #: Called with the exception; return True when it has been handled (no error window).
    on_failure: Callable[[BaseException], bool | None] | None = None
    #: What the action changes (for example {"accounts"}), published on success.
    changes: frozenset[str] = field(default_factory=frozenset)
    #: Show the busy indicator while it runs.
    progress: bool = True
    #: Translated title for the error window ("Could not suspend the account").
    title: str = ""
    #: The window an error belongs to.
    parent: QWidget | None = None


def _default_presenter(info: ErrorInfo, title: str, parent: QWidget | None) -> object:
    from portal_admin.ui.widgets.error_dialog import show_error

    return show_error(info, title, parent)


class OperationRunner(QObject):
    """Runs :class:`Op` objects on the asyncio loop and reports what happened."""

    #: frozenset[str] of topics that changed.
    changed = Signal(object)
    busyChanged = Signal(bool)
    #: ErrorInfo of a failure that was shown.
    failed = Signal(object)
    requestIdChanged = Signal(str)

    def __init__(
        self, presenter: ErrorPresenter | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._presenter = presenter or _default_presenter
        self._tasks: set[asyncio.Task[Any]] = set()
        self._busy = 0
        self.last_request_id: str | None = None

    @property
    def busy(self) -> bool:
        """True while an operation with progress runs."""
        return self._busy > 0

    @property
    def tasks(self) -> frozenset[asyncio.Task[Any]]:
        """The operations still running."""
        return frozenset(self._tasks)

    def run(self, op: Op[T]) -> asyncio.Task[T | None]:
        """Start ``op`` as a task on the running loop and return the task."""
        import asyncio

        coro = self.execute(op)
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def run_soon(self, op: Op[Any]) -> None:
        """Start ``op`` from a plain (non-async) slot; during start-up, once the asyncio loop
        runs (a click in the first window's first frames waits for it)."""
        from portal_admin.ui.startup.loop_bridge import call_soon

        call_soon(lambda: self.run(op))

    async def execute(self, op: Op[T]) -> T | None:
        """Run ``op`` to the end; returns its result, or None when it failed."""
        self._set_busy(+1 if op.progress else 0)
        try:
            result = await op.run()
        except Exception as exc:  # not a cancellation: CancelledError is a BaseException
            self._failure(op, exc)
            return None
        finally:
            self._set_busy(-1 if op.progress else 0)
        self._note_request_id(result)
        try:
            if op.on_success is not None:
                op.on_success(result)
        except Exception as exc:
            self._show(exc, op)
        if op.changes:
            self.publish(op.changes)
        return result

    async def cancel_all(self) -> None:
        """Cancel every running operation and wait for them (shutdown hook)."""
        import asyncio

        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def publish(self, topics: frozenset[str] | set[str]) -> None:
        """Tell subscribers that ``topics`` changed."""
        self.changed.emit(frozenset(topics))

    def note_request_id(self, request_id: str | None) -> None:
        """Record the id of the latest request (the status bar shows it)."""
        if request_id and request_id != self.last_request_id:
            self.last_request_id = request_id
            self.requestIdChanged.emit(request_id)

    def _note_request_id(self, obj: object) -> None:
        self.note_request_id(getattr(obj, "request_id", None))

    def _failure(self, op: Op[Any], exc: Exception) -> None:
        self._note_request_id(exc)
        try:
            if op.on_failure is not None and op.on_failure(exc):
                return
        except Exception as handler_exc:
            log.exception("failure handler of %s raised", op.title or op.run)
            self._show(handler_exc, op)
        self._show(exc, op)

    def _show(self, exc: BaseException, op: Op[Any]) -> None:
        info = describe_error(exc)
        if info.unexpected:
            log.error("operation %s failed unexpectedly", op.title or op.run, exc_info=exc)
        else:
            log.warning(
                "operation %s failed: code=%s status=%s request_id=%s",
                op.title or op.run,
                info.code,
                info.http_status,
                info.request_id,
            )
        try:
            self._presenter(info, op.title, op.parent)
        except Exception:
            log.exception("could not show an error")
        self.failed.emit(info)

    def _set_busy(self, delta: int) -> None:
        before = self.busy
        self._busy += delta
        if self.busy != before:
            self.busyChanged.emit(self.busy)
