"""``journal revert SEQ...`` and ``jobs revert ID``: undo journaled changes or a whole bulk job
as a bulk job of its own (docs/undo.md): the plan first (each line planned, or skipped with
why and what to do instead), then, unless ``--dry-run``, the confirmation, the run and the
result file. The kiosk cannot revert: refused before anything is read or sent."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from portal_admin import jobs
from portal_admin.connection.profiles import Profile
from portal_admin.evidence import trust
from portal_admin.files.csv_rules import DELIMITERS
from portal_admin.files.terminal import printable
from portal_admin.jobs.reversible import norm

from .confirm import confirm_job
from .errors import EXIT_OK, UsageError
from .job_commands import _profile_of, find_job
from .output import say, writable
from .running import run_job
from .session import Connection, connect, resolve_profile
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


async def _revert(args: Any, profile: Profile | None, planner: Planner) -> int:
    if args.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    profile = profile or resolve_profile(args)
    _refuse_kiosk(profile)
    out = str(writable(args.out)) if args.out else None
    async with connect(args, profile) as conn:
        try:
            job = await planner(conn)
        except jobs.RevertError as exc:
            raise UsageError(printable(f"{exc} (nothing was sent)")) from None
        started = False
        try:
            say(f"{jobs.action_from('revert', job.meta()['params']).describe()}")
            _show(job)
            if args.dry_run:
                if out:
                    jobs.write_revert_plan(job, Path(out), delimiter=DELIMITERS[args.delimiter])
                    say(f"plan: {out}")
                say("dry run: nothing was sent")
                return EXIT_OK
            if job.counts()["planned"] == 0:
                say("nothing to set back: nothing was sent")
                return EXIT_OK
            confirm_job(job, str(conn.profile.environment), conn.profile.name, args.confirm)
            say(f"job {job.id}")
            started = True
            return await run_job(
                conn,
                job,
                concurrency=args.concurrency,
                out=out,
                delimiter=args.delimiter,
                progress=args.progress,
            )
        finally:
            if started:
                job.close()
            else:  # previewed, not confirmed, or nothing to do: no job is kept
                job.discard()


async def journal_revert(args: Any) -> int:
    """``journal revert SEQ...``: set the values these journal records changed back."""

    def plan(conn: Connection) -> Awaitable[jobs.JobFile]:
        return jobs.plan_records_revert(
            conn.client,
            args.seqs,
            conn.context(),
            expected_key=trust.own_fingerprint,
            concurrency=args.concurrency,
            reason=args.reason,
            accept_unauthenticated=args.accept_unauthenticated,
        )

    return await _revert(args, None, plan)


async def job_revert(args: Any) -> int:
    """``jobs revert ID``: set back every change the journal records for a bulk job."""
    job_id, profile = args.job, None
    try:
        path = find_job(args.job)
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
        profile = _profile_of(meta, args)
        args.user = args.user or meta.get("account") or None

    def plan(conn: Connection) -> Awaitable[jobs.JobFile]:
        return jobs.plan_job_revert(
            conn.client,
            job_id,
            conn.context(),
            expected_key=trust.own_fingerprint,
            concurrency=args.concurrency,
            reason=args.reason,
            accept_unauthenticated=args.accept_unauthenticated,
        )

    return await _revert(args, profile, plan)
