"""Helpers of the security panel tests (no tests here); the shared ones are in
``panel_support``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

from PySide6.QtWidgets import QWidget

from portal_admin.ui.tour.screenshots import save_screenshot

from ..panel_support import SHOTS, answer_box

T = TypeVar("T")


async def with_answer(
    action: Awaitable[T], accept: bool, shot: Path | None = None
) -> tuple[T, str]:
    """Run ``action`` while answering the confirmation it opens."""
    task = asyncio.ensure_future(action)
    text = await answer_box(accept, shot)
    return await task, text


async def show(panel: QWidget, width: int = 1000, height: int = 640) -> None:
    """Show ``panel`` at a fixed size, wait for what it loads, and let it paint.

    Nothing may stay in flight when the loop stops: the in-process sandbox runs a dependency in
    a worker thread, which fails if it finishes while the qasync loop is not running.
    """
    panel.resize(width, height)
    panel.show()
    await asyncio.sleep(0.02)
    wait_idle = getattr(panel, "wait_idle", None)
    if wait_idle is not None:
        await wait_idle()
    await asyncio.sleep(0.05)


def shot(panel: QWidget, name: str, language: str = "en") -> Path:
    """Save ``panel`` as /tmp/shots/panels/<name>.png (other languages: <name>.<lang>.png)."""
    suffix = "" if language == "en" else f".{language}"
    return save_screenshot(panel, SHOTS / f"{name}{suffix}.png")
