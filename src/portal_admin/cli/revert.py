"""``journal revert SEQ...`` and ``jobs revert ID``: undo journaled changes or a whole bulk job
as a bulk job of its own (docs/undo.md): the plan first (each line planned, or skipped with
why and what to do instead), then, unless ``--dry-run``, the confirmation, the run and the
result file. The kiosk cannot revert: refused before anything is read or sent."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass

from portal_admin import jobs
from portal_admin.connection.profiles import Profile
from portal_admin.evidence import trust
from portal_admin.files.terminal import printable
from portal_admin.jobs.reversible import norm
from portal_admin.jobs.revert import revert_lines

from .errors import EXIT_OK, UsageError
from .job_commands import find_job, job_connection
from .output import say, writable
from .running import confirm_and_run, planned, write_plan
from .session import Connection, connect, resolve_profile
from .typed import ConnectionOptions, RunOptions
from .words import skip

#: Skipped lines shown on the terminal (the plan file holds all).
SHOWN = 20
#: Words of a revert's skips where a bulk job's would mislead.
REVERT_SKIPS: dict[str, str] = {
    jobs.Skip.NO_CHANGE: "already back",
    jobs.Skip.NOT_ALLOWED: "the way back is not an allowed transition",
    jobs.Skip.SELF: "the signed-in account's own status",
    jobs.RevertSkip.UNAUTHENTICATED: "journal record not authenticated",
}


def _word(code: str) -> str:
    return REVERT_SKIPS.get(code) or skip(code)


Planner = Callable[[Connection], Awaitable[jobs.JobFile]]


@dataclass(frozen=True)
class RevertOptions:
    """What a revert takes besides how it runs: why (``--reason``, kept with each change), and
    whether journal records nothing vouches for are reverted (``--accept-unauthenticated``)."""

    reason: str
    accept_unauthenticated: bool


@dataclass(frozen=True)
class JobRevertCommand:
    """``jobs revert ID``: the job, the connection (default: the job's), the revert's options,
    how it runs."""

    job: str
    connection: ConnectionOptions
    revert: RevertOptions
    run: RunOptions


@dataclass(frozen=True)
class JournalRevertCommand:
    """``journal revert SEQ...``: the journal records, the connection, the revert's options,
    how it runs."""

    seqs: tuple[int, ...]
    connection: ConnectionOptions
    revert: RevertOptions
    run: RunOptions


def _refuse_kiosk(profile: Profile) -> None:
    if profile.kiosk:
        raise UsageError(f"{profile.name} is a kiosk profile: it cannot revert (nothing was sent)")


def _show(job: jobs.JobFile) -> None:
    """The plan's counts, and its skipped lines with why and what to do instead."""
    counts = job.counts()
    parts = [f"{counts['planned']:,} to set back"]
    for reason, n in sorted(job.skip_counts().items()):
        parts.append(f"{n:,} skipped ({_word(reason)})")
    say(f"plan: {', '.join(parts)}")
    doubtful = job.skip_counts().get(jobs.RevertSkip.UNAUTHENTICATED, 0)
    if doubtful:
        say(
            f"  {doubtful:,} journal record(s) of this job are NOT AUTHENTICATED (no checkpoint"
            " of this installation vouches for them, this program did not write them, and the"
            " job file does not confirm them): left alone; check them, then"
            " --accept-unauthenticated to revert them anyway"
        )
    accepted = job.meta().get("unauthenticated_accepted") or []
    if accepted:
        say(f"  {len(accepted):,} unauthenticated journal record(s) accepted on purpose")
    skipped = list(job.items([jobs.ItemState.SKIPPED]))
    for item in skipped[:SHOWN]:
        record = item.record
        what = record.get("key") or record.get("operation") or ""
        values = (
            f"before {norm(record.get('before')) or '-'}, after {norm(record.get('after')) or '-'},"
            f" now {norm(record.get('now')) or '-'}"
        )
        instead = f"; instead: {record['instead']}" if record.get("instead") else ""
        # The label is the server's, the values the journal's: neutralised for the terminal.
        say(printable(f"  {item.label} {what}: {_word(item.skip or '')} ({values}){instead}"))
    if len(skipped) > SHOWN:
        say(f"  ... and {len(skipped) - SHOWN:,} more (see the plan: --dry-run --out FILE)")


async def _revert(
    connection: ConnectionOptions, run: RunOptions, profile: Profile | None, planner: Planner
) -> int:
    profile = profile or resolve_profile(connection)
    _refuse_kiosk(profile)
    out = str(writable(run.out)) if run.out else None
    async with connect(connection, profile) as conn:
        try:
            job = await planner(conn)
        except jobs.RevertError as exc:
            raise UsageError(printable(f"{exc} (nothing was sent)")) from None
        with planned(job):
            say(f"{jobs.action_from('revert', job.meta()['params']).describe()}")
            _show(job)
            if run.dry_run:
                write_plan(
                    job, run, out, lines=plan_lines(job), as_csv=jobs.write_revert_plan, shown=False
                )
                say("dry run: nothing was sent")
                return EXIT_OK
            if job.counts()["planned"] == 0:
                say("nothing to set back: nothing was sent")
                return EXIT_OK
            return await confirm_and_run(conn, [job], run, [out])


#: The keys of a revert plan's JSON lines (``--dry-run --format json``): the CSV's columns.
PLAN_KEYS = (
    "target_id", "target", "value", "before", "after", "now", "plan", "why", "instead",
    "journal_records",
)  # fmt: skip


def plan_lines(job: jobs.JobFile) -> Iterator[dict[str, str]]:
    """A revert's plan as records: each line's value, before, after and now, ``plan``
    (``planned`` or why it is skipped), why, what to do instead, and its journal records."""
    for line in revert_lines(job):
        yield dict(zip(PLAN_KEYS, line, strict=True))


async def journal_revert(cmd: JournalRevertCommand) -> int:
    """``journal revert SEQ...``: set the values these journal records changed back."""

    def plan(conn: Connection) -> Awaitable[jobs.JobFile]:
        return jobs.plan_records_revert(
            conn.client,
            cmd.seqs,
            conn.context(),
            expected_key=trust.own_fingerprint,
            concurrency=_concurrency(cmd.run),
            reason=cmd.revert.reason,
            accept_unauthenticated=cmd.revert.accept_unauthenticated,
        )

    return await _revert(cmd.connection, cmd.run, None, plan)


async def job_revert(cmd: JobRevertCommand) -> int:
    """``jobs revert ID``: set back every change the journal records for a bulk job."""
    job_id, profile, connection = cmd.job, None, cmd.connection
    try:
        path = find_job(cmd.job)
    except UsageError:  # no job file here: the journal alone may know the job
        path = None
    if path is not None:
        try:
            job = jobs.JobFile.open(path)
        except jobs.JobFileError as exc:
            raise UsageError(str(exc)) from None
        try:
            job_id, meta = job.id, job.meta()
        finally:
            job.close()
        profile, connection = job_connection(meta, connection)

    def plan(conn: Connection) -> Awaitable[jobs.JobFile]:
        return jobs.plan_job_revert(
            conn.client,
            job_id,
            conn.context(),
            expected_key=trust.own_fingerprint,
            concurrency=_concurrency(cmd.run),
            reason=cmd.revert.reason,
            accept_unauthenticated=cmd.revert.accept_unauthenticated,
        )

    return await _revert(connection, cmd.run, profile, plan)


def _concurrency(run: RunOptions) -> int:
    assert run.concurrency is not None  # only jobs resume leaves it to the job
    return run.concurrency
