"""``bulk status | reset-password | update | invite | cancel-invitations``: plan, show the plan,
then (unless ``--dry-run``) confirm on production, run, and write the result file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from portal_admin import jobs
from portal_admin.files.csv_rules import DELIMITERS

from . import targets
from .confirm import confirm_job
from .errors import EXIT_OK
from .output import say, show_plan, writable, write_json_lines
from .running import run_job
from .session import Connection, connect
from .words import skip


def action_of(args: Any) -> jobs.Action:
    """The engine's action for the command and its options."""
    if args.command == "status":
        return jobs.ChangeStatus(args.action, reason=args.reason or None)
    if args.command == "reset-password":
        return jobs.ResetPassword()
    if args.command == "update":
        return jobs.UpdateField(args.field, args.value)
    if args.command == "invite":
        return jobs.Invite(message=args.message or None, expiration_days=args.expiration_days)
    return jobs.CancelInvitation(reason=args.reason)


async def choose(
    conn: Connection, action: jobs.Action, args: Any, names: jobs.TargetList | None
) -> targets.Chosen:
    """The targets the options name, for ``action`` (``names``: the list they gave)."""
    if isinstance(action, jobs.Invite):
        assert names is not None  # --file is required
        return await targets.invitees(conn.client, args, names)
    if isinstance(action, jobs.CancelInvitation):
        return await targets.invitations(conn.client, args, names)
    return await targets.accounts(conn.client, args, names)


def summary(job: jobs.JobFile) -> str:
    """What the plan does, in one line."""
    counts = job.counts()
    parts = [f"{counts['planned']:,} to change"]
    for reason, n in sorted(job.skip_counts().items()):
        parts.append(f"{n:,} skipped ({skip(reason)})")
    return ", ".join(parts)


async def run_bulk(args: Any) -> int:
    """Plan the command's change; show or write the plan; unless a dry run, run it."""
    action = action_of(args)
    out = str(writable(args.out)) if args.out else None
    names = targets.listed(args)
    async with connect(args) as conn:
        chosen = await choose(conn, action, args, names)
        job = await jobs.create_job(
            conn.client,
            action,
            chosen.targets,
            conn.context(),
            problems=chosen.problems,
            concurrency=args.concurrency,
            source=chosen.source,
        )
        started = False
        try:
            say(f"{action.describe()} on {chosen.source}")
            say(f"plan: {summary(job)}")
            if args.dry_run:  # a preview: the plan is written where asked; no job is kept
                if args.format == "json":
                    write_json_lines(jobs.plan_lines(job), out)
                elif out:
                    jobs.write_plan(job, Path(out), delimiter=DELIMITERS[args.delimiter])
                    say(f"plan: {out}")
                else:
                    show_plan(jobs.plan_lines(job))
                say("dry run: nothing was sent")
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
                form=args.format,
            )
        finally:
            if started:
                job.close()
            else:  # previewed, not confirmed or interrupted before anything was sent
                job.discard()
