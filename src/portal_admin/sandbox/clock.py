"""Injectable clocks and the time formats of the wire."""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """Anything that tells the time in epoch seconds."""

    def now(self) -> float:
        """The current time, epoch seconds."""
        ...


class SystemClock:
    """The machine's clock."""

    def now(self) -> float:
        """The current time, epoch seconds."""
        return time.time()


class TestClock:
    """Real time plus an offset that only grows (moved by ``POST /sandbox/clock/advance``)."""

    __test__ = False  # not a pytest class

    def __init__(self) -> None:
        self._offset = 0.0
        self._lock = threading.Lock()

    def now(self) -> float:
        """The current time, epoch seconds."""
        return time.time() + self._offset

    def advance(self, seconds: float) -> float:
        """Move the clock forward; returns the new time."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        with self._lock:
            self._offset += seconds
        return self.now()


def to_ms(seconds: float) -> int:
    """Epoch seconds as epoch milliseconds."""
    return int(seconds * 1000)


def iso(ms: int | None) -> str | None:
    """Epoch milliseconds as ISO 8601 UTC (``2026-01-02T03:04:05Z``); None stays None.

    ``time.strftime``, not ``datetime.strftime``: the latter imports ``time`` on every call,
    which goes through PySide6's import hook when the sandbox runs inside the desktop program
    (5x slower; a third of the time of an accounts page, see docs/performance.md).
    """
    if ms is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ms // 1000))
