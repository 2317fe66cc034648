"""Kiosk tests: the program in kiosk mode on an in-process sandbox that records every request.

Offscreen Qt, a qasync loop per test and user folders in tmp, as in ``tests/ui/conftest.py``.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QApplication

from portal_admin.ui.app import Application
from portal_admin.ui.kiosk import marking
from portal_admin.ui.kiosk import policy as policy_module
from portal_admin.ui.options import StartOptions
from portal_admin.ui.session.sandbox_factory import create_sandbox_app

from .support import RecordingApp, make_program, run

#: Warnings of the offscreen platform plugin itself, not of the program.
OFFSCREEN_NOISE = (r"^This plugin does not support ",)


@pytest.fixture(autouse=True)
def _user_folders(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep config, logs and data of every test out of the real user folders."""
    home = tmp_path_factory.mktemp("home")
    for var, sub in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
    ):
        monkeypatch.setenv(var, str(home / sub))


@pytest.fixture
def loop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    """A qasync loop on the test's QApplication; drive it with loop.run_until_complete."""
    qapp.setQuitOnLastWindowClosed(False)
    event_loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(event_loop)
    try:
        yield event_loop
    finally:
        pending = [t for t in asyncio.all_tasks(event_loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            event_loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        event_loop.run_until_complete(event_loop.shutdown_asyncgens())
        asyncio.set_event_loop(None)
        event_loop.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Ignore the offscreen plugin's own warnings."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE))


@pytest.fixture(autouse=True)
def _no_machine_policy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No test reads this machine's real policy; the marking never leaks between tests."""
    empty = tmp_path / "system-policy"
    empty.mkdir()
    monkeypatch.setattr(policy_module, "system_policy_dir", lambda: empty)
    monkeypatch.delenv(policy_module.POLICY_DIR_ENV, raising=False)
    yield
    marking.set_current(None)


@pytest.fixture
def recorder() -> RecordingApp:
    return RecordingApp(create_sandbox_app(":memory:", seed_accounts=30, test_clock=True))


@pytest.fixture
def kiosk_program(
    qapp: QApplication, loop: qasync.QEventLoop, tmp_path: Path, recorder: RecordingApp
) -> Iterator[Application]:
    """``portal-admin --sandbox --kiosk``, started (the kiosk sign-in window shows)."""
    app = make_program(qapp, StartOptions(sandbox=True, kiosk=True, lang="en"), recorder, tmp_path)
    app.start()
    yield app
    run(loop, app.close())
    app.languages.set_language("en")
