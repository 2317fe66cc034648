"""Screenshots (``widget.grab().save``) and the tour runner behind ``--tour DIR``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QWidget

log = logging.getLogger(__name__)


def save_screenshot(
    widget: QWidget, path: Path, area: QRect | None = None, popups: tuple[QWidget, ...] = ()
) -> Path:
    """Save a PNG of ``widget`` (rendered even off screen); returns the path.

    ``area`` limits the picture to part of the widget; ``popups`` (open menus) are painted over
    it where they are on screen. In a kiosk session the picture gets the read-only watermark
    strip with the time.
    """
    from portal_admin.ui.kiosk.marking import current, watermark

    path.parent.mkdir(parents=True, exist_ok=True)
    picture = widget.grab(area) if area is not None else widget.grab()
    if popups:
        painter = QPainter(picture)
        origin = widget.mapToGlobal(area.topLeft() if area is not None else QPoint(0, 0))
        for popup in popups:
            painter.drawPixmap(popup.mapToGlobal(QPoint(0, 0)) - origin, popup.grab())
        painter.end()
    marking = current()
    if marking is not None:
        picture = watermark(picture, marking)
    if not picture.save(str(path), "PNG"):
        raise OSError(f"could not save a screenshot to {path}")
    return path


@dataclass(frozen=True, slots=True)
class TourStep:
    """One stop of the tour: it prepares and returns the widget to photograph."""

    name: str
    prepare: Callable[[], Awaitable[QWidget]]
    #: Undo what ``prepare`` opened (close a dialog), if needed.
    cleanup: Callable[[QWidget], Awaitable[None]] | None = None


async def settle(delay: float = 0.05) -> None:
    """Let layouts, fetches and paints happen before a picture is taken."""
    await asyncio.sleep(delay)


async def run_tour(steps: Sequence[TourStep], directory: Path) -> list[Path]:
    """Visit every step in order and save ``<name>.png`` for each into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    for step in steps:
        widget = await step.prepare()
        await settle()
        saved.append(save_screenshot(widget, directory / f"{step.name}.png"))
        log.info("tour: saved %s", saved[-1])
        if step.cleanup is not None:
            await step.cleanup(widget)
    return saved
