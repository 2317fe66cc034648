"""Building a job's plan (the dry run) and writing its plan and result files."""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable, Iterable, Iterator, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.client import PortalClient
from portal_admin.client.errors import ReadOnlyError
from portal_admin.files.atomic import atomic_open
from portal_admin.files.csv_rules import ENCODING, write_rows
from portal_admin.protocol.labels import code_in_words

from .actions import Action, Skip, Target
from .runner import DEFAULT_CONCURRENCY
from .store import ItemState, JobFile
from .targets import PlanProgressCallback, PlanReporter, Problem


@dataclass(frozen=True, slots=True)
class JobContext:
    """Where and as whom a job runs (kept in the job file; never a secret)."""

    profile: str
    server: str
    account: str
    #: The signed-in account's id: never a target.
    self_id: str | None = None
    #: The profile's environment ("production", "staging", "test", "sandbox").
    environment: str = ""


def refuse_read_only(client: PortalClient, action: Action) -> None:
    """A read-only client (the kiosk) builds no plan at all."""
    if client.read_only or not client.is_allowed(action.operation_id):
        raise ReadOnlyError(
            f"the client is read-only: no bulk {action.kind} plan is built",
            code="CLIENT.READ_ONLY",
            operation_id=action.operation_id,
        )


async def create_job(
    client: PortalClient,
    action: Action,
    targets: Iterable[Target] | AsyncIterable[Target],
    context: JobContext,
    *,
    problems: Iterable[Problem] = (),
    concurrency: int = DEFAULT_CONCURRENCY,
    source: str = "",
    folder: Path | None = None,
    on_progress: PlanProgressCallback | None = None,
) -> JobFile:
    """Plan ``action`` over ``targets`` into a new job file; nothing is sent.

    Each target gets its current and new value or the reason it is skipped (the signed-in
    account, no change, not allowed, listed twice); ``problems`` (unmatched import lines) are
    kept as skipped lines. ``on_progress`` hears how many targets are planned as it goes
    (``total`` None while every account matching a filter is still being read).
    """
    refuse_read_only(client, action)
    reporter = PlanReporter(
        "plan", on_progress, len(targets) if isinstance(targets, Sized) else None
    )
    reporter.report(force=True)
    rows: list[tuple[str, str, dict[str, Any], str, str, str | None]] = []
    seen: set[str] = set()

    def add(target: Target) -> None:
        planned = action.plan(target, context.self_id)
        skip = planned.skip
        if skip is None and target.id in seen:
            skip = Skip.DUPLICATE
        seen.add(target.id)
        rows.append(
            (target.id, target.label, dict(target.record), planned.current, planned.new, skip)
        )
        reporter.step(skipped=skip is not None)

    if isinstance(targets, AsyncIterable):
        async for target in targets:
            add(target)
    else:
        for target in targets:
            add(target)
    reporter.finish()
    for problem in problems:
        rows.append((problem.value, problem.target().label, {}, "", "", problem.code))
    meta = {
        "kind": action.kind,
        "params": action.params(),
        "profile": context.profile,
        "server": context.server,
        "account": context.account,
        "environment": context.environment,
        "concurrency": concurrency,
        "source": source,
    }
    return JobFile.create(meta, rows, folder)


PLAN_HEADER = ("target id", "target", "current", "new", "skipped because")
RESULT_HEADER = (
    "target id",
    "target",
    "before",
    "after",
    "outcome",
    "error code",
    "request id",
    "time",
    "note",
)


#: A value's label for a person: (the field it is a value of, its code) -> text.
Labeller = Callable[[str, str], str]
#: The columns the plan and the result files add after their own: the labels of the codes.
PLAN_LABELS = ("current (label)", "new (label)", "skipped because (label)")
RESULT_LABELS = ("before (label)", "after (label)", "outcome (label)", "error code (label)")


def changed_field(job: JobFile) -> str | None:
    """The field every line of ``job`` changes (``status``, ``remark`` ...), or None when the
    lines differ (a revert names its own, per line, as ``key``) or nothing is set."""
    meta = job.meta()
    if meta.get("kind") == "status":
        return "status"
    field = (meta.get("params") or {}).get("field")
    return str(field) if field else None


def in_words(field: str, code: str) -> str:
    """The label without the server's lists or a translation: an account status's code in
    words ("SUSPENDED": "Suspended"); any other value as it is."""
    return code_in_words(code) if field == "status" and code else code


def _labels(job: JobFile, label: Labeller | None) -> Callable[[Any, str], str]:
    field, name = changed_field(job), label or in_words

    def of(item: Any, value: str) -> str:
        return name(field or str(item.record.get("key") or ""), value) if value else ""

    return of


def plan_lines(job: JobFile) -> Iterator[dict[str, str]]:
    """The dry run's lines as records (JSON lines): the plan file's columns, by code."""
    for i in job.items():
        yield {
            "target_id": i.target_id,
            "target": i.label,
            "current": i.current,
            "new": i.new,
            "skipped_because": i.skip or "",
        }


def result_lines(job: JobFile) -> Iterator[dict[str, str]]:
    """The result's lines as records (JSON lines): the result file's columns, by code."""
    for i in job.items():
        done = outcome(i)
        yield {
            "target_id": i.target_id,
            "target": i.label,
            "before": i.current,
            "after": i.after if i.after is not None else "",
            "outcome": done,
            "error_code": (i.skip if i.state is ItemState.SKIPPED else i.error_code) or "",
            "request_id": i.request_id or "",
            "time": i.finished_at or "",
            "note": i.note or "",
        }


def write_plan(
    job: JobFile, path: Path, *, delimiter: str = ",", label: Labeller | None = None
) -> int:
    """The dry run as CSV: every line with its current and new value or skip reason, then the
    same as a person reads them (``label``; by default the codes in words)."""
    of = _labels(job, label)
    rows = (
        (
            i.target_id,
            i.label,
            i.current,
            i.new,
            i.skip or "",
            of(i, i.current),
            of(i, i.new),
            code_in_words(i.skip) if i.skip else "",
        )
        for i in job.items()
    )
    with atomic_open(path, encoding=ENCODING, newline="") as fh:
        return write_rows(fh, [(*PLAN_HEADER, *PLAN_LABELS), *rows], delimiter) - 1


def outcome(item: Any) -> str:
    """One line's outcome word in the result file."""
    if item.state is ItemState.SENDING:
        return "unknown"  # sent, not read back yet (the job is paused)
    return str(item.state)


def write_result(
    job: JobFile, path: Path, *, delimiter: str = ",", label: Labeller | None = None
) -> int:
    """The result file: every target's before, after, outcome, code, request id and time,
    then the codes as a person reads them (``label``; by default the codes in words)."""
    of = _labels(job, label)

    def row(i: Any) -> tuple[str, ...]:
        after = i.after if i.after is not None else ""
        code = i.skip if i.state is ItemState.SKIPPED else (i.error_code or "")
        done = outcome(i)
        return (
            i.target_id,
            i.label,
            i.current,
            after,
            done,
            code or "",
            i.request_id or "",
            i.finished_at or "",
            i.note or "",
            of(i, i.current),
            of(i, after),
            code_in_words(done),
            code_in_words(code) if code else "",
        )

    rows = (row(i) for i in job.items())
    with atomic_open(path, encoding=ENCODING, newline="") as fh:
        return write_rows(fh, [(*RESULT_HEADER, *RESULT_LABELS), *rows], delimiter) - 1
