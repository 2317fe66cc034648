"""File work off the GUI thread (``ui/file_work.py``): the work runs in a worker thread, its
result comes back on the GUI thread, a failure becomes one localized message given to one
display, a time limit holds, and a panel that closes drops the outcome."""

from __future__ import annotations

import asyncio
import errno
import logging
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from portal_admin.evidence.keys import KeyUnavailable
from portal_admin.jobs.store import JobFileError, JobLockedError
from portal_admin.ui.error_info import ErrorInfo
from portal_admin.ui.file_work import FileWork, file_error, in_worker, is_file_error
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.profiles.store import sandbox_profile


def on_gui_thread() -> bool:
    app = QApplication.instance()
    return app is not None and QThread.currentThread() is app.thread()


def test_the_work_runs_in_a_worker_and_its_result_comes_back_on_the_gui_thread(
    loop: qasync.QEventLoop,
) -> None:
    seen: dict[str, bool] = {}
    shown: list[ErrorInfo] = []

    def work() -> int:
        seen["work on GUI thread"] = on_gui_thread()
        return 42

    def success(result: int) -> None:
        seen["success on GUI thread"] = on_gui_thread()
        seen["result"] = result == 42

    result = loop.run_until_complete(FileWork(work, shown.append, success).run())
    assert result == 42
    assert seen == {"work on GUI thread": False, "success on GUI thread": True, "result": True}
    assert shown == []
    assert loop.run_until_complete(in_worker(threading.get_ident)) != threading.get_ident()


def test_an_os_error_is_said_once_in_the_display_with_its_reason_and_file(
    loop: qasync.QEventLoop, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    shown: list[ErrorInfo] = []
    called: list[object] = []
    missing = tmp_path / "gone" / "export.csv"

    def work() -> None:
        missing.write_text("x", encoding="utf-8")

    with caplog.at_level(logging.WARNING, "portal_admin.ui.file_work"):
        result = loop.run_until_complete(
            FileWork(work, shown.append, called.append, what="export").run()
        )
    assert result is None and called == []
    assert len(shown) == 1
    assert shown[0].summary == "A file or folder on this computer could not be used."
    assert shown[0].message == f"{errno_text(errno.ENOENT)}: {missing}"
    assert not shown[0].unexpected
    # logged once, by kind: not the path (it may name a person)
    assert [r.getMessage() for r in caplog.records] == [
        "file work failed (export): FileNotFoundError"
    ]


def errno_text(code: int) -> str:
    import os

    return os.strerror(code)


@pytest.mark.parametrize(
    ("exc", "summary"),
    [
        (JobFileError("line 3 is not JSON"), "The file cannot be read: it is damaged"),
        (sqlite3.DatabaseError("file is not a database"), "The file cannot be read: it is damaged"),
        (JobLockedError("held by pid 12"), "The file is in use by another window"),
    ],
)
def test_the_programs_own_file_errors_have_their_words(
    qapp: QApplication, exc: Exception, summary: str
) -> None:
    assert is_file_error(exc)
    info = file_error(exc)
    assert info.summary.startswith(summary)
    assert info.message == str(exc)
    assert not info.unexpected


def test_a_bug_in_the_work_is_shown_as_unexpected_and_logged_with_its_traceback(
    loop: qasync.QEventLoop, caplog: pytest.LogCaptureFixture
) -> None:
    shown: list[ErrorInfo] = []

    def work() -> None:
        raise KeyError("oops")

    with caplog.at_level(logging.ERROR, "portal_admin.ui.file_work"):
        assert loop.run_until_complete(FileWork(work, shown.append).run()) is None
    assert not is_file_error(KeyError("oops"))
    assert len(shown) == 1 and shown[0].unexpected
    assert caplog.records[0].exc_info is not None


def test_the_time_limit_ends_the_wait_with_a_message(loop: qasync.QEventLoop) -> None:
    shown: list[ErrorInfo] = []
    release = threading.Event()
    work = FileWork(lambda: release.wait(5), shown.append, timeout=0.05)
    started = time.monotonic()
    try:
        assert loop.run_until_complete(work.run()) is None
    finally:
        release.set()
    assert time.monotonic() - started < 2
    assert [s.summary for s in shown] == ["The file work did not end within 0.05 seconds."]


def test_a_panel_that_closes_drops_the_outcome(loop: qasync.QEventLoop, qtbot: QtBot) -> None:
    context = PanelContext(runner=OperationRunner(), profile=sandbox_profile(), client=None)
    panel = PanelBase(context)
    qtbot.addWidget(panel)
    started, release = threading.Event(), threading.Event()
    shown: list[ErrorInfo] = []
    succeeded: list[object] = []

    def work() -> str:
        started.set()
        release.wait(5)
        return "read"

    async def scenario() -> asyncio.Task[str | None] | None:
        task = panel.spawn(FileWork(work, shown.append, succeeded.append).run())
        while not started.is_set():
            await asyncio.sleep(0.01)
        panel.close_tasks()  # the main window closes while the file is read
        release.set()
        if task is not None:
            await asyncio.wait({task})
        await asyncio.sleep(0.05)  # the thread's result arrives: nobody takes it
        return task

    task = loop.run_until_complete(scenario())
    assert task is not None and task.cancelled()
    assert succeeded == [] and shown == []


def test_the_words_of_file_errors_are_in_every_language(qapp: QApplication) -> None:
    from portal_admin.ui.i18n.translators import LanguageManager

    failures = [
        JobFileError("x"),
        JobLockedError("x"),
        FileNotFoundError(errno.ENOENT, "gone", "f"),
        KeyUnavailable("no keyring"),
    ]
    english = [file_error(exc).summary for exc in failures]
    languages = LanguageManager()
    try:
        for code in ("zh", "zh-Hant", "ja", "vi"):
            languages.set_language(code)
            for exc, words in zip(failures, english, strict=True):
                assert file_error(exc).summary not in ("", words), (code, exc)
    finally:
        languages.set_language("en")


def test_a_locked_database_is_in_use_not_damaged(qapp: QApplication) -> None:
    assert file_error(sqlite3.OperationalError("database is locked")).summary.startswith(
        "The file is in use"
    )
    assert file_error(sqlite3.OperationalError("no such table: x")).summary.startswith(
        "The file cannot be read"
    )
