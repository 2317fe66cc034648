"""Undo: revert journaled changes, or a whole bulk job, as a bulk job of its own.

A revert is planned like any job (the dry run) and run by the same :class:`~.runner.Runner`:
progress, pause, resume, the crash rules, a result file and the journal. Planning reads the
journal (the signed record of what was sent: it must verify, and no recorded break may lie
after a record to revert), keeps the records of the signed-in server and profile only, reads
each target's current state, and plans each value back to its recorded value before:

- planned: the value now is still the recorded value after;
- ``CHANGED_SINCE``: someone changed it after the record (before, after and now are shown);
- ``NO_CHANGE``: it is already back;
- ``NOT_ALLOWED``: the way back is not an allowed status transition;
- ``NOT_REVERSIBLE``, ``NO_BEFORE``, ``NOT_APPLIED`` (the change was refused), ``NOT_FOUND``,
  ``OTHER_ACCOUNT`` (another account's IP whitelist), ``SELF`` (the signed-in account's
  status): each line says why (``why``) and what can be done instead (``instead``).

``plan_records_revert(client, seqs, context)`` and ``plan_job_revert(client, job_id,
context)`` return a job file in the planned state; run it with ``Runner``. See docs/undo.md.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from portal_admin.client import PortalClient
from portal_admin.client.errors import ReadOnlyError
from portal_admin.evidence import journal as journal_file
from portal_admin.files.atomic import atomic_open
from portal_admin.files.csv_rules import ENCODING, write_rows
from portal_admin.protocol.bodies import has_controls
from portal_admin.protocol.enums import ACCOUNT_TRANSITIONS
from portal_admin.protocol.operations import OPERATIONS

from . import revert_lock
from .actions import ACTION_RESULT, ACTIONS, Action, Planned, Target
from .plan import JobContext
from .reversible import (
    ACCOUNT_FIELDS,
    CHANNEL_FIELDS,
    NO_BEFORE_INSTEAD,
    NO_BEFORE_WHY,
    NOT_REVERSIBLE,
    TYPE_FIELDS,
    Value,
    norm,
    usable,
    values_of,
)
from .revert_journal import (
    UNAUTHENTICATED_INSTEAD,
    UNAUTHENTICATED_WHY,
    Entry,
    RevertError,
    believed,
    check_breaks,
    check_origin,
    collect,
    refuse_doubtful,
    same_server,
    verify_soon,
)
from .revert_reads import READ_ONE_BY_ONE, account_pages, account_values, read_accounts, read_now
from .runner import DEFAULT_CONCURRENCY
from .store import SUFFIX, Item, JobFile, JobFileError, JobLockedError, jobs_dir


class RevertSkip:
    """Why a line of a revert is left alone (besides ``actions.Skip``'s SELF, NO_CHANGE,
    NOT_ALLOWED and NOT_FOUND)."""

    CHANGED_SINCE = "CHANGED_SINCE"
    NOT_REVERSIBLE = "NOT_REVERSIBLE"
    NO_BEFORE = "NO_BEFORE"
    NOT_APPLIED = "NOT_APPLIED"
    OTHER_ACCOUNT = "OTHER_ACCOUNT"
    UNAUTHENTICATED = "UNAUTHENTICATED"


# -- the plan's lines -----------------------------------------------------------------------


@dataclass(slots=True)
class _Line:
    """One value to set back (several records of the same value merge into one line)."""

    kind: str
    target: str
    key: str
    operation: str
    before: Any = None
    after: Any = None
    has_before: bool = True
    seqs: list[int] = field(default_factory=list)
    applied: bool = False  # at least one of its changes was (or may have been) applied
    account: str = ""
    #: Left alone before anything is read: the skip code, why and what to do instead.
    refused: tuple[str, str, str] | None = None


def _lines(entries: list[Entry]) -> list[_Line]:
    """The values the entries changed, one line per target and key: the value before of its
    first change that was (or may have been) applied, the value after of its last."""
    groups: dict[tuple[str, str, str], list[tuple[Entry, Value]]] = {}
    order: list[_Line | tuple[str, str, str]] = []
    for entry in entries:
        operation = str(entry.record.get("operation", ""))
        values = values_of(entry.record)
        if not values:
            why = NOT_REVERSIBLE.get(
                operation, ("this change names nothing that can be set back", "nothing to do")
            )
            listed = entry.record.get("targets")
            targets = [str(t) for t in listed] if isinstance(listed, list) else []
            line = _Line("", targets[0] if targets else "", "", operation, seqs=[entry.seq])
            line.refused = (RevertSkip.NOT_REVERSIBLE, *why)
            order.append(line)
            continue
        for value in values:
            key = (value.kind, value.target, value.key)
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append((entry, value))
    lines: list[_Line] = []
    for each in order:
        if isinstance(each, _Line):
            lines.append(each)
            continue
        group = groups[each]
        applied = [(e, v) for e, v in group if e.outcome != "failed"]
        chosen = applied or group
        _, first = chosen[0]
        last_entry, last = chosen[-1]
        lines.append(
            _Line(
                first.kind,
                first.target,
                first.key,
                str(last_entry.record.get("operation", "")),
                before=first.before,
                after=last.after,
                has_before=first.has_before,
                seqs=[e.seq for e, _ in group],
                applied=bool(applied),
                account=str(last_entry.record.get("account", "")),
            )
        )
    return lines


async def _read_all(
    client: PortalClient,
    lines: list[_Line],
    ahead: asyncio.Future[dict[str, dict[str, Any]]] | None = None,
) -> dict[tuple[str, str], dict[str, Any] | None]:
    """Every target's values now (``ahead``: accounts being read ahead, page by page)."""
    now: dict[tuple[str, str], dict[str, Any] | None] = {}
    wanted = [line for line in lines if line.refused is None and line.kind]
    accounts = {line.target for line in wanted if line.kind == "account"}
    if accounts:
        expected = {
            norm(line.after) for line in wanted if line.kind == "account" and line.key == "status"
        }
        only_status = all(line.key == "status" for line in wanted if line.kind == "account")
        status = next(iter(expected)) if only_status and len(expected) == 1 else None
        pages = await ahead if ahead is not None else None
        read = await read_accounts(client, accounts, status or None, pages)
        for target, values in read.items():
            now[("account", target)] = values
    for line in wanted:
        if (line.kind, line.target) not in now:
            now[(line.kind, line.target)] = await read_now(client, line.kind, line.target)
    return now


# -- the action -----------------------------------------------------------------------------


def _status_verb(kind: str, now: str, before: str) -> str | None:
    """The action that leads from ``now`` back to ``before`` (None: not allowed)."""
    if kind == "account":
        for verb, result in ACCOUNT_TRANSITIONS.get(now, {}).items():
            if result == before:
                return verb
        return None
    pairs = {
        "channel": {("INACTIVE", "ACTIVE"): "activate", ("ACTIVE", "INACTIVE"): "deactivate"},
        "type": {("DISABLED", "ENABLED"): "enable", ("ENABLED", "DISABLED"): "disable"},
    }
    return pairs.get(kind, {}).get((now, before))


STATUS_KEYS = frozenset({"status", "channelStatus", "typeStatus"})
#: The keys each kind of target has.
KEYS_OF: dict[str, frozenset[str]] = {
    "account": frozenset({"status", *ACCOUNT_FIELDS}),
    "whitelist": frozenset({"ips", "enabled"}),
    "channel": frozenset({"channelStatus", *CHANNEL_FIELDS}),
    "type": frozenset({"typeStatus", *TYPE_FIELDS}),
}
#: The code of a line a revert cannot send (its job file was edited).
BAD_LINE = "JOB.BAD_LINE"
#: Seconds after planning from which each target is read again just before its write (a job
#: resumed later, or a long one): the state it was planned from may have changed meanwhile.
STALE_AFTER = 60.0
#: The longest reason (as a status change's body allows).
REASON_LIMIT = 500


class NotSent(ReadOnlyError):
    """A revert's line refused before its request left (the runner records it failed, with
    the code): the target changed since the plan, is gone, or its line cannot be sent."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message, code=code, operation_id="")


def _settable(kind: Any, key: Any, before: Any) -> bool:
    """True when a line names a value this program can set back."""
    return (
        isinstance(kind, str)
        and isinstance(key, str)
        and key in KEYS_OF.get(kind, frozenset())
        and usable(key, before)
    )


#: Text fields of channels and types: a value before of none is set back as empty.
TEXT_KEYS = frozenset({"channelName", "description", "typeName", "typeDescription", "iconUrl"})


@dataclass(frozen=True, slots=True)
class Revert(Action):
    """Set journaled values back to their value before (each target's line says which).

    A target's record holds ``kind``, ``key``, ``before``, ``after``, ``now``, ``seqs`` and,
    for a line that is skipped, ``why`` and ``instead``.
    """

    #: The job reverted (``jobs revert ID``), or "" for journal records.
    of_job: str = ""
    #: The journal records named (``journal revert SEQ...``).
    seqs: tuple[int, ...] = ()
    #: When the plan read the targets (epoch seconds; 0: not known).
    planned_at: float = 0.0
    #: Why, as the person gave it: sent with a status change, kept in each journal record's
    #: ``after.reason`` ("" : none given; a status change then says "revert").
    reason: str = ""
    kind: ClassVar[str] = "revert"
    operation_id: ClassVar[str] = "accounts.status"
    #: Sets a value back: a repeat after it happened is refused or changes nothing.
    idempotent: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if len(self.reason) > REASON_LIMIT or has_controls(self.reason):
            raise ValueError(
                f"a revert's reason is text of at most {REASON_LIMIT} characters, without"
                " control characters"
            )

    def params(self) -> dict[str, Any]:
        return {
            "of_job": self.of_job,
            "seqs": list(self.seqs),
            "planned_at": self.planned_at,
            "reason": self.reason,
        }

    def before_run(self, job: Any) -> None:
        """A revert resumed (its plan no longer holds them) takes the locks of the job or the
        records it reverts again: JobLockedError while another revert of them is under way."""
        if job.holding:
            return
        names = [f"job {self.of_job}"] if self.of_job else [f"record {s}" for s in self.seqs]
        try:
            job.hold(revert_lock.hold(names, job.path.parent))
        except RevertError as exc:
            raise JobLockedError(str(exc)) from None

    def describe(self) -> str:
        if self.of_job:
            return f"revert(job={self.of_job!r})"
        return f"revert(records={', '.join(str(s) for s in self.seqs)})"

    def plan(self, target: Target, self_id: str | None) -> Planned:
        record = target.record
        current, new = norm(record.get("now")), norm(record.get("before"))
        skip = record.get("skip")
        if skip:
            return Planned(current, new, skip)
        return Planned(current, new)

    def journal_values(self, item: Item, job_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
        key = str(item.record.get("key", "value"))
        after = {key: item.record.get("before"), "job": job_id, "reverts": item.record.get("seqs")}
        if self.reason:
            after["reason"] = self.reason
        return {key: item.record.get("now")}, after

    async def apply(self, client: PortalClient, target: Target) -> str:
        record = target.record
        kind, key, before = record.get("kind"), record.get("key"), record.get("before")
        if not _settable(kind, key, before):  # a job file edited by hand
            raise NotSent(
                f"line {target.id}: not a value this program sets back ({kind} {key})",
                code=BAD_LINE,
            )
        assert isinstance(kind, str) and isinstance(key, str)
        now = norm(record.get("now"))
        if time.time() - self.planned_at > STALE_AFTER:  # an old plan (a resumed job)
            await self._still_as_planned(client, target, now)
        if key in STATUS_KEYS:
            verb = _status_verb(kind, now, norm(before))
            if verb is None:
                raise NotSent(f"{now} cannot become {before}", code="NOT_ALLOWED")
            if kind == "account":
                changed = await client.accounts.change_status(
                    target.id,
                    verb,  # type: ignore[arg-type]  # one of ACCOUNT_TRANSITIONS' verbs
                    reason=self.reason or "revert",
                )
                return changed.status or norm(before)
            method = getattr(
                client.notifications,
                f"{verb}_channel" if kind == "channel" else f"{verb}_channel_type",
            )
            await method(target.id)
            return norm(before)
        if kind == "account":
            value = "" if before is None else before
            account = await client.accounts.update(target.id, **{ACCOUNT_FIELDS[key]: value})
            return norm(account_values(account).get(key))
        if kind == "whitelist":
            if key == "ips":
                await client.security.set_ip_whitelist([str(ip) for ip in before or []])
            elif before:
                await client.security.enable_ip_whitelist()
            else:
                await client.security.disable_ip_whitelist()
            return norm(before)
        if before is None and key in TEXT_KEYS:  # an empty text is recorded as none
            before = ""
        if kind == "channel":
            await client.notifications.update_channel(target.id, **{CHANNEL_FIELDS[key]: before})
            return norm(before)
        await client.notifications.update_channel_type(target.id, **{TYPE_FIELDS[key]: before})
        return norm(before)

    async def _still_as_planned(self, client: PortalClient, target: Target, now: str) -> None:
        """Read the target again before its write: NotSent when it is gone or no longer has
        the value the plan found (someone changed it since)."""
        fresh = await self.read(client, target)
        if fresh is None:
            raise NotSent(f"{target.label}: no longer exists", code="NOT_FOUND")
        found = norm(fresh.record.get("now"))
        if found != now:
            raise NotSent(
                f"{target.label}: changed since the plan (planned from {now or '(empty)'},"
                f" now {found or '(empty)'}); not set back",
                code=RevertSkip.CHANGED_SINCE,
            )

    async def read(self, client: PortalClient, target: Target) -> Target | None:
        kind, key = target.record.get("kind"), target.record.get("key")
        if kind not in KEYS_OF or not isinstance(key, str):  # a job file edited by hand
            return None
        values = await read_now(client, str(kind), target.id)
        if values is None:
            return None
        return Target(target.id, target.label, {**target.record, "now": values.get(key)})

    def check(self, now: Target | None) -> bool | None:
        if now is None:
            return None
        return norm(now.record.get("now")) == norm(now.record.get("before"))

    def unchanged(self, now: Target, current: str) -> bool:
        return norm(now.record.get("now")) == current


ACTIONS[Revert.kind] = Revert


def _decide(line: _Line, now: dict[str, Any] | None, context: JobContext) -> dict[str, Any]:
    """The record of one line: its values, and why it is skipped when it is."""
    record: dict[str, Any] = {
        "kind": line.kind,
        "key": line.key,
        "operation": line.operation,
        "seqs": line.seqs,
        "before": line.before,
        "after": line.after,
        "now": None if now is None else now.get(line.key),
    }

    def skip(code: str, why: str, instead: str) -> dict[str, Any]:
        return {**record, "skip": code, "why": why, "instead": instead}

    if line.refused is not None:
        return skip(*line.refused)
    if not line.applied:
        return skip(RevertSkip.NOT_APPLIED, "the change was refused: nothing to revert", "")
    if not line.has_before:
        return skip(RevertSkip.NO_BEFORE, NO_BEFORE_WHY, NO_BEFORE_INSTEAD)
    if not usable(line.key, line.before):
        return skip(
            RevertSkip.NO_BEFORE,
            f"the record's value before is not a value of {line.key}",
            NO_BEFORE_INSTEAD,
        )
    if now is None:
        return skip("NOT_FOUND", "it no longer exists", "")
    if line.kind == "whitelist" and line.account.lower() != context.account.lower():
        return skip(
            RevertSkip.OTHER_ACCOUNT,
            f"the IP whitelist of {line.account}, not of the signed-in account",
            f"sign in as {line.account} to revert it",
        )
    current, before, after = norm(record["now"]), norm(line.before), norm(line.after)
    if current == before:
        return skip("NO_CHANGE", "it already has its value before", "")
    if current != after:
        return skip(
            RevertSkip.CHANGED_SINCE,
            f"changed since: before {before or '(empty)'}, after {after or '(empty)'},"
            f" now {current or '(empty)'}",
            "check who changed it; set the value by hand if it should still go back",
        )
    if line.kind == "account" and line.key == "status" and line.target == context.self_id:
        return skip("SELF", "the signed-in account's own status", "sign in as another admin")
    if line.key in STATUS_KEYS and _status_verb(line.kind, current, before) is None:
        allowed = ", ".join(ACCOUNT_TRANSITIONS.get(current, {}).values()) or "nothing"
        return skip(
            "NOT_ALLOWED",
            f"{current} cannot become {before} (from {current}: {allowed})",
            f"change it to one of those first, then to {before}",
        )
    return record


def _refuse_read_only(client: PortalClient, lines: Iterable[_Line]) -> None:
    """The kiosk (a read-only client) plans no revert."""
    needed = {line.operation for line in lines if line.operation in OPERATIONS}
    if client.read_only or any(not client.is_allowed(op) for op in needed):
        raise ReadOnlyError(
            "the client is read-only: no revert is planned",
            code="CLIENT.READ_ONLY",
            operation_id=next(iter(needed), "accounts.status"),
        )


async def _plan(
    client: PortalClient,
    entries: list[Entry],
    action: Revert,
    context: JobContext,
    verifying: asyncio.Future[journal_file.Verification],
    *,
    concurrency: int,
    folder: Path | None,
    source: str,
    ahead: asyncio.Future[dict[str, dict[str, Any]]] | None = None,
    doubtful_refused: bool,
    accept_unauthenticated: bool,
) -> JobFile:
    check_origin(entries, context)
    _refuse_read_only(client, _lines(entries))
    # A status job's accounts are being read ahead meanwhile (only read): nothing else is
    # read, and nothing written, before the journal verifies.
    verification = await verifying
    check_breaks(entries, verification)
    # Job files are read to confirm records: in a worker thread (the desktop's loop runs here).
    sure, doubtful = await asyncio.to_thread(believed, entries, verification, folder)
    if accept_unauthenticated:
        sure, accepted, doubtful = entries, [e.seq for e in doubtful], []
    else:
        accepted = []
    if doubtful_refused:
        refuse_doubtful(doubtful)
    lines = _lines(sure) + [_doubtful_line(e) for e in doubtful]
    now = await _read_all(client, lines, ahead)
    rows: list[tuple[str, str, dict[str, Any], str, str, str | None]] = []
    for line in lines:
        values = now.get((line.kind, line.target))
        record = _decide(line, values, context)
        label = str((values or {}).get("label") or line.target or line.operation)
        planned = action.plan(Target(line.target, label, record), context.self_id)
        rows.append((line.target, label, record, planned.current, planned.new, planned.skip))
    meta = {
        "kind": action.kind,
        "params": action.params(),
        "profile": context.profile,
        "server": context.server,
        "account": context.account,
        "environment": context.environment,
        "concurrency": concurrency,
        "source": source,
        "reverts": action.of_job or [e.seq for e in entries],
        "unauthenticated_accepted": accepted,
    }
    return JobFile.create(meta, rows, folder)


def _doubtful_line(entry: Entry) -> _Line:
    """The plan's line of a record it does not believe: shown, never sent."""
    values = values_of(entry.record) or []
    listed = entry.record.get("targets")
    target = (
        values[0].target
        if values
        else (str(listed[0]) if isinstance(listed, list) and listed else "")
    )
    line = _Line(
        values[0].kind if values else "",
        target,
        values[0].key if values else "",
        str(entry.record.get("operation", "")),
        seqs=[entry.seq],
    )
    line.refused = (RevertSkip.UNAUTHENTICATED, UNAUTHENTICATED_WHY, UNAUTHENTICATED_INSTEAD)
    return line


async def plan_records_revert(
    client: PortalClient,
    seqs: Iterable[int],
    context: JobContext,
    *,
    journal_path: Path | None = None,
    expected_key: journal_file.Expected = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    folder: Path | None = None,
    reason: str = "",
    accept_unauthenticated: bool = False,
) -> JobFile:
    """Plan the revert of journal records (intents or outcomes) by seq; nothing is sent.

    RevertError (nothing read or sent) for a seq that names no change, a journal that does not
    verify, a record of another server or profile, a record no one vouches for
    (``UNAUTHENTICATED``, unless ``accept_unauthenticated``: see ``revert_journal.believed``)
    or one another revert is planning or running (``UNDER_WAY``); ReadOnlyError for the
    kiosk. The returned job file holds the revert's locks until it is closed.
    """
    path = journal_path or journal_file.default_journal_path()
    wanted = sorted(set(seqs))
    if not wanted:
        raise RevertError("NOTHING", "no record named")
    if client.read_only:
        _refuse_read_only(client, [])
    verifying = verify_soon(path, expected_key)
    named = set(wanted)
    entries = collect(path, lambda r: r.get("seq") in named)
    met = {e.seq for e in entries} | {
        e.record.get("intent_seq") for e in entries if isinstance(e.record.get("intent_seq"), int)
    }
    missing = [s for s in wanted if s not in met]
    if missing:
        verification = await verifying  # a broken journal is said first
        raise RevertError(
            "NO_SUCH_RECORD",
            f"no change with seq {', '.join(str(s) for s in missing)} in the journal"
            f" (it ends at {verification.end_seq})",
        )
    action = _revert(reason, seqs=tuple(wanted), planned_at=time.time())
    return await _holding(
        _lock_names(entries),
        folder,
        lambda: _plan(
            client,
            entries,
            action,
            context,
            verifying,
            concurrency=concurrency,
            folder=folder,
            source=f"journal records {', '.join(str(s) for s in wanted)}",
            doubtful_refused=True,
            accept_unauthenticated=accept_unauthenticated,
        ),
    )


async def _holding(
    names: Iterable[str], folder: Path | None, planning: Callable[[], Awaitable[JobFile]]
) -> JobFile:
    """Plan while holding the revert locks of ``names``; the job file keeps them."""
    locks = revert_lock.hold(names, folder)
    try:
        job = await planning()
    except BaseException:
        revert_lock.release(locks)
        raise
    job.hold(locks)
    return job


def _revert(reason: str, **params: Any) -> Revert:
    try:
        return Revert(reason=reason.strip(), **params)
    except ValueError as exc:
        raise RevertError("BAD_REASON", str(exc)) from None


def _lock_names(entries: Iterable[Entry]) -> list[str]:
    """The locks a revert of ``entries`` holds: each record's, and each job's they belong to."""
    names = []
    for entry in entries:
        names.append(f"record {entry.seq}")
        after = entry.record.get("after")
        if isinstance(after, Mapping) and isinstance(after.get("job"), str):
            names.append(f"job {after['job']}")
    return names


async def plan_job_revert(
    client: PortalClient,
    job_id: str,
    context: JobContext,
    *,
    journal_path: Path | None = None,
    expected_key: journal_file.Expected = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    folder: Path | None = None,
    reason: str = "",
    accept_unauthenticated: bool = False,
) -> JobFile:
    """Plan the revert of every change the journal records for bulk job ``job_id`` (its
    records' ``after.job``); nothing is sent. The journal is the source; a record no one
    vouches for is believed only when the job file confirms it, else its line is skipped
    ``UNAUTHENTICATED`` (unless ``accept_unauthenticated``). RevertError ``UNDER_WAY`` when
    another revert of this job is being planned or run; the returned job file holds the
    lock until it is closed."""
    path = journal_path or journal_file.default_journal_path()
    if client.read_only:
        _refuse_read_only(client, [])
    action = _revert(reason, of_job=job_id, planned_at=time.time())
    return await _holding(
        [f"job {job_id}"],
        folder,
        lambda: _plan_job(
            client,
            job_id,
            context,
            path,
            action,
            expected_key,
            concurrency,
            folder,
            accept_unauthenticated,
        ),
    )


async def _plan_job(
    client: PortalClient,
    job_id: str,
    context: JobContext,
    path: Path,
    action: Revert,
    expected_key: journal_file.Expected,
    concurrency: int,
    folder: Path | None,
    accept_unauthenticated: bool,
) -> JobFile:
    verifying = verify_soon(path, expected_key)
    status = _status_of_job(job_id, folder, context)
    # A status job's accounts are read ahead (only read: the journal decides what is
    # reverted, and a wrong hint costs reads), while the journal is read and verified.
    ahead = asyncio.ensure_future(account_pages(client, status)) if status else None

    def of_job(record: Mapping[str, Any]) -> bool:
        after = record.get("after")
        return isinstance(after, Mapping) and after.get("job") == job_id

    try:
        entries = await asyncio.to_thread(collect, path, of_job)
        if not entries:
            await verifying  # a broken journal is said first
            raise RevertError(
                "NO_SUCH_JOB", f"the journal records no change of job {job_id!r}: nothing to revert"
            )
        return await _plan(
            client,
            entries,
            action,
            context,
            verifying,
            concurrency=concurrency,
            folder=folder,
            source=f"job {job_id}",
            ahead=ahead,
            doubtful_refused=False,
            accept_unauthenticated=accept_unauthenticated,
        )
    finally:
        if ahead is not None and not ahead.done():
            ahead.cancel()
            await asyncio.gather(ahead, return_exceptions=True)


def _status_of_job(job_id: str, folder: Path | None, context: JobContext) -> str | None:
    """The status a bulk status job of this server set (from its job file here), to read its
    accounts ahead; None without one."""
    path = (folder or jobs_dir()) / f"{job_id}{SUFFIX}"
    if not path.is_file():
        return None
    try:
        job = JobFile.open(path)
    except JobFileError:
        return None
    try:
        meta, counts = job.meta(), job.counts()
    except sqlite3.DatabaseError:
        return None
    finally:
        job.close()
    if counts.get("skipped", 0) + READ_ONE_BY_ONE >= sum(counts.values()):
        return None  # few targets: read one by one after the journal verifies
    if meta.get("kind") != "status" or meta.get("profile") != context.profile:
        return None
    if not same_server(str(meta.get("server", "")), context.server):
        return None
    action = (meta.get("params") or {}).get("action")
    return ACTION_RESULT.get(str(action))


# -- the plan as CSV ------------------------------------------------------------------------

REVERT_PLAN_HEADER = (
    "target id",
    "target",
    "value",
    "before",
    "after",
    "now",
    "planned or skipped because",
    "why",
    "instead",
    "journal records",
)


def revert_lines(job: JobFile) -> Iterable[tuple[str, ...]]:
    """Each line of a revert's plan: target, value, before, after, now, plan, why, instead."""
    for item in job.items():
        record = item.record
        yield (
            item.target_id,
            item.label,
            str(record.get("key") or record.get("operation") or ""),
            norm(record.get("before")),
            norm(record.get("after")),
            norm(record.get("now")),
            item.skip or "planned",
            str(record.get("why") or ""),
            str(record.get("instead") or ""),
            " ".join(str(s) for s in record.get("seqs") or []),
        )


def write_revert_plan(job: JobFile, path: Path, *, delimiter: str = ",") -> int:
    """A revert's plan as CSV (the program's CSV rules), with the three values of each line."""
    with atomic_open(path, encoding=ENCODING, newline="") as fh:
        return write_rows(fh, [REVERT_PLAN_HEADER, *revert_lines(job)], delimiter) - 1


async def set_reason(job: JobFile, reason: str) -> None:
    """Give a planned revert its reason (the desktop asks for it beside Run, after the plan):
    sent with each status change and kept in each journal record's ``after.reason``.
    RevertError ``BAD_REASON`` when it is not one (over 500 characters, control characters)."""
    meta = job.meta()
    params = {k: v for k, v in (meta.get("params") or {}).items() if k != "reason"}
    checked = _revert(reason, **params)
    await job.set_meta(params=checked.params())


def is_revert(job: JobFile) -> bool:
    """True for a revert's job file."""
    return job.meta().get("kind") == Revert.kind
