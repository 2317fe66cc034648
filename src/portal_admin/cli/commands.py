"""The commands of ``portal-admin-cli``: each returns its exit status."""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from pathlib import Path
from typing import Any

from portal_admin import jobs
from portal_admin.connection import builtin
from portal_admin.connection.profiles import ProfileStore, sandbox_profile
from portal_admin.files.atomic import atomic_open
from portal_admin.files.csv_rules import DELIMITERS, ENCODING, write_rows
from portal_admin.jobs import targets as pick

from .session import Connection, UsageError, connect

OK, FAILED = 0, 1

#: What each skip or import code means, for people.
REASONS = {
    "SELF": "the signed-in account itself",
    "NO_CHANGE": "already has the new value",
    "NOT_ALLOWED": "its current status does not allow this",
    "NOT_FOUND": "not found",
    "DUPLICATE": "listed more than once",
    "FINAL": "already accepted, declined, expired or cancelled",
    "PENDING_EXISTS": "a pending invitation exists",
    "INVALID": "neither an email nor an id",
}
IMPORT_ERRORS = {
    "WRONG_ENCODING": "the file is not UTF-8",
    "TOO_LARGE": "the file is too large (64 MiB at most)",
    "TOO_MANY_LINES": f"the file has more than {pick.MAX_LINES:,} lines",
    "MISSING_COLUMN": "no column is named email or id",
    "BAD_CSV": "the CSV cannot be read",
    "EMPTY": "the file lists nothing",
}
QUERY_COLUMNS = (
    ("id", "id"),
    ("email", "email"),
    ("name", "name"),
    ("status", "status"),
    ("portal", "portal"),
    ("institution", "institution"),
    ("language", "language"),
    ("timezone", "timezone"),
    ("country", "country"),
    ("remark", "remark"),
)


def say(text: str) -> None:
    """A line for the person, on standard error (standard output carries data)."""
    print(text, file=sys.stderr, flush=True)


async def run(args: Any) -> int:
    """Dispatch to the command."""
    if args.area == "accounts":
        return await query_accounts(args)
    if args.area == "jobs":
        if args.command == "list":
            return list_jobs()
        if args.command == "show":
            return show_job(args.job)
        return await resume_job(args)
    return await bulk(args)


def _filters(args: Any) -> dict[str, Any]:
    values = {
        "status": args.status,
        "portal": args.portal,
        "institution_biz_id": args.institution,
        "email": args.email,
        "name": args.name,
    }
    return {k: v for k, v in values.items() if v}


async def query_accounts(args: Any) -> int:
    """``accounts query``: every matching account as CSV or JSON."""
    async with connect(args) as conn:
        rows = [
            {"id": t.id, **t.record}
            async for t in pick.all_accounts(conn.client, sort=args.sort, **_filters(args))
        ]
    if args.format == "json":
        text = json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
        if args.out:
            with atomic_open(Path(args.out)) as fh:
                fh.write(text)
        else:
            sys.stdout.write(text)
    else:
        table = [[title for title, _ in QUERY_COLUMNS]]
        table += [[row.get(key, "") for _, key in QUERY_COLUMNS] for row in rows]
        if args.out:
            with atomic_open(Path(args.out), encoding=ENCODING, newline="") as fh:
                write_rows(fh, table, DELIMITERS[args.delimiter])
        else:
            write_rows(sys.stdout, table, DELIMITERS[args.delimiter])
    say(f"{len(rows)} accounts")
    return OK


def _read_list(path: str) -> jobs.TargetList:
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    try:
        return jobs.parse_list(jobs.decode(data))
    except jobs.ImportFailed as exc:
        where = f", line {exc.line}" if exc.line else ""
        raise UsageError(f"{path}{where}: {IMPORT_ERRORS.get(exc.code, exc.code)}") from None


def _action(args: Any) -> jobs.Action:
    if args.command == "status":
        return jobs.ChangeStatus(args.action, reason=args.reason)
    if args.command == "reset-password":
        return jobs.ResetPassword()
    if args.command == "update":
        return jobs.UpdateField(args.field, args.value)
    if args.command == "invite":
        return jobs.Invite(message=args.message, expiration_days=args.expiration_days)
    return jobs.CancelInvitation(reason=args.reason)


async def _targets(
    conn: Connection, action: jobs.Action, args: Any
) -> tuple[Any, list[jobs.Problem], str]:
    """Targets, problem lines and a description of where they came from."""
    client = conn.client
    if isinstance(action, jobs.Invite):
        listed = _read_list(args.file)
        found, problems = pick.invitee_targets(await client.invitations.list(), listed)
        return found, problems, f"file {args.file}"
    if isinstance(action, jobs.CancelInvitation):
        invitations = await client.invitations.list()
        if args.file and not args.all_pending:
            found, problems = pick.match_invitations(invitations, _read_list(args.file))
            return found, problems, f"file {args.file}"
        if not args.all_pending:
            raise UsageError("name the invitations: --file CSV or --all-pending")
        cutoff = None
        if args.older_than is not None:
            cutoff = dt.datetime.now(dt.UTC) - dt.timedelta(days=args.older_than)
        chosen = [
            jobs.actions.invitation_target(i)
            for i in invitations
            if i.invitation_status is not None
            and i.invitation_status.is_("PENDING")
            and (cutoff is None or (i.created_at is not None and i.created_at < cutoff))
        ]
        return (
            chosen,
            [],
            "every pending invitation" + (f" older than {args.older_than} days" if cutoff else ""),
        )
    sources = [bool(args.file), bool(args.ids), bool(args.all_matching)]
    if sum(sources) != 1:
        raise UsageError("name the accounts: one of --file, --ids and --all-matching")
    if args.file:
        found, problems = await pick.match_accounts(client, _read_list(args.file))
        return found, problems, f"file {args.file}"
    if args.ids:
        listed = jobs.parse_list("\n".join(i.strip() for i in args.ids.split(",")))
        found, problems = await pick.match_accounts(client, listed)
        return found, problems, "ids"
    filters = _filters(args)
    return pick.all_accounts(client, **filters), [], f"accounts matching {filters or 'all'}"


def _summary(job: jobs.JobFile) -> str:
    counts = job.counts()
    parts = [f"{counts['planned']} to change"]
    for reason, n in sorted(job.skip_counts().items()):
        parts.append(f"{n} skipped: {REASONS.get(reason, reason)}")
    return ", ".join(parts)


async def bulk(args: Any) -> int:
    """``bulk ...``: plan, confirm, run, write the result."""
    action = _action(args)
    if args.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    async with connect(args) as conn:
        found, problems, source = await _targets(conn, action, args)
        job = await jobs.create_job(
            conn.client,
            action,
            found,
            conn.context(),
            problems=problems,
            concurrency=args.concurrency,
            source=source,
        )
        say(f"job {job.id}: {action.describe()} on {source}")
        say(f"plan: {_summary(job)}")
        if args.dry_run:  # a preview: the plan is written where asked, the job is not kept
            if args.out:
                jobs.write_plan(job, Path(args.out), delimiter=DELIMITERS[args.delimiter])
                say(f"plan written to {args.out}")
            job.discard()
            return OK
        try:
            _confirm(conn, job, args.confirm)
            return await _run(conn, job, args)
        except UsageError:
            job.discard()  # not confirmed: nothing was sent
            raise
        finally:
            job.close()


def _confirm(conn: Connection, job: jobs.JobFile, typed: int | None) -> None:
    """On a production connection the number of targets must be typed (or --confirm N)."""
    if not conn.profile.environment.needs_confirmation:
        return
    count = job.counts()["planned"]
    if typed is None:
        if not sys.stdin.isatty():
            raise UsageError(f"production: confirm with --confirm {count}")
        say(f"PRODUCTION ({conn.profile.name}): type {count} to change {count} targets: ")
        answer = sys.stdin.readline().strip()
        typed = int(answer) if answer.isdigit() else None
    if typed != count:
        raise UsageError(f"not confirmed: {count} targets would change")


def _progress_printer(enabled: bool) -> Any:
    last = [0.0]

    def show(progress: jobs.Progress) -> None:
        now = time.monotonic()
        if not enabled or (now - last[0] < 0.25 and progress.state is jobs.JobState.RUNNING):
            return
        last[0] = now
        c = progress.counts
        eta = f", {progress.eta:.0f} s left" if progress.eta is not None else ""
        paused = f" PAUSED ({progress.pause_reason})" if progress.pause_reason else ""
        sys.stderr.write(
            f"\r{progress.finished}/{progress.total} done {c['done']} failed {c['failed']}"
            f" skipped {c['skipped']} unknown {c['unknown']}"
            f" · {progress.rate:.0f}/s{eta}{paused}   "
        )
        sys.stderr.flush()

    return show


async def _run(conn: Connection, job: jobs.JobFile, args: Any) -> int:
    show = _progress_printer(args.progress or sys.stderr.isatty())
    runner = jobs.Runner(
        conn.client,
        job,
        concurrency=args.concurrency,
        on_progress=show,
        stop_on_pause=True,
    )
    try:
        progress = await runner.run()
    finally:
        out = Path(args.out) if args.out else job.path.with_name(f"{job.id}.result.csv")
        jobs.write_result(job, out, delimiter=DELIMITERS[args.delimiter])
        if args.progress or sys.stderr.isatty():
            sys.stderr.write("\n")
        say(f"result written to {out}")
    counts = progress.counts
    say(
        f"{progress.state}: {counts['done']} done, {counts['failed']} failed, "
        f"{counts['skipped']} skipped, {counts['unknown']} unknown"
    )
    if progress.state is jobs.JobState.PAUSED:
        say(
            f"paused ({progress.pause_reason}): resume with 'portal-admin-cli jobs resume {job.id}'"
        )
        return FAILED
    return OK if counts["failed"] == counts["unknown"] == 0 else FAILED


def _find_job(job_id: str) -> Path:
    for path in jobs.list_jobs():
        if path.name.startswith(job_id):
            return path
    raise UsageError(f"no job {job_id!r} (see 'portal-admin-cli jobs list')")


def list_jobs() -> int:
    """``jobs list``."""
    rows = [("id", "action", "state", "done", "failed", "skipped", "left", "created", "server")]
    for path in jobs.list_jobs():
        try:
            job = jobs.JobFile.open(path)
        except jobs.JobFileError:
            continue
        try:
            meta, counts = job.meta(), job.counts()
            state = str(meta["state"])
            if state == "running" and not job.is_locked_elsewhere():
                state = "interrupted"
            rows.append(
                (
                    job.id,
                    str(meta["kind"]),
                    state,
                    str(counts["done"]),
                    str(counts["failed"]),
                    str(counts["skipped"]),
                    str(counts["planned"] + counts["sending"]),
                    str(meta["created_at"])[:19],
                    str(meta.get("server", "")),
                )
            )
        finally:
            job.close()
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return OK


def show_job(job_id: str) -> int:
    """``jobs show ID``: every line as CSV on standard output."""
    job = jobs.JobFile.open(_find_job(job_id))
    try:
        header = ("target id", "target", "current", "new", "state", "reason or code", "note")
        rows = [
            (i.target_id, i.label, i.current, i.new, str(i.state), i.skip or i.error_code, i.note)
            for i in job.items()
        ]
        write_rows(sys.stdout, [header, *rows])
    finally:
        job.close()
    return OK


async def resume_job(args: Any) -> int:
    """``jobs resume ID``: on the job's own connection unless one is named."""
    job = jobs.JobFile.open(_find_job(args.job))
    try:
        meta = job.meta()
        if job.is_locked_elsewhere():
            raise UsageError(f"job {job.id} is being run by another program")
        if meta["state"] in (jobs.JobState.FINISHED, jobs.JobState.CANCELLED):
            raise UsageError(f"job {job.id} is {meta['state']}: nothing to resume")
        profile = None
        if not (args.sandbox or args.profile or args.server):
            if meta.get("server") == builtin.SANDBOX_BASE_URL:
                profile = sandbox_profile()
            else:
                profile = ProfileStore().find(str(meta.get("profile", "")))
                if profile is None:
                    raise UsageError("name the job's server: --profile NAME or --server URL")
        async with connect(args, profile) as conn:
            if conn.email.lower() != str(meta.get("account", "")).lower():
                say(f"note: the job was planned by {meta.get('account')}")
            args.concurrency = args.concurrency or int(meta.get("concurrency") or 4)
            return await _run(conn, job, args)
    finally:
        job.close()
