"""UI test configuration: offscreen Qt, a qasync loop per test, user folders in tmp."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from pathlib import Path

import pytest

from support.qt import _user_folders, ignore_offscreen_noise, loop

__all__ = ["_user_folders", "loop"]


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a test saves screenshots (set PORTAL_ADMIN_SHOTS to keep them)."""
    keep = os.environ.get("PORTAL_ADMIN_SHOTS")
    path = Path(keep) if keep else tmp_path / "shots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Ignore the offscreen plugin's own warnings in the UI tests."""
    ignore_offscreen_noise(items, Path(__file__).parent)


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
