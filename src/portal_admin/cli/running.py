"""Running a job to its end or its first pause, with progress, Ctrl+C and the result file.

The first Ctrl+C pauses the job: nothing more is sent, the requests under way finish and their
outcomes are kept, and the job can be resumed (``jobs resume ID``). A second one stops at
once; the job stays resumable (targets whose answer did not arrive are read back first).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from pathlib import Path

from portal_admin import jobs
from portal_admin.files.csv_rules import DELIMITERS

from .errors import EXIT_FAILED, EXIT_OK, UsageError
from .output import say, write_json_lines
from .progress import ProgressPrinter
from .session import Connection
from .words import pause


def result_path(job: jobs.JobFile, out: str | None) -> Path:
    """Where the result file goes: ``out``, else beside the job file."""
    return Path(out) if out else job.path.with_name(f"{job.id}.result.csv")


@contextlib.contextmanager
def interrupts_pause(runner: jobs.Runner) -> Iterator[None]:
    """Ctrl+C pauses ``runner`` (a second one cancels the task running it)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    previous = signal.getsignal(signal.SIGINT)

    def interrupted() -> None:
        if runner.paused and task is not None:
            task.cancel()
            return
        runner.pause(jobs.PauseReason.BY_USER)

    try:
        loop.add_signal_handler(signal.SIGINT, interrupted)
    except NotImplementedError:  # Windows' event loop: a plain handler hands it to the loop
        try:
            signal.signal(
                signal.SIGINT, lambda _sig, _frame: loop.call_soon_threadsafe(interrupted)
            )
        except ValueError:  # not the main thread: Ctrl+C stays KeyboardInterrupt
            yield
            return
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)
        return
    except (RuntimeError, ValueError):  # not the main thread
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)
        with contextlib.suppress(TypeError, ValueError):
            signal.signal(signal.SIGINT, previous)


async def run_job(
    conn: Connection,
    job: jobs.JobFile,
    *,
    concurrency: int | None,
    out: str | None,
    delimiter: str,
    progress: bool,
    form: str = "text",
) -> int:
    """Run ``job`` on ``conn``; write the result file; return the exit status. ``form``
    ``json``: the result also as JSON lines, to ``out`` or standard output (the result CSV then
    goes beside the job file)."""
    as_lines, lines_to = form == "json", out
    if as_lines:
        out = None

    def write() -> None:
        _write_result(job, out, delimiter)
        if as_lines:
            write_json_lines(jobs.result_lines(job), lines_to)

    printer = ProgressPrinter(forced=progress)
    runner = jobs.Runner(
        conn.client, job, concurrency=concurrency, on_progress=printer, stop_on_pause=True
    )
    try:
        with interrupts_pause(runner):
            final = await runner.run()
    except jobs.JobLockedError:
        raise UsageError(f"job {job.id} is being run by another program") from None
    except asyncio.CancelledError:
        printer.end()
        write()
        say(f"stopped: resume with 'portal-admin-cli jobs resume {job.id}'")
        raise
    printer.end()
    write()
    counts = final.counts
    say(
        f"{final.state}: {counts.get('done', 0):,} done, {counts.get('failed', 0):,} failed,"
        f" {counts.get('skipped', 0):,} skipped, {counts.get('unknown', 0):,} unknown"
    )
    if final.state is jobs.JobState.PAUSED:
        say(
            f"paused ({pause(final.pause_reason, final.pause_detail)}), {final.remaining:,} left:"
            f" resume with 'portal-admin-cli jobs resume {job.id}'"
        )
        return EXIT_FAILED
    if counts.get("failed", 0) or counts.get("unknown", 0):
        return EXIT_FAILED
    return EXIT_OK


def _write_result(job: jobs.JobFile, out: str | None, delimiter: str) -> None:
    path = result_path(job, out)
    jobs.write_result(job, path, delimiter=DELIMITERS[delimiter])
    say(f"result: {path}")
