"""Running a job to its end or its first pause, with progress, Ctrl+C and the result file;
its plan shown or written first (a dry run), and the confirmation before it runs.

The first Ctrl+C pauses the job: nothing more is sent, the requests under way finish and their
outcomes are kept, and the job can be resumed (``jobs resume ID``). A second one stops at
once; the job stays resumable (targets whose answer did not arrive are read back first).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from portal_admin import jobs
from portal_admin.files.csv_rules import DELIMITERS

from .confirm import confirm_jobs
from .errors import EXIT_FAILED, EXIT_OK, UsageError
from .output import say, show_plan, write_json_lines
from .progress import ProgressPrinter
from .session import Connection
from .typed import RunOptions
from .words import pause

#: A plan as CSV to a path, with a delimiter (``jobs.write_plan``, ``jobs.write_revert_plan``).
PlanWriter = Callable[..., int]


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


@contextlib.contextmanager
def planned(job: jobs.JobFile) -> Iterator[jobs.JobFile]:
    """A job just planned, kept (closed) after once it started to run; deleted when it never
    did (a plan only previewed, not confirmed, or interrupted before anything was sent)."""
    try:
        yield job
    finally:
        if job.state() is jobs.JobState.PLANNED:
            job.discard()
        else:
            job.close()


def write_plan(
    job: jobs.JobFile,
    run: RunOptions,
    out: str | None,
    *,
    lines: Iterable[dict[str, str]] | None = None,
    as_csv: PlanWriter = jobs.write_plan,
    shown: bool = True,
) -> None:
    """A dry run's plan: as JSON lines (``--format json``: ``lines``, by default the bulk
    plan's) to ``out`` or standard output; else as CSV (``as_csv``) to ``out``; else, when
    ``shown``, on standard output for a person."""
    if run.format == "json":
        write_json_lines(jobs.plan_lines(job) if lines is None else lines, out)
    elif out:
        as_csv(job, Path(out), delimiter=DELIMITERS[run.delimiter])
        say(f"plan: {out}")
    elif shown:
        show_plan(jobs.plan_lines(job))


async def confirm_and_run(
    conn: Connection,
    found: Sequence[jobs.JobFile],
    run: RunOptions,
    outs: Sequence[str | None],
) -> int:
    """Confirm the jobs ``found`` that were never confirmed (their targets together: one
    number), then run them in turn, each writing its result to its ``outs``, until one ends
    otherwise than well (paused or failed); returns the exit status. UsageError (nothing is
    sent) when not confirmed."""
    fresh = [job for job in found if job.state() is jobs.JobState.PLANNED]
    confirm_jobs(fresh, str(conn.profile.environment), conn.profile.name, run.confirm)
    status = EXIT_OK
    for job, out in zip(found, outs, strict=True):
        state = job.state()
        if state in (jobs.JobState.FINISHED, jobs.JobState.CANCELLED):
            say(f"job {job.id} is {state}")
            continue
        say(f"job {job.id}")
        status = await run_job(conn, job, run, out)
        if status != EXIT_OK:
            break  # paused or failed: resume it (jobs resume), the others wait
    return status


async def run_job(conn: Connection, job: jobs.JobFile, run: RunOptions, out: str | None) -> int:
    """Run ``job`` on ``conn`` as ``run`` says; write the result file (to ``out``, else beside
    the job file); return the exit status. ``--format json``: the result also as JSON lines,
    to ``out`` or standard output (the result CSV then goes beside the job file)."""
    as_lines, lines_to = run.format == "json", out
    if as_lines:
        out = None

    def write() -> None:
        _write_result(job, out, run.delimiter)
        if as_lines:
            write_json_lines(jobs.result_lines(job), lines_to)

    printer = ProgressPrinter(forced=run.progress)
    runner = jobs.Runner(
        conn.client, job, concurrency=run.concurrency, on_progress=printer, stop_on_pause=True
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
