"""Helpers for the accounts, roles and portals panel tests (no tests here); the shared ones are
in ``panel_support``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget

from portal_admin.ui.tour.screenshots import save_screenshot

from ..panel_support import SHOTS

W = TypeVar("W", bound=QWidget)


async def settle(delay: float = 0.05) -> None:
    """Let Qt lay out and paint."""
    await asyncio.sleep(delay)


async def drain(panel: Any) -> None:
    """Wait for the panel's background loads (detail, reload) and list fetches to end.

    Leave nothing running when ``run`` returns: qasync would otherwise run the sandbox's
    thread-pool callbacks while Qt processes events outside the loop (see the report).
    """
    await settle(0.02)
    await panel.wait_idle()
    model = getattr(panel.controller, "model", None)
    wait_idle = getattr(model, "wait_idle", None)
    if wait_idle is not None:
        await wait_idle()
    await panel.wait_idle()


async def wait_window(kind: type[W], timeout: float = 10.0) -> W:
    """The visible top-level window of ``kind`` (waits for it to open)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, kind) and widget.isVisible():
                return widget
        await asyncio.sleep(0.01)
    raise AssertionError(f"no {kind.__name__} opened")


def visible(kind: type[QWidget]) -> list[QWidget]:
    """The visible top-level windows of ``kind``."""
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]


async def answer_box(accept: bool) -> QMessageBox:
    """Answer the confirmation box that opens; returns it (its text stays readable)."""
    box = await wait_window(QMessageBox)
    if accept:
        button = next(
            b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole
        )
        button.click()
    else:
        box.reject()
    return box


def shot(widget: QWidget, name: str, language: str = "en") -> Path:
    """Save ``widget`` as /tmp/shots/panels/[<lang>/]<name>."""
    folder = SHOTS if language == "en" else SHOTS / language
    return save_screenshot(widget, folder / name)


def dialog_open(dialog: QDialog | None) -> bool:
    """True while ``dialog`` is shown."""
    return dialog is not None and dialog.isVisible()
