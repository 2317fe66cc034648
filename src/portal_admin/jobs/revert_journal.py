"""A revert's side of the journal: the records of the changes to revert (one entry per change
sent, its outcome's record or, when none was written, its intent's), and the checks made before
anything is read from the server (the journal verifies, no recorded break after a record, the
records are of the signed-in server and profile)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.evidence import journal as journal_file

from .plan import JobContext


class RevertError(Exception):
    """A revert that cannot be planned at all; nothing was sent. ``code``: ``NO_SUCH_RECORD``,
    ``NO_SUCH_JOB``, ``JOURNAL_BROKEN``, ``ACROSS_BREAK``, ``OTHER_SERVER``, ``NOTHING``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class Entry:
    """One change sent: its record (the outcome's, else the intent's) and outcome."""

    seq: int
    record: dict[str, Any]
    outcome: str | None  # ok, failed, unknown; None: sent, outcome not recorded


def collect(path: Path, wanted: Callable[[dict[str, Any]], bool]) -> list[Entry]:
    """The changes ``wanted`` picks (intents or outcomes), one entry per change sent."""
    intents: dict[int, dict[str, Any]] = {}
    outcomes: list[dict[str, Any]] = []
    for record in journal_file.read(path):
        kind = record.get("kind")
        seq = record.get("seq")
        if not isinstance(seq, int) or kind not in ("intent", "change"):
            continue
        if kind == "intent":
            if wanted(record):
                intents[seq] = record
        elif wanted(record) or _int(record.get("intent_seq")) in intents:
            outcomes.append(record)
    entries: dict[int, Entry] = {}
    named: set[int] = set()
    for record in outcomes:
        intent_seq = record.get("intent_seq")
        if isinstance(intent_seq, int):
            named.add(intent_seq)
        entries[record["seq"]] = Entry(record["seq"], record, str(record.get("outcome") or ""))
    for seq, record in intents.items():
        if seq not in named:
            entries[seq] = Entry(seq, record, None)
    return sorted(entries.values(), key=lambda e: e.seq)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def verified(path: Path, expected_key: journal_file.Expected) -> journal_file.Verification:
    """The journal's verification; RevertError when it does not verify."""
    result = journal_file.verify(path, expected_key=expected_key)
    if not result.ok:
        raise RevertError(
            "JOURNAL_BROKEN",
            f"the journal does not verify, so nothing in it is reverted: {result.summary()}",
        )
    return result


def verify_soon(
    path: Path, expected_key: journal_file.Expected
) -> asyncio.Future[journal_file.Verification]:
    """The journal's verification in a worker thread (its future raises RevertError when it
    does not verify); never left unawaited without its error being retrieved."""
    future = asyncio.ensure_future(asyncio.to_thread(verified, path, expected_key))
    future.add_done_callback(lambda f: f.cancelled() or f.exception())
    return future


def same_server(one: str, other: str) -> bool:
    return one.rstrip("/").lower() == other.rstrip("/").lower()


def check_origin(entries: Iterable[Entry], context: JobContext) -> None:
    """Every record must be of the signed-in server and profile (nothing is sent otherwise)."""
    for entry in entries:
        server = str(entry.record.get("server", ""))
        profile = str(entry.record.get("profile", ""))
        if not same_server(server, context.server) or profile != context.profile:
            raise RevertError(
                "OTHER_SERVER",
                f"record {entry.seq} was made on {server or '?'} (profile {profile or '?'}),"
                f" not on {context.server} (profile {context.profile}): sign in there to"
                " revert it",
            )


def check_breaks(entries: list[Entry], verification: journal_file.Verification) -> None:
    """No recorded break (a torn or broken tail) may lie after a record to revert: records
    lost there may have changed the same targets."""
    if not entries:
        return
    first = entries[0].seq
    for problem in verification.breaks:
        if problem.seq is not None and problem.seq > first:
            raise RevertError(
                "ACROSS_BREAK",
                f"the journal has a break at line {problem.line} (seq {problem.seq}:"
                f" {problem.reason}) after record {first}: records may be missing there,"
                " so it is not reverted across it",
            )
