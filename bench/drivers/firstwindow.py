"""Exit on the first event-loop turn after the first top-level window is exposed.

``install(qapp)`` watches every event of the application; when a top-level window is first
exposed (shown on screen, offscreen included) it queues a zero-delay timer, whose callback runs
on the next turn of the event loop: the program is then responsive. It prints ``MARKER`` and
the window's class name, flushes, and ends the process at once (teardown is not measured).
"""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QWindow
from PySide6.QtWidgets import QApplication, QWidget

MARKER = "BENCH-FIRST-WINDOW"
#: Called instead of ending the process, when set (the profiling mode of the start-up driver).
ON_READY: object = None


class FirstWindowWatcher(QObject):
    """Event filter that ends the process once the first window is up and the loop turns."""

    def __init__(self, on_ready: object = None) -> None:
        super().__init__()
        self._fired = False
        self._on_ready = on_ready

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not self._fired and event.type() == QEvent.Type.Expose:
            window = watched if isinstance(watched, QWindow) else None
            if window is not None and window.isExposed() and window.parent() is None:
                self._fired = True
                widget = next(
                    (w for w in QApplication.topLevelWidgets() if w.windowHandle() is window),
                    None,
                )
                name = type(widget).__name__ if isinstance(widget, QWidget) else "QWindow"
                QTimer.singleShot(0, lambda: self._ready(name))
        return False

    def _ready(self, name: str) -> None:
        sys.stdout.write(f"{MARKER} {name}\n")
        sys.stdout.flush()
        hook = self._on_ready or ON_READY
        if callable(hook):
            hook()
            return
        os._exit(0)


def install(qapp: QApplication, on_ready: object = None) -> FirstWindowWatcher:
    """Watch ``qapp`` (the watcher is kept alive as a child of the application)."""
    watcher = FirstWindowWatcher(on_ready)
    watcher.setParent(qapp)
    qapp.installEventFilter(watcher)
    return watcher
