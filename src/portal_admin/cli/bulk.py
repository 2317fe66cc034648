"""``bulk status | reset-password | update | invite | cancel-invitations``: plan, show the plan,
then (unless ``--dry-run``) confirm on production, run, and write the result file."""

from __future__ import annotations

from dataclasses import dataclass

from portal_admin import jobs

from . import targets
from .errors import EXIT_OK
from .output import say, writable
from .running import confirm_and_run, planned, write_plan
from .session import Connection, connect
from .targets import TargetOptions
from .typed import ConnectionOptions, RunOptions
from .words import skip


@dataclass(frozen=True)
class BulkCommand:
    """A bulk command (``command``) and its options; those of one command only have defaults."""

    command: str
    connection: ConnectionOptions
    targets: TargetOptions
    run: RunOptions
    action: str = ""  # status: ACTIVATE, SUSPEND or DEACTIVATE
    reason: str | None = None  # status, cancel-invitations
    field: str = ""  # update
    value: str = ""  # update
    message: str | None = None  # invite
    expiration_days: int = 7  # invite


def action_of(cmd: BulkCommand) -> jobs.Action:
    """The engine's action for the command and its options."""
    if cmd.command == "status":
        return jobs.ChangeStatus(cmd.action, reason=cmd.reason or None)
    if cmd.command == "reset-password":
        return jobs.ResetPassword()
    if cmd.command == "update":
        return jobs.UpdateField(cmd.field, cmd.value)
    if cmd.command == "invite":
        return jobs.Invite(message=cmd.message or None, expiration_days=cmd.expiration_days)
    return jobs.CancelInvitation(reason=cmd.reason or "")


async def choose(
    conn: Connection, action: jobs.Action, cmd: BulkCommand, names: jobs.TargetList | None
) -> targets.Chosen:
    """The targets the options name, for ``action`` (``names``: the list they gave)."""
    if isinstance(action, jobs.Invite):
        assert names is not None  # --file is required
        return await targets.invitees(conn.client, cmd.targets, names)
    if isinstance(action, jobs.CancelInvitation):
        return await targets.invitations(conn.client, cmd.targets, names)
    return await targets.accounts(
        conn.client,
        cmd.targets,
        names,
        concurrency=cmd.run.concurrency,
        progress=cmd.run.progress,
    )


def summary(job: jobs.JobFile) -> str:
    """What the plan does, in one line."""
    counts = job.counts()
    parts = [f"{counts['planned']:,} to change"]
    for reason, n in sorted(job.skip_counts().items()):
        parts.append(f"{n:,} skipped ({skip(reason)})")
    return ", ".join(parts)


async def run_bulk(cmd: BulkCommand) -> int:
    """Plan the command's change; show or write the plan; unless a dry run, run it."""
    action = action_of(cmd)
    out = str(writable(cmd.run.out)) if cmd.run.out else None
    names = targets.listed(cmd.command, cmd.targets)
    assert cmd.run.concurrency is not None  # only jobs resume leaves it to the job
    async with connect(cmd.connection) as conn:
        chosen = await choose(conn, action, cmd, names)
        job = await jobs.create_job(
            conn.client,
            action,
            chosen.targets,
            conn.context(),
            problems=chosen.problems,
            concurrency=cmd.run.concurrency,
            source=chosen.source,
        )
        with planned(job):
            say(f"{action.describe()} on {chosen.source}")
            say(f"plan: {summary(job)}")
            if cmd.run.dry_run:  # a preview: the plan is written where asked; no job is kept
                write_plan(job, cmd.run, out)
                say("dry run: nothing was sent")
                return EXIT_OK
            return await confirm_and_run(conn, [job], cmd.run, [out])
