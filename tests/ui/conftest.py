"""UI test configuration: offscreen Qt, a qasync loop per test, user folders in tmp."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QApplication


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
    qapp.setQuitOnLastWindowClosed(False)  # closing a dialog must not stop the loop
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


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a test saves screenshots (set PORTAL_ADMIN_SHOTS to keep them)."""
    keep = os.environ.get("PORTAL_ADMIN_SHOTS")
    path = Path(keep) if keep else tmp_path / "shots"
    path.mkdir(parents=True, exist_ok=True)
    return path


#: Warnings of the offscreen platform plugin itself, not of the program.
OFFSCREEN_NOISE = (r"^This plugin does not support ",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Ignore the offscreen plugin's own warnings in the UI tests."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE))


#: When set, every operation the client sends from UI code is appended to this file (one id a
#: line) — used by test_reachability.py, which runs the UI tests in a subprocess.
RECORD_OPS = os.environ.get("PORTAL_ADMIN_RECORD_OPS")


def _called_from_ui() -> bool:
    """True when UI code is on the current (coroutine) call chain."""
    import sys

    marker = os.sep + os.path.join("portal_admin", "ui") + os.sep
    frame = sys._getframe(2)
    while frame is not None:
        if marker in frame.f_code.co_filename:
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


@pytest.fixture(autouse=True, scope="session")
def _record_operations() -> Iterator[None]:
    """Record the operations UI code sends (only when PORTAL_ADMIN_RECORD_OPS is set)."""
    if not RECORD_OPS:
        yield
        return
    from portal_admin.client import transport

    original = transport.Transport.exchange

    async def recording(self: transport.Transport, operation: object, **kwargs: object) -> object:
        from_ui = _called_from_ui()
        result = await original(self, operation, **kwargs)  # type: ignore[arg-type]
        if from_ui:
            with open(RECORD_OPS, "a", encoding="utf-8") as out:
                out.write(f"{operation.id}\n")  # type: ignore[attr-defined]
        return result

    transport.Transport.exchange = recording  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        transport.Transport.exchange = original  # type: ignore[method-assign]
