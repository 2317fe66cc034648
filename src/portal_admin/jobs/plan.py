"""Building a job's plan (the dry run) and writing its plan and result files."""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.client import PortalClient
from portal_admin.client.errors import ReadOnlyError
from portal_admin.files.atomic import atomic_open
from portal_admin.files.csv_rules import ENCODING, write_rows

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


def write_plan(job: JobFile, path: Path, *, delimiter: str = ",") -> int:
    """The dry run as CSV: every line with its current and new value or skip reason."""
    rows = ((i.target_id, i.label, i.current, i.new, i.skip or "") for i in job.items())
    with atomic_open(path, encoding=ENCODING, newline="") as fh:
        return write_rows(fh, [PLAN_HEADER, *rows], delimiter) - 1


def outcome(item: Any) -> str:
    """One line's outcome word in the result file."""
    if item.state is ItemState.SENDING:
        return "unknown"  # sent, not read back yet (the job is paused)
    return str(item.state)


def write_result(job: JobFile, path: Path, *, delimiter: str = ",") -> int:
    """The result file: every target's before, after, outcome, code, request id and time."""
    rows = (
        (
            i.target_id,
            i.label,
            i.current,
            i.after if i.after is not None else "",
            outcome(i),
            i.skip if i.state is ItemState.SKIPPED else (i.error_code or ""),
            i.request_id or "",
            i.finished_at or "",
            i.note or "",
        )
        for i in job.items()
    )
    with atomic_open(path, encoding=ENCODING, newline="") as fh:
        return write_rows(fh, [RESULT_HEADER, *rows], delimiter) - 1
