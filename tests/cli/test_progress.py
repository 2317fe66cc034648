"""Progress on standard error: only on a terminal unless asked, a few times a second at most."""

from __future__ import annotations

import io

from portal_admin.cli.progress import ProgressPrinter, line
from portal_admin.jobs import JobState, Progress


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def progress(done: int, state: JobState = JobState.RUNNING, **extra: object) -> Progress:
    counts = {"planned": 100 - done, "done": done, "failed": 0, "skipped": 0, "unknown": 0}
    return Progress(
        total=100, counts=counts, state=state, rate=50.0, eta=(100 - done) / 50, **extra
    )  # type: ignore[arg-type]


def test_a_line_has_counts_rate_and_time_left() -> None:
    assert line(progress(40)) == (
        "40/100 · done 40 · failed 0 · skipped 0 · unknown 0 · 50/s · 1 s left"
    )
    paused = line(progress(40, JobState.PAUSED, pause_reason="CONNECTION", pause_detail="X"))
    assert paused.endswith("pausing: the server could not be reached (X)")
    waiting = progress(40, settling=12.4)
    waiting.counts["sending"] = 3
    assert line(waiting).endswith(
        "waiting 12 s before reading back 3 unanswered (they may still be applied)"
    )


def test_nothing_is_shown_off_a_terminal_unless_asked() -> None:
    quiet = io.StringIO()
    ProgressPrinter(quiet)(progress(1, JobState.FINISHED))
    assert quiet.getvalue() == ""
    log = io.StringIO()
    now = [0.0]
    printer = ProgressPrinter(log, forced=True, clock=lambda: now[0])
    for i in range(1, 30):  # 29 updates in 2.9 s: one a second in a log
        now[0] = i / 10
        printer(progress(i))
    printer(progress(100, JobState.FINISHED))
    lines = log.getvalue().splitlines()
    assert len(lines) == 4 and lines[-1].startswith("100/100")


def test_a_terminal_line_is_rewritten_a_few_times_a_second() -> None:
    tty = Tty()
    now = [0.0]
    printer = ProgressPrinter(tty, clock=lambda: now[0])
    for i in range(1, 21):  # 20 updates in 1 s
        now[0] = i / 20
        printer(progress(i))
    printer.end()
    shown = tty.getvalue()
    assert 3 <= shown.count("\r") <= 5 and shown.endswith("\n")
