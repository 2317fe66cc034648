"""Start-up's measuring probe: exit on the first event-loop turn after the first top-level
window is exposed.

The program installs it when ``PORTAL_ADMIN_STARTUP_PROBE=1`` is set (:func:`create_qapp` in
``ui/startup/qapp.py``), so that a start-up can be timed from outside as a person launches the
program, the installed bundle included; the benchmarks' minimal programs install the same probe
(``bench/drivers/startup.py``). ``install(qapp)`` starts a zero-delay timer on the
application, which looks on every turn of the event loop whether a top-level window is exposed
(shown on screen, offscreen included). The first turn that finds one is the first turn after
the window is up: the program is then responsive. It prints ``MARKER`` and the window's class
name, flushes, and ends the process at once (teardown is not measured).

Why a timer and not an event filter on the application: a Python event filter sees every event
of every object, and PySide builds the Python types of each object's class the first time one
passes through Python. Text labels that can be selected bring Qt's private text-control
objects, whose first crossing loaded about 180 enums (20 ms) that the program itself never
loads: a cost of the measurement, paid by the program's window and not by the baselines.
"""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget

MARKER = "BENCH-FIRST-WINDOW"
#: Called instead of ending the process, when set (the profiling mode of the start-up driver).
ON_READY: object = None


class FirstWindowWatcher(QTimer):
    """A zero-delay timer that ends the process once the first window is up."""

    def __init__(self, qapp: QApplication, on_ready: object = None) -> None:
        super().__init__(qapp)
        self._on_ready = on_ready
        self.setInterval(0)
        self.timeout.connect(self._poll)

    def _poll(self) -> None:
        window = next(
            (w for w in QGuiApplication.topLevelWindows() if w.parent() is None and w.isExposed()),
            None,
        )
        if window is None:
            return
        self.stop()
        widget = next(
            (w for w in QApplication.topLevelWidgets() if w.windowHandle() is window), None
        )
        name = type(widget).__name__ if isinstance(widget, QWidget) else "QWindow"
        sys.stdout.write(f"{MARKER} {name}\n")
        sys.stdout.flush()
        hook = self._on_ready or ON_READY
        if callable(hook):
            hook()
            return
        os._exit(0)


def install(qapp: QApplication, on_ready: object = None) -> FirstWindowWatcher:
    """Watch ``qapp`` (the watcher is a child of the application, started at once)."""
    watcher = FirstWindowWatcher(qapp, on_ready)
    watcher.start()
    return watcher
