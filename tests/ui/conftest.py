"""UI test configuration: offscreen Qt, a qasync loop per test, user folders in tmp."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

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
