"""The journal of changes: one hash-chained record per change sent, appended durably.

A JSON-lines file (``journal/journal.jsonl`` in the user data folder). Each line is the
canonical JSON (sorted keys, no spaces, UTF-8) of a record with two more keys: ``prev``, the
hash of the record before it, and ``hash``, SHA-256 over ``prev`` and the record's canonical
JSON. Editing, removing or reordering a record breaks the chain at that record; a line cut
short (a kill mid-append) is a torn tail, reported and not fatal.

Appending: the records made in one turn of the event loop are written with one ``write`` and
one ``fsync`` at the end of that turn (or at once, outside a loop). When the file's last
record is torn or does not verify, the next append first writes a ``segment`` record that
names the break and chains from the last good record, so journaling goes on and the break
stays on record.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import hashlib
import json
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from portal_admin.files.atomic import atomic_open, fsync_dir
from portal_admin.files.csv_rules import DELIMITERS, ENCODING, write_rows
from portal_admin.files.paths import data_dir

GENESIS = "0" * 64
#: How many good records back a new segment may chain from (the tail read when opening).
RECENT = 512
FORMAT = 1
#: The columns of a journal export, in order.
COLUMNS = (
    "seq",
    "segment",
    "kind",
    "time",
    "server_time",
    "profile",
    "server",
    "account",
    "operation",
    "targets",
    "fields",
    "before",
    "after",
    "outcome",
    "code",
    "request_id",
    "http_status",
    "hash",
)


def default_journal_path() -> Path:
    """The journal file in the user data folder."""
    return data_dir() / "journal" / "journal.jsonl"


def canonical(record: Mapping[str, Any]) -> bytes:
    """The canonical JSON of a record."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def chain_hash(prev: str, record: Mapping[str, Any]) -> str:
    """SHA-256 over the previous hash and the record's canonical JSON."""
    return hashlib.sha256(prev.encode("ascii") + b"\n" + canonical(record)).hexdigest()


def now_iso() -> str:
    """The time now, UTC, ISO 8601 with milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class Problem:
    """Where the chain breaks: the line (1-based), the record's seq if readable, and why."""

    line: int
    seq: int | None
    reason: str  # "torn" | "not-json" | "hash" | "chain" | "order"


@dataclass
class Verification:
    """What verifying a journal found."""

    path: Path
    records: int = 0
    segments: int = 0
    problems: list[Problem] = dataclasses.field(default_factory=list)
    #: Where earlier appends found the tail torn or broken and began a new segment.
    breaks: list[Problem] = dataclasses.field(default_factory=list)
    head: str = GENESIS

    @property
    def ok(self) -> bool:
        """True when every record verifies and links to the one before it."""
        return not self.problems

    def summary(self) -> str:
        """One line for people."""
        if self.ok:
            breaks = f", {len(self.breaks)} recorded break(s)" if self.breaks else ""
            return f"{self.path}: intact, {self.records} records{breaks}, head {self.head}"
        first = self.problems[0]
        return (
            f"{self.path}: BROKEN at line {first.line} (seq {first.seq}): {first.reason};"
            f" {len(self.problems)} problem(s), {self.records} records"
        )


def _lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """Each line (number, bytes without the newline, complete?)."""
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            yield number, raw.rstrip(b"\n"), raw.endswith(b"\n")


def verify(path: Path | None = None) -> Verification:
    """Check every record's hash and its link to the one before."""
    path = path or default_journal_path()
    result = Verification(path)
    if not path.exists():
        return result
    prev = GENESIS
    last_seq = 0
    recent: collections.deque[tuple[int, str]] = collections.deque(maxlen=RECENT)  # good ones
    for number, raw, complete in _lines(path):
        if not complete:
            result.problems.append(Problem(number, None, "torn"))
            break
        try:
            line = json.loads(raw)
            record = {k: v for k, v in line.items() if k not in ("prev", "hash")}
            stated_prev, stated = str(line["prev"]), str(line["hash"])
        except (ValueError, KeyError, AttributeError, TypeError):
            result.problems.append(Problem(number, None, "not-json"))
            continue
        seq = record.get("seq")
        segment = record.get("kind") == "segment"
        if segment:  # it chains from the last good record before the break it names
            result.segments += 1
            result.breaks.append(Problem(number, seq, str(record.get("reason"))))
            after = record.get("after_seq")
            after_seq = after if isinstance(after, int) else -1
            expected_prev, expected_seq = dict(recent).get(after_seq, GENESIS), after_seq + 1
        else:
            expected_prev, expected_seq = prev, last_seq + 1
        if chain_hash(stated_prev, record) != stated:
            result.problems.append(Problem(number, seq, "hash"))
        elif stated_prev != expected_prev:
            result.problems.append(Problem(number, seq, "chain"))
        elif not isinstance(seq, int) or seq != expected_seq:
            result.problems.append(Problem(number, seq, "order"))
        else:
            recent.append((seq, stated))
        prev = stated
        last_seq = seq if isinstance(seq, int) else last_seq
        result.records += 1
    result.head = prev
    return result


def read(
    path: Path | None = None,
    *,
    since: str | None = None,
    until: str | None = None,
    operation: str | None = None,
    target: str | None = None,
    account: str | None = None,
    outcome: str | None = None,
) -> Iterator[dict[str, Any]]:
    """The readable records, filtered (times are ISO 8601 strings, compared as text)."""
    path = path or default_journal_path()
    if not path.exists():
        return
    for _, raw, complete in _lines(path):
        if not complete:
            return
        try:
            record: dict[str, Any] = json.loads(raw)
        except ValueError:
            continue
        if since and str(record.get("time", "")) < since:
            continue
        if until and str(record.get("time", "")) > until:
            continue
        if operation and record.get("operation") != operation:
            continue
        if target and target not in (record.get("targets") or []):
            continue
        if account and str(record.get("account", "")).lower() != account.lower():
            continue
        if outcome and record.get("outcome") != outcome:
            continue
        yield record


def _cell(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True) if value else ""
    return value


def export_csv(records: Iterable[Mapping[str, Any]], path: Path, delimiter: str = ",") -> int:
    """Records as CSV (the program's CSV rules); returns how many."""
    rows = ([_cell(r.get(c)) for c in COLUMNS] for r in records)
    with atomic_open(path, encoding=ENCODING, newline="") as fh:
        return write_rows(fh, [COLUMNS, *rows], DELIMITERS.get(delimiter, delimiter)) - 1


def export_json(records: Iterable[Mapping[str, Any]], path: Path) -> int:
    """Records as one JSON array, each with its ``prev`` and ``hash``; returns how many."""
    items = list(records)
    with atomic_open(path) as fh:
        json.dump(items, fh, ensure_ascii=False, indent=1, sort_keys=True)
        fh.write("\n")
    return len(items)


class Journal:
    """Appends records to one journal file; thread-safe; one fsync per turn of the loop."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_journal_path()
        self._lock = threading.Lock()
        self._pending: list[dict[str, Any]] = []
        self._scheduled = False
        self._tail: tuple[str, int, int] | None = None  # head hash, last seq, segment

    def append(self, record: Mapping[str, Any]) -> None:
        """Queue ``record`` (a change); it is on disk at the end of this turn of the loop
        (at once when no loop runs)."""
        with self._lock:
            self._pending.append({"kind": "change", "time": now_iso(), **record})
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            if loop is None:
                self._flush_locked()
            elif not self._scheduled:
                self._scheduled = True
                loop.call_soon(self.flush)

    def flush(self) -> None:
        """Write what is queued, durably."""
        with self._lock:
            self._flush_locked()

    def _flush_locked(self) -> None:
        self._scheduled = False
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        head, seq, segment = self._tail if self._tail is not None else self._open_tail()
        lines: list[bytes] = []
        for record in batch:
            seq += 1
            body = {**record, "seq": seq, "segment": segment, "format": FORMAT}
            digest = chain_hash(head, body)
            lines.append(canonical({**body, "prev": head, "hash": digest}) + b"\n")
            head = digest
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, b"".join(lines))
            os.fsync(fd)
        finally:
            os.close(fd)
        self._tail = (head, seq, segment)

    def _open_tail(self) -> tuple[str, int, int]:
        """The last good record's hash, seq and segment; a torn or broken tail starts a new
        segment, whose first record names the break."""
        if not self.path.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fsync_dir(self.path.parent)
            return GENESIS, 0, 0
        last_good: dict[str, Any] | None = None
        problem: str | None = None
        size = self.path.stat().st_size
        with self.path.open("rb") as fh:
            fh.seek(max(0, size - 65536))
            tail = fh.read()
        lines = tail.split(b"\n")
        if lines and lines[-1]:
            problem = "torn"
            with contextlib.suppress(OSError):
                self._cut_torn(size - len(lines[-1]))
        for raw in reversed([line for line in lines[:-1] if line]):
            try:
                line = json.loads(raw)
                record = {k: v for k, v in line.items() if k not in ("prev", "hash")}
                if chain_hash(line["prev"], record) != line["hash"]:
                    problem = problem or "hash"
                    continue
                last_good = line
                break
            except (ValueError, KeyError, TypeError, AttributeError):
                problem = problem or "not-json"
        if last_good is None:
            head, seq, segment = GENESIS, 0, 0
        else:
            head = str(last_good["hash"])
            seq = int(last_good.get("seq", 0))
            segment = int(last_good.get("segment", 0))
        if problem is None:
            return head, seq, segment
        segment += 1
        seq += 1
        body = {
            "kind": "segment",
            "time": now_iso(),
            "reason": problem,
            "after_seq": seq - 1,
            "seq": seq,
            "segment": segment,
            "format": FORMAT,
        }
        digest = chain_hash(head, body)
        with self.path.open("ab") as fh:
            fh.write(canonical({**body, "prev": head, "hash": digest}) + b"\n")
            fh.flush()
            os.fsync(fh.fileno())
        return digest, seq, segment

    def _cut_torn(self, keep: int) -> None:
        """Set a torn last line aside (kept in ``.torn``) so the file ends with a record."""
        with self.path.open("r+b") as fh:
            fh.seek(keep)
            torn = fh.read()
            torn_path = self.path.with_suffix(".torn")
            with torn_path.open("ab") as out:
                out.write(torn + b"\n")
                out.flush()
                os.fsync(out.fileno())
            fh.truncate(keep)
            fh.flush()
            os.fsync(fh.fileno())
