"""``jobs list | show | resume``: the bulk jobs kept in the user data folder."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from portal_admin import jobs
from portal_admin.connection import builtin
from portal_admin.connection.profile_store import ProfileStore
from portal_admin.connection.profiles import Profile, sandbox_profile
from portal_admin.files.terminal import printable
from portal_admin.jobs.plan import outcome
from portal_admin.jobs.summary import summarize

from .errors import EXIT_OK, UsageError
from .output import say, writable, write_csv, write_json_lines
from .running import confirm_and_run
from .session import connect, same_server
from .typed import ConnectionOptions, RunOptions
from .words import pause

LIST_HEADER = ("id", "action", "state", "done", "failed", "skipped", "unknown", "left")
LIST_HEADER_END = ("created", "server")
SHOW_HEADER = (
    "target id",
    "target",
    "current",
    "new",
    "state",
    "skipped because or error code",
    "request id",
    "time",
    "note",
)


@dataclass(frozen=True)
class ListCommand:
    """``jobs list``: text or JSON lines."""

    format: str


@dataclass(frozen=True)
class ShowCommand:
    """``jobs show ID``: where and how its lines go."""

    job: str
    out: str | None
    delimiter: str
    format: str


@dataclass(frozen=True)
class ResumeCommand:
    """``jobs resume ID``: its connection (default: the job's own) and how it runs."""

    job: str
    connection: ConnectionOptions
    run: RunOptions


def find_job(job_id: str) -> Path:
    """The job file whose id is ``job_id`` (or starts with it, when only one does)."""
    found = [path for path in jobs.list_jobs() if path.name.startswith(job_id)]
    exact = [path for path in found if path.name == f"{job_id}{jobs.store.SUFFIX}"]
    if exact or len(found) == 1:
        return (exact or found)[0]
    if not found:
        raise UsageError(f"no job {job_id!r} (see 'portal-admin-cli jobs list')")
    raise UsageError(f"{len(found)} jobs start with {job_id!r}: give more of the id")


@contextmanager
def opened(job_id: str) -> Iterator[jobs.JobFile]:
    """The job file, closed after."""
    try:
        job = jobs.JobFile.open(find_job(job_id))
    except jobs.JobFileError as exc:
        raise UsageError(str(exc)) from None
    try:
        yield job
    finally:
        job.close()


def list_jobs(cmd: ListCommand) -> int:
    """``jobs list``: id, action, state, counts, created and server of every job."""
    summaries = [job.as_record() for job in jobs.read_summaries()]
    if cmd.format == "json":
        write_json_lines(summaries, None)
        return EXIT_OK
    rows: list[tuple[str, ...]] = [(*LIST_HEADER, *LIST_HEADER_END)]
    for job in summaries:
        rows.append(
            (
                job["id"],
                job["action"],
                job["state"],
                *(f"{job[k]:,}" for k in LIST_HEADER[3:]),
                job["created"][:19].replace("T", " "),
                printable(job["server"], 100),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return EXIT_OK


def show_job(cmd: ShowCommand) -> int:
    """``jobs show ID``: what the job is (standard error) and its lines as CSV."""
    with opened(cmd.job) as job:
        meta = job.meta()
        action = jobs.action_from(meta["kind"], meta.get("params") or {})
        say(f"job {job.id}: {action.describe()} on {meta.get('source') or 'a list'}")
        say(
            f"{summarize(job).state}"
            + (f" ({pause(meta.get('pause_reason'))})" if meta.get("pause_reason") else "")
            + f"; {meta.get('server', '')} as {meta.get('account', '')}"
            + f"; created {meta.get('created_at', '')}"
        )
        rows = (
            (
                i.target_id,
                i.label,
                i.current,
                i.new,
                outcome(i),
                i.skip or i.error_code or "",
                i.request_id or "",
                i.finished_at or "",
                i.note or "",
            )
            for i in job.items()
        )
        out = str(writable(cmd.out)) if cmd.out else None
        if cmd.format == "json":
            write_json_lines(jobs.result_lines(job), out)
        else:
            write_csv([SHOW_HEADER, *rows], out, cmd.delimiter)
    return EXIT_OK


def job_connection(
    meta: dict[str, Any], options: ConnectionOptions
) -> tuple[Profile | None, ConnectionOptions]:
    """The job's own server and account when the options name none (the profile None: the
    options say which), as the job's metadata ``meta`` records them."""
    options = replace(options, user=options.user or meta.get("account") or None)
    return _profile_of(meta, options), options


def _profile_of(meta: dict[str, Any], options: ConnectionOptions) -> Profile | None:
    if options.named:
        return None
    if same_server(str(meta.get("server", "")), builtin.SANDBOX_BASE_URL):
        return sandbox_profile()
    profile = ProfileStore().find(str(meta.get("profile", "")))
    if profile is None:
        raise UsageError(
            f"the job ran on {meta.get('server')} with no profile of that name here:"
            " name it with --profile NAME or --server URL"
        )
    return profile


async def resume_job(cmd: ResumeCommand) -> int:
    """``jobs resume ID``: go on with a paused or interrupted job, on its own server."""
    with opened(cmd.job) as job:
        meta = job.meta()
        if job.is_locked_elsewhere():
            raise UsageError(
                f"job {job.id} is being run by another program: wait for it to end or pause it"
            )
        if meta["state"] in (jobs.JobState.FINISHED, jobs.JobState.CANCELLED):
            raise UsageError(f"job {job.id} is {meta['state']}: nothing to resume")
        out = str(writable(cmd.run.out)) if cmd.run.out else None  # None: beside the job
        profile, options = job_connection(meta, cmd.connection)
        async with connect(options, profile) as conn:
            if not same_server(conn.server, str(meta.get("server", ""))):
                raise UsageError(f"job {job.id} belongs to {meta.get('server')}, not {conn.server}")
            if conn.email.lower() != str(meta.get("account", "")).lower():
                say(f"note: the job was planned by {meta.get('account')}")
            say(f"resuming {meta['kind']} ({job.counts()['planned']:,} left)")
            # a job never confirmed (a program died first) is confirmed now
            return await confirm_and_run(conn, [job], cmd.run, [out])
