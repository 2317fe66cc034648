"""File work off the GUI thread, and its failure said in one place (after Anki's ``QueryOp``).

:func:`in_worker` runs a callable in a worker thread and hands its result back on the loop's
thread, which under qasync is the GUI thread (optionally within a time limit). :class:`FileWork`
adds the rest of the idea: on success a callback runs on the GUI thread; a failure becomes one
:class:`~portal_admin.ui.error_info.ErrorInfo` (:func:`file_error`: the known file and format
errors in the person's language) given to one display (a panel's error bar) and logged once,
never raised into Qt. A task awaiting it that is cancelled (the panel closes:
``PanelBase.close_tasks``) calls neither: the thread ends on its own and its result is dropped.

Which I/O may stay on the GUI thread is written in docs/desktop.md, "File work and the GUI
thread"; ``tests/ui/test_gui_thread_io.py`` holds the code to it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QCoreApplication

from portal_admin.ui.error_info import ErrorInfo, describe_error
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

log = logging.getLogger(__name__)

T = TypeVar("T")

_CONTEXT = "FileWork"
_UNREADABLE = QT_TRANSLATE_NOOP(
    "FileWork",
    "The file cannot be read: it is damaged, or it is not a file this program writes.",
)
_IN_USE = QT_TRANSLATE_NOOP(
    "FileWork", "The file is in use by another window or by the command line. Try again later."
)
_KEY = QT_TRANSLATE_NOOP(
    "FileWork", "Nothing can be signed: this installation's signing key cannot be read."
)
_KEY_ADVICE = QT_TRANSLATE_NOOP(
    "FileWork",
    "The key is kept in the system keyring or, without one, in a key file only you"
    " can read. If that file has a passphrase, start the program with"
    " PORTAL_ADMIN_KEY_PASSPHRASE set. Help > About says where the key is.",
)
_TOO_LONG = QT_TRANSLATE_NOOP("FileWork", "The file work did not end within %1 seconds.")

#: The project's own file and format errors, by module and class name (read by name, as
#: ``error_info`` reads the client's: importing the engine here would load it at start-up).
FORMAT_ERRORS = frozenset(
    {
        "portal_admin.files.json_input.JsonInputError",
        "portal_admin.files.owner_only.PrivateFileRefused",
        "portal_admin.evidence.snapshot.SnapshotError",
        "portal_admin.evidence.trust.TrustError",
        "portal_admin.evidence.forward.cursor.CursorError",
        "portal_admin.evidence.forward.cursor.JournalRewritten",
        "portal_admin.jobs.store.JobFileError",
        "portal_admin.jobs.targets.ImportFailed",
        "sqlite3.DatabaseError",
        "zipfile.BadZipFile",
        "builtins.UnicodeDecodeError",
    }
)
IN_USE_ERRORS = frozenset({"portal_admin.jobs.store.JobLockedError"})
#: SQLite's "database is locked" (another process writes the file) is no damage.
_SQLITE_BUSY = "sqlite3.OperationalError"
KEY_ERRORS = frozenset({"portal_admin.evidence.keys.KeyUnavailable"})


def _names(exc: BaseException) -> set[str]:
    return {f"{cls.__module__}.{cls.__qualname__}" for cls in type(exc).__mro__}


def is_file_error(exc: BaseException) -> bool:
    """True for the failures of file work the program knows (not a bug)."""
    known = FORMAT_ERRORS | IN_USE_ERRORS | KEY_ERRORS
    return isinstance(exc, OSError) or bool(_names(exc) & known)


def file_error(exc: BaseException) -> ErrorInfo:
    """A failure of file work for people: a localized summary, what the error said below it.

    An OS error names its reason and file (``strerror``, ``filename``), a format error its own
    sentence; anything else is described by :func:`describe_error` (a bug: with details).
    """
    names = _names(exc)
    if names & KEY_ERRORS:  # what the key error says would name the keyring's backend
        return ErrorInfo(
            QCoreApplication.translate(_CONTEXT, _KEY),
            QCoreApplication.translate(_CONTEXT, _KEY_ADVICE),
        )
    if names & IN_USE_ERRORS or (_SQLITE_BUSY in names and "locked" in str(exc)):
        return ErrorInfo(QCoreApplication.translate(_CONTEXT, _IN_USE), str(exc))
    if names & FORMAT_ERRORS:
        return ErrorInfo(QCoreApplication.translate(_CONTEXT, _UNREADABLE), str(exc))
    if isinstance(exc, OSError) and not isinstance(exc, TimeoutError | ConnectionError):
        reason = exc.strerror or str(exc)
        where = "" if exc.filename is None else f": {exc.filename}"
        return ErrorInfo(describe_error(exc).summary, f"{reason}{where}")
    return describe_error(exc)


async def in_worker(work: Callable[..., T], *args: Any, timeout: float | None = None) -> T:
    """``work(*args)`` in a worker thread; its result (or exception) on the awaiting thread.

    With ``timeout`` (seconds) a :class:`TimeoutError` is raised when the work has not ended by
    then (the thread is not stopped: it ends on its own and its result is dropped).
    """
    import asyncio

    running = asyncio.to_thread(work, *args)
    if timeout is None:
        return await running
    return await asyncio.wait_for(running, timeout)


@dataclass(slots=True)
class FileWork(Generic[T]):
    """One piece of file work: what to run in the worker, what to do with its outcome."""

    #: Runs in the worker thread: touches no widget.
    work: Callable[[], T]
    #: Where a failure is shown, e.g. ``panel.message.show_error`` (None: logged only).
    show: Callable[[ErrorInfo], object] | None = None
    #: Called on the GUI thread with the result.
    on_success: Callable[[T], object] | None = None
    #: Turns the failure into words (:func:`file_error` unless a panel knows better).
    describe: Callable[[BaseException], ErrorInfo] = file_error
    #: Seconds before the work counts as failed (None: no limit).
    timeout: float | None = None
    #: What the work is, for the log ("writing the diff's CSV").
    what: str = ""

    async def run(self) -> T | None:
        """Run the work; its result, or None when it failed (shown and logged)."""
        try:
            result = await in_worker(self.work, timeout=self.timeout)
        except Exception as exc:  # a cancellation is a BaseException: it goes through
            if isinstance(exc, TimeoutError) and self.timeout is not None:
                text = QCoreApplication.translate(_CONTEXT, _TOO_LONG)
                self._failed(exc, ErrorInfo(fill(text, f"{self.timeout:g}"), ""))
            else:
                self._failed(exc, self.describe(exc))
            return None
        if self.on_success is not None:
            self.on_success(result)
        return result

    def _failed(self, exc: Exception, info: ErrorInfo) -> None:
        what = self.what or getattr(self.work, "__qualname__", repr(self.work))
        if is_file_error(exc) or isinstance(exc, TimeoutError):
            log.warning("file work failed (%s): %s", what, type(exc).__name__)
        else:
            log.error("file work failed unexpectedly (%s)", what, exc_info=exc)
        if self.show is not None:
            try:
                self.show(info)
            except Exception:
                log.exception("could not show a failure of file work")
