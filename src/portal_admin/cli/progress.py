"""A running job's progress on standard error: counts, rate and time left, a few times a second.

On a terminal one line is rewritten in place; elsewhere (``--progress`` into a log) a line is
added at most once a second. Nothing is shown when standard error is no terminal, unless asked.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from portal_admin.jobs import JobState, Progress

from .words import pause

#: Seconds between two updates on a terminal, and in a log.
TERMINAL_EVERY = 0.25
LOG_EVERY = 1.0


def line(progress: Progress) -> str:
    """One progress line."""
    counts = progress.counts
    parts = [
        f"{progress.finished:,}/{progress.total:,}",
        f"done {counts.get('done', 0):,}",
        f"failed {counts.get('failed', 0):,}",
        f"skipped {counts.get('skipped', 0):,}",
        f"unknown {counts.get('unknown', 0):,}",
        f"{progress.rate:,.0f}/s",
    ]
    if progress.eta is not None and progress.remaining:
        parts.append(f"{_duration(progress.eta)} left")
    if progress.backing_off > 0:
        parts.append(f"waiting {progress.backing_off:.0f} s (the server asked)")
    if progress.settling > 0:
        unanswered = progress.counts.get("sending", 0)
        parts.append(
            f"waiting {progress.settling:.0f} s before reading back {unanswered:,} unanswered"
            " (they may still be applied)"
        )
    if progress.pause_reason:
        parts.append(f"pausing: {pause(progress.pause_reason, progress.pause_detail)}")
    return " · ".join(parts)


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class ProgressPrinter:
    """The runner's ``on_progress``: prints at most every ``every`` seconds (and the last)."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        forced: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.enabled = forced or self.terminal
        self.every = TERMINAL_EVERY if self.terminal else LOG_EVERY
        self.clock = clock
        self._last = float("-inf")
        self._shown = ""
        self._open = False  # a terminal line is waiting for its end

    def __call__(self, progress: Progress) -> None:
        now = self.clock()
        settled = progress.state is not JobState.RUNNING
        if not self.enabled or (now - self._last < self.every and not settled):
            return
        text = line(progress)
        if text == self._shown:
            return
        self._last, self._shown = now, text
        if self.terminal:
            self.stream.write(f"\r\x1b[K{text}")
            self._open = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def end(self) -> None:
        """End the rewritten line (before other messages)."""
        if self._open:
            self.stream.write("\n")
            self.stream.flush()
            self._open = False
