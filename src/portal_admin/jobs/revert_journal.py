"""A revert's side of the journal: the records of the changes to revert (one entry per change
sent, its outcome's record or, when none was written, its intent's), the checks made before
anything is read from the server (the journal verifies, no recorded break after a record, the
records are of the signed-in server and profile), and which records it may believe
(authenticated by a checkpoint or by this process, or confirmed by their job file)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.evidence import journal as journal_file

from .actions import Action, action_from
from .plan import JobContext
from .reversible import values_of
from .store import SUFFIX, Item, ItemState, JobFile, JobFileError, jobs_dir


class RevertError(Exception):
    """A revert that cannot be planned at all; nothing was sent. ``code``: ``NO_SUCH_RECORD``,
    ``NO_SUCH_JOB``, ``JOURNAL_BROKEN``, ``ACROSS_BREAK``, ``OTHER_SERVER``, ``NOTHING``,
    ``UNAUTHENTICATED`` (records no one vouches for), ``UNDER_WAY`` (a revert of the same job
    or record is being planned or run by another program)."""

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


# -- which records a revert may believe --------------------------------------------------------

#: States of a job file's line whose change was sent (or may have been).
_SENT = frozenset({ItemState.SENDING, ItemState.DONE, ItemState.FAILED, ItemState.UNKNOWN})
#: A job id that can name a file in the jobs folder (a record's ``after.job`` may be anything).
_JOB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")

#: Why an unauthenticated record is left alone, and what can be done instead.
UNAUTHENTICATED_WHY = (
    "the journal record is not authenticated: no checkpoint of this installation vouches for"
    " it, this program did not write it, and no job file here confirms it"
)
UNAUTHENTICATED_INSTEAD = (
    "check the record (journal export); if it is a change this installation made, revert it"
    " with --accept-unauthenticated"
)


class JobFiles:
    """The job files of a folder, read at most once each, to cross-check journal records
    against what their job really did.

    A job file is no witness on its own: whoever can write the journal can write the jobs
    folder beside it, and creating a job file needs no key. So a job file confirms records
    only of a job this installation vouches for: one whose id a journal record carries that
    a checkpoint of this installation's own key vouches for (``vouched_jobs``). It then
    covers that job's later records, written after the last checkpoint (a crash)."""

    def __init__(self, folder: Path | None, vouched_jobs: Iterable[str] = ()) -> None:
        self.folder = folder or jobs_dir()
        self.vouched_jobs = frozenset(vouched_jobs)
        self._read: dict[str, tuple[dict[str, Any], Action, dict[str, list[Item]]] | None] = {}

    def confirms(self, record: Mapping[str, Any]) -> bool:
        """True when the record's job (its ``after.job``) is one this installation vouches
        for and its job file has, for each value the record changed, a line of that target
        that was sent, of the record's server and profile, whose journal values are the
        record's ``before`` and ``after`` exactly."""
        after = record.get("after")
        job_id = after.get("job") if isinstance(after, Mapping) else None
        values = values_of(record)
        if not isinstance(job_id, str) or not _JOB_ID.fullmatch(job_id) or not values:
            return False
        if job_id not in self.vouched_jobs:
            return False
        found = self._job(job_id)
        if found is None:
            return False
        meta, action, by_target = found
        if meta.get("profile") != record.get("profile") or not same_server(
            str(meta.get("server", "")), str(record.get("server", ""))
        ):
            return False
        wanted = (record.get("before"), record.get("after"))
        return all(
            any(
                item.state in _SENT and action.journal_values(item, job_id) == wanted
                for item in by_target.get(value.target, [])
            )
            for value in values
        )

    def _job(self, job_id: str) -> tuple[dict[str, Any], Action, dict[str, list[Item]]] | None:
        if job_id not in self._read:
            self._read[job_id] = self._open(job_id)
        return self._read[job_id]

    def _open(self, job_id: str) -> tuple[dict[str, Any], Action, dict[str, list[Item]]] | None:
        path = self.folder / f"{job_id}{SUFFIX}"
        if not path.is_file():
            return None
        try:
            job = JobFile.open(path)
        except (JobFileError, sqlite3.DatabaseError, OSError):
            return None
        try:
            meta = job.meta()
            action = action_from(str(meta.get("kind")), meta.get("params") or {})
            by_target: dict[str, list[Item]] = {}
            for item in job.items():
                by_target.setdefault(item.target_id, []).append(item)
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError):
            return None
        finally:
            job.close()
        return meta, action, by_target


def own(record: Mapping[str, Any], verification: journal_file.Verification) -> bool:
    """True when ``record`` is, by its (seq, hash), a record this installation vouches for:
    its hash is its content's, and a checkpoint of this installation's own key (not merely a
    trusted one) vouches for that pair, or this process appended it."""
    seq, digest, prev = record.get("seq"), record.get("hash"), record.get("prev")
    if not isinstance(seq, int) or not isinstance(digest, str) or not isinstance(prev, str):
        return False
    body = {k: v for k, v in record.items() if k not in ("prev", "hash")}
    if journal_file.chain_hash(prev, body) != digest:
        return False
    return verification.authenticated(seq, digest, own_only=True)


def vouched_jobs(verification: journal_file.Verification) -> set[str]:
    """The ids of the jobs named by records this installation vouches for (:func:`own`)."""
    found: set[str] = set()
    for record in journal_file.read(verification.path):
        after = record.get("after")
        job_id = after.get("job") if isinstance(after, Mapping) else None
        if isinstance(job_id, str) and job_id not in found and own(record, verification):
            found.add(job_id)
    return found


def believed(
    entries: list[Entry], verification: journal_file.Verification, folder: Path | None
) -> tuple[list[Entry], list[Entry]]:
    """(believed, doubtful): an entry is believed when its record is this installation's by
    its (seq, hash) (:func:`own`) or its job file confirms it (:class:`JobFiles`, for a job
    this installation vouches for); the others are doubtful."""
    sure: list[Entry] = []
    doubtful: list[Entry] = []
    files: JobFiles | None = None
    for entry in entries:
        if entry.record.get("seq") == entry.seq and own(entry.record, verification):
            sure.append(entry)
            continue
        if files is None:
            files = JobFiles(folder, vouched_jobs(verification))
        (sure if files.confirms(entry.record) else doubtful).append(entry)
    return sure, doubtful


def refuse_doubtful(doubtful: list[Entry]) -> None:
    """RevertError ``UNAUTHENTICATED`` naming the doubtful records (none: nothing)."""
    if not doubtful:
        return
    seqs = ", ".join(str(e.seq) for e in doubtful[:20]) + (" ..." if len(doubtful) > 20 else "")
    raise RevertError(
        "UNAUTHENTICATED",
        f"record(s) {seqs} are not authenticated: no checkpoint of this installation vouches"
        " for them, this program did not write them, and no job file here confirms them;"
        " anyone who can write the journal could have added them. Check them (journal export)"
        " and add --accept-unauthenticated to revert them anyway",
    )
