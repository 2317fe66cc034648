"""A qasync loop per test and user folders in tmp, for the suites that drive Qt.

A suite's ``conftest.py`` takes the fixtures by importing them and marks its own tests::

    from support.qt import _user_folders, ignore_offscreen_noise, loop

    __all__ = ["_user_folders", "loop"]


    def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
        ignore_offscreen_noise(items, Path(__file__).parent)
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import asyncio
import gc
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from portal_admin.files.portable import under_wine

if sys.platform == "win32":
    # Qt's own file dialogs, as on Linux: Windows' native one is no QWidget (a test cannot fill
    # it) and runs in a thread of Qt's; under Wine, closing it from a test crashed the process.
    from PySide6.QtCore import QCoreApplication, Qt

    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs)

#: Warnings of the offscreen platform plugin itself, not of the program.
OFFSCREEN_NOISE = (r"^This plugin does not support ",)
#: Warnings of Qt's windows platform plugin under Wine, about calls Wine 8 does not implement
#: (per-monitor DPI awareness, the monitor interface, non-client DPI scaling) and about a window
#: the screen (Xvfb's) would not fit as asked, not of the program.
WINE_NOISE = (
    r"DpiAwareness::PerMonitorVersion2 is not supported",
    r"Unable to open monitor interface to ",
    r"EnableNonClientDpiScaling\(\) failed for HWND",
    r"^QWindowsWindow::setGeometry: Unable to set geometry ",
)


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
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(home / "portal-admin"))


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
        del event_loop
        # Collected here, on the UI thread: left to a later collection, the closed loop's Qt
        # timers can be freed on a worker thread ("Timers cannot be stopped from another
        # thread", a Qt warning that fails whichever test is running then).
        gc.collect()


def ignore_offscreen_noise(items: list[pytest.Item], folder: Path) -> None:
    """Ignore the platform plugin's own warnings in the tests below ``folder`` (the offscreen
    plugin's; under Wine, also the windows plugin's about what Wine lacks)."""
    noise = OFFSCREEN_NOISE + (WINE_NOISE if under_wine() else ())
    for item in items:
        if folder in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(*noise))


def show_active(qtbot: QtBot, window: QWidget, timeout: int = 5000) -> None:
    """Show ``window`` and make it Qt's active window, as a person's click would (shortcuts
    need it). Activated once exposed, and asked again until it is: under Wine's windows
    platform, with no window manager, an activation request can be lost, and
    ``isActiveWindow()`` may say True while ``QApplication.activeWindow()`` is None."""
    window.show()
    qtbot.waitExposed(window, timeout=timeout)

    def active() -> bool:
        if QApplication.activeWindow() is window:
            return True
        window.activateWindow()
        return False

    qtbot.waitUntil(active, timeout=timeout)
