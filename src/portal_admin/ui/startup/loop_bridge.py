"""Start-up's hand-over from a plain Qt loop to the asyncio loop (qasync).

The first window is built and shown before asyncio and qasync are imported: Qt's own loop runs
it (:func:`show_first`) while a worker thread imports them, and qasync takes the same Qt loop
over once they are in. A person sees the window ~20-30 ms sooner (docs/performance.md,
"Start-up"), and the window is live from its first frame: Qt keeps every key and click in
its queue or handles it at once, whichever loop turns.

What needs the asyncio loop before it runs (a click on "Sign in" in the first few frames)
waits for it: :func:`call_soon` queues it until :func:`loop_started` runs the queue from the
loop's first turn.
"""

from __future__ import annotations

import importlib
import logging
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from PySide6.QtCore import QEventLoop, QObject, QTimer, Signal, SignalInstance

log = logging.getLogger(__name__)

#: What the asyncio bridge needs, imported in a worker thread once the first window is painted.
BRIDGE_MODULES = ("asyncio", "qasync")
#: The imports start by then even if the window was not painted (started minimised, say).
PAINT_LATEST_MS = 1000

_waiting: list[Callable[[], object]] = []
_started = False


def loop_running() -> bool:
    """True while an asyncio loop runs in this thread."""
    # asyncio may be half imported (by the worker thread of :func:`show_first`)
    running = getattr(sys.modules.get("asyncio"), "_get_running_loop", None)
    return running is not None and running() is not None


def call_soon(action: Callable[[], object]) -> None:
    """Run ``action`` now if the asyncio loop runs, else on its first turn."""
    if _started or loop_running():
        action()
    else:
        _waiting.append(action)


def loop_started() -> None:
    """Called on the asyncio loop's first turn: run what waited for it, in order."""
    global _started
    _started = True
    waiting, _waiting[:] = list(_waiting), []
    for action in waiting:
        try:
            action()
        except Exception:
            log.exception("an action queued during start-up failed")


class FirstWindow(Protocol):
    """What :func:`show_first` needs of the window (``SignInWindow`` has it)."""

    @property
    def firstPainted(self) -> SignalInstance: ...  # a Qt signal

    @property
    def painted(self) -> bool: ...

    def isVisible(self) -> bool: ...


class _Imported(QObject):
    """Lives in the GUI thread; the worker emits ``done`` from its thread (a queued call)."""

    done = Signal()


def show_first(window: FirstWindow, modules: Sequence[str] = BRIDGE_MODULES) -> float:
    """Run Qt's loop until ``window`` is painted and ``modules`` are imported; returns the
    seconds the imports took.

    ``window`` is shown already. The imports run in a worker thread that starts on the loop turn
    after the first paint: started at the paint, its hold on the interpreter lock made every
    Python call of that turn wait, and the first turn ended 15-20 ms later. The loop
    meanwhile handles the window's events.
    """
    loop = QEventLoop()
    imported = _Imported()
    imported.done.connect(loop.quit)
    took = [0.0]

    def work() -> None:
        import time

        start = time.perf_counter()
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # imported again (and the error raised) by the caller
                log.warning("importing %s for the event loop failed", name, exc_info=True)
        took[0] = time.perf_counter() - start
        imported.done.emit()

    worker = threading.Thread(target=work, name="portal-admin-loop-imports", daemon=True)

    def begin() -> None:
        if worker.ident is None:  # not started yet
            worker.start()

    def after_paint() -> None:
        QTimer.singleShot(0, begin)

    window.firstPainted.connect(after_paint)
    QTimer.singleShot(PAINT_LATEST_MS, begin)
    if window.painted or not window.isVisible():
        begin()
    loop.exec()
    worker.join()
    window.firstPainted.disconnect(after_paint)
    return took[0]
