"""Kiosk tests: the program in kiosk mode on an in-process sandbox that records every request.

Offscreen Qt, a qasync loop per test and user folders in tmp (``tests/support/qt.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QApplication

from portal_admin.ui.app import Application
from portal_admin.ui.kiosk import marking
from portal_admin.ui.kiosk import policy as policy_module
from portal_admin.ui.session.sandbox_factory import create_sandbox_app
from portal_admin.ui.startup.options import StartOptions
from support.program import make_program
from support.qt import _user_folders, ignore_offscreen_noise, loop

from .support import RecordingApp, run

__all__ = ["_user_folders", "loop"]  # fixtures


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Ignore the offscreen plugin's own warnings."""
    ignore_offscreen_noise(items, Path(__file__).parent)


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
