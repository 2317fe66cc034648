"""Scenario tests: the real program, on the in-process sandbox, driven as a person drives it.

Offscreen Qt, a qasync loop per test and user folders in tmp (``tests/support/qt.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.qt import _user_folders, ignore_offscreen_noise, loop

__all__ = ["_user_folders", "loop"]  # fixtures


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Ignore the offscreen plugin's own warnings."""
    ignore_offscreen_noise(items, Path(__file__).parent)
