"""The journal of changes: hash-chained records of every change sent, appended durably.

A JSON-lines file (``journal/journal.jsonl`` in the user data folder). Each line is the
canonical JSON (sorted keys, no spaces, UTF-8) of a record with two more keys: ``prev``, the
hash of the record before it, and ``hash``, SHA-256 over ``prev`` and the record's canonical
JSON. Editing, removing or reordering a record breaks the chain at that record; a line cut
short (a kill mid-append) is a torn tail, reported and not fatal.

Appending: every append holds an OS lock (``journal.jsonl.lock``, ``filelock``) and re-reads
the file's tail under it when another process or object appended since (the file's device,
inode and size differ from those seen after this object's last write), so several processes
can append to one journal. Inside a running event loop a worker thread writes what is queued
with one ``write`` and one ``fsync`` (what is queued meanwhile goes in the next); outside a
loop each append is written at once. An ``intent`` (a change about to be sent) is appended
with :meth:`Journal.append_durable`, whose future the client awaits before the request
leaves. When the file's last record
is torn or does not verify, the next append first writes a ``segment`` record that names the
break and chains from the last good record, so journaling goes on and the break stays on
record. Signed checkpoints (``checkpoints``) pin the last record this object appended every
``checkpoints.EVERY`` records and at a clean stop, and vouch for the records it appended (never
for records another hand added): :attr:`Verification.unauthenticated` lists the others.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
import contextlib
import dataclasses
import hashlib
import json
import logging
import math
import os
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import filelock

from portal_admin.files import json_input
from portal_admin.files.atomic import atomic_open, fsync_dir, open_own
from portal_admin.files.csv_rules import DELIMITERS, ENCODING, write_rows
from portal_admin.files.paths import data_dir
from portal_admin.protocol.labels import code_in_words

from . import checkpoints

log = logging.getLogger("portal_admin.evidence.journal")

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
    "intent_seq",
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
    reason: str  # "torn" | "not-json" | "hash" | "chain" | "order" | "seq-again"


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
    #: The last record's seq.
    end_seq: int = 0
    #: How the journal disagrees with its signed checkpoints (sentences; each breaks it).
    anchor: list[str] = dataclasses.field(default_factory=list)
    #: What the checkpoints say when they agree (or that there is none).
    notes: list[str] = dataclasses.field(default_factory=list)
    checkpoints: int = 0
    #: Intents (changes sent) that no outcome record names: a crash before the answer.
    pending: int = 0
    #: The seq of the last checkpoint that anchors the journal (0: none).
    anchored: int = 0
    #: The seqs of the records no one vouches for: no anchoring checkpoint's signer says it
    #: wrote them, and this process did not append them (see :func:`appended_here`).
    unauthenticated: list[int] = dataclasses.field(default_factory=list)
    #: (first, last) ranges of the seqs the anchoring checkpoints vouch for.
    vouched: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    #: The ranges vouched for by this installation's own key (or the pinned fingerprint)
    #: alone: what a revert believes (a colleague's trusted key does not vouch for them).
    vouched_own: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    #: The hash of the good record at each seq: a checkpoint vouches for (seq, hash) pairs,
    #: never for a seq number whatever record carries it.
    hashes: dict[int, str] = dataclasses.field(default_factory=dict, repr=False)

    @property
    def ok(self) -> bool:
        """True when every record verifies, links to the one before it, and the journal
        agrees with its checkpoints (records may still be unauthenticated)."""
        return not self.problems and not self.anchor

    def authenticated(self, seq: int, digest: str, *, own_only: bool = False) -> bool:
        """True when the record ``seq`` of hash ``digest`` is the journal's good record at
        that seq and an anchoring checkpoint vouches for it (``own_only``: one of this
        installation's key or the pinned fingerprint), or this process appended it."""
        ranges = self.vouched_own if own_only else self.vouched
        at = bisect.bisect_right(ranges, (seq, math.inf)) - 1
        if (
            at >= 0
            and ranges[at][0] <= seq <= ranges[at][1]
            and self.hashes.get(seq) == digest.lower()
        ):
            return True
        return appended_here(self.path, seq, digest)

    def unauthenticated_text(self) -> str:
        """The unauthenticated records in words ("" when there is none)."""
        if not self.unauthenticated:
            return ""
        first, count = self.unauthenticated[0], len(self.unauthenticated)
        return (
            f"{count} record(s) not authenticated, the first at seq {first}: no checkpoint of"
            " this installation's key (or a trusted one) vouches for them and this process did"
            " not write them; they may have been added by anyone who can write the file"
        )

    def summary(self) -> str:
        """One line for people."""
        if self.ok:
            breaks = f", {len(self.breaks)} recorded break(s)" if self.breaks else ""
            if self.unauthenticated:
                return (
                    f"{self.path}: chain intact, {self.records} records{breaks}, head"
                    f" {self.head}; but {len(self.unauthenticated)} record(s) NOT AUTHENTICATED"
                    f" (the first at seq {self.unauthenticated[0]})"
                )
            return f"{self.path}: intact, {self.records} records{breaks}, head {self.head}"
        if not self.problems:
            return (
                f"{self.path}: BROKEN: {self.anchor[0]}; {len(self.anchor)} problem(s),"
                f" {self.records} records"
            )
        first = self.problems[0]
        return (
            f"{self.path}: BROKEN at line {first.line} (seq {first.seq}): {first.reason};"
            f" {len(self.problems) + len(self.anchor)} problem(s), {self.records} records"
        )


def lock_path(path: Path) -> Path:
    """The OS lock file appends hold (beside the journal)."""
    return path.with_name(path.name + ".lock")


def _settled_size(path: Path) -> int | None:
    """The journal's size when no append is under way (under its lock, when a lock file shows
    that a journal object appended here); None: read to the end."""
    if not lock_path(path).exists():
        return None
    try:
        with filelock.FileLock(lock_path(path), timeout=5, poll_interval=0.002):
            return path.stat().st_size
    except (filelock.Timeout, OSError):
        return None


def _lines(path: Path, limit: int | None = None) -> Iterator[tuple[int, bytes, bool]]:
    """Each line (number, bytes without the newline, complete?) of the first ``limit`` bytes."""
    left = limit
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if left is not None:
                if left <= 0:
                    return
                raw = raw[:left]
                left -= len(raw)
            yield number, raw.rstrip(b"\n"), raw.endswith(b"\n")


#: This installation's key: a fingerprint pinned for one check (``--fingerprint``: that key
#: alone is accepted), or what gives the fingerprint of this installation's key (None: none
#: could be read), called only when the journal has checkpoints.
Expected = str | Callable[[], str | None] | None
#: The fingerprints of the keys trusted here (default: the trust file's).
Trusted = Iterable[str] | Callable[[], Iterable[str]] | None


def trusted_fingerprints() -> list[str]:
    """The fingerprints of the trust file's keys (none when it cannot be read)."""
    from . import trust

    try:
        found = trust.TrustStore().keys()
    except (trust.TrustError, OSError):
        return []
    return [k.fingerprint for k in found]


#: The journal objects of this process (each knows what it appended).
_WRITERS: weakref.WeakSet[Journal] = weakref.WeakSet()


def appended_here(path: Path, seq: int, digest: str) -> bool:
    """True when a journal object of this process appended the record ``seq`` with hash
    ``digest`` to the file ``path``."""
    where = os.path.abspath(path)
    return any(j.wrote(seq, digest) for j in list(_WRITERS) if os.path.abspath(j.path) == where)


def _ranges(seqs: Iterable[int]) -> list[tuple[int, int]]:
    """Whole numbers as (first, last) ranges of consecutive ones."""
    return _merged((n, n) for n in seqs)


def _merged(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def verify(
    path: Path | None = None, *, expected_key: Expected = None, trusted: Trusted = None
) -> Verification:
    """Check every record's hash and its link to the one before, and the journal against its
    signed checkpoints: each must be signed by this installation's key (``expected_key``) or
    a trusted one (``trusted``), or by the one fingerprint pinned (``expected_key`` as text);
    then say which records no anchoring checkpoint vouches for (``unauthenticated``)."""
    path = path or default_journal_path()
    result = Verification(path)
    if not path.exists():
        return result
    found = checkpoints.read(checkpoints.checkpoints_path(path))
    wanted = {cp.seq for cp in found.checkpoints}
    hashes: dict[int, list[str]] = collections.defaultdict(list)
    intents: set[int] = set()
    prev = GENESIS
    last_seq = 0
    recent: collections.deque[tuple[int, str]] = collections.deque(maxlen=RECENT)  # good ones
    good: list[tuple[int, str]] = []
    for number, raw, complete in _lines(path, _settled_size(path)):
        if not complete:
            result.problems.append(Problem(number, None, "torn"))
            break
        try:
            line = json_input.loads(raw)
            record = {k: v for k, v in line.items() if k not in ("prev", "hash")}
            stated_prev, stated = str(line["prev"]), str(line["hash"])
        except (ValueError, KeyError, AttributeError, TypeError):
            result.problems.append(Problem(number, None, "not-json"))
            continue
        seq = record.get("seq")
        kind = record.get("kind")
        if kind == "segment":  # it chains from the last good record before the break it names
            result.segments += 1
            result.breaks.append(Problem(number, seq, str(record.get("reason"))))
            after = record.get("after_seq")
            after_seq = after if isinstance(after, int) else -1
            expected_prev, expected_seq = dict(recent).get(after_seq, GENESIS), after_seq + 1
        else:
            expected_prev, expected_seq = prev, last_seq + 1
        if chain_hash(stated_prev, record) != stated:
            result.problems.append(Problem(number, seq, "hash"))
        else:
            if stated_prev != expected_prev:
                result.problems.append(Problem(number, seq, "chain"))
            elif not isinstance(seq, int) or seq != expected_seq:
                result.problems.append(Problem(number, seq, "order"))
            elif seq in result.hashes:  # a second record of a seq: a forked chain
                result.problems.append(Problem(number, seq, "seq-again"))
            else:
                recent.append((seq, stated))
                good.append((seq, stated))
                result.hashes[seq] = stated
                if seq in wanted:
                    hashes[seq].append(stated)
        if kind == "intent" and isinstance(seq, int):
            intents.add(seq)
        elif isinstance(record.get("intent_seq"), int):
            intents.discard(record["intent_seq"])
        prev = stated
        last_seq = seq if isinstance(seq, int) else last_seq
        result.records += 1
    result.head = prev
    result.end_seq = last_seq
    result.pending = len(intents)
    result.checkpoints = len(found.checkpoints)
    pinned = isinstance(expected_key, str)
    fingerprint: str | None = None
    if found.checkpoints or found.unreadable:
        fingerprint = expected_key() if callable(expected_key) else expected_key
        if pinned:
            accepted: Iterable[str] = ()
        elif trusted is None:
            accepted = trusted_fingerprints()
        else:
            accepted = trusted() if callable(trusted) else trusted
        checked = checkpoints.check(
            found, hashes, last_seq, fingerprint, trusted=accepted, pinned=pinned
        )
        result.anchor = checked.problems
    else:
        checked = checkpoints.check(found, hashes, last_seq, None)
    result.notes = checked.notes
    result.anchored = max((cp.seq for cp in checked.anchors), default=0)
    result.vouched = _merged(r for cp in checked.anchors for r in cp.vouches)
    own = [cp for cp in checked.anchors if checkpoints.same_key(cp.fingerprint, fingerprint)]
    result.vouched_own = _merged(r for cp in own for r in cp.vouches)
    result.unauthenticated = [seq for seq, digest in good if not result.authenticated(seq, digest)]
    if result.unauthenticated:
        result.notes.append(result.unauthenticated_text())
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
            record: Any = json_input.loads(raw)
        except ValueError:
            continue
        if not isinstance(record, dict):
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


#: The columns a CSV export adds after :data:`COLUMNS`: the operation, the outcome and the
#: change as a person reads them (``label_columns``; the desktop program passes its own).
LABEL_COLUMNS = ("operation_label", "outcome_label", "change_label")

#: Outcomes in words (as the desktop program's journal says them in English).
OUTCOME_WORDS = {"ok": "Succeeded", "failed": "Refused", "unknown": "Unknown"}
#: A record's :data:`LABEL_COLUMNS` texts.
Labeller = Callable[[Mapping[str, Any]], Iterable[str]]


def label_columns(record: Mapping[str, Any]) -> tuple[str, str, str]:
    """A record's labels without translations: the operation's code in words, the outcome
    in words, and the change as "field: value" pairs (before → after where known)."""
    operation = str(record.get("operation") or "")
    outcome = str(record.get("outcome") or "")
    before = record.get("before") or {}
    after = record.get("after") or {}
    fields = record.get("fields") or {}
    parts = []
    for name in dict.fromkeys([*after, *fields]):
        value = after.get(name, fields.get(name)) if isinstance(after, Mapping) else None
        if isinstance(before, Mapping) and name in before:
            parts.append(f"{code_in_words(str(name))}: {_words(before[name])} → {_words(value)}")
        else:
            parts.append(f"{code_in_words(str(name))}: {_words(value)}")
    return (
        code_in_words(operation.rsplit(".", 1)[-1]) if operation else "",
        OUTCOME_WORDS.get(outcome, code_in_words(outcome)),
        "; ".join(parts),
    )


def _words(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


def export_csv(
    records: Iterable[Mapping[str, Any]],
    path: Path,
    delimiter: str = ",",
    labels: Labeller | None = None,
) -> int:
    """Records as CSV (the program's CSV rules): :data:`COLUMNS` then :data:`LABEL_COLUMNS`
    (from ``labels``, default :func:`label_columns`); returns how many."""
    with atomic_open(path, encoding=ENCODING, newline="") as fh:
        rows = csv_rows(records, labels)
        return write_rows(fh, rows, DELIMITERS.get(delimiter, delimiter)) - 1


def csv_rows(
    records: Iterable[Mapping[str, Any]], labels: Labeller | None = None
) -> Iterator[list[Any]]:
    """The header, then each record's row (:data:`COLUMNS`, then :data:`LABEL_COLUMNS` from
    ``labels``, default :func:`label_columns`), as a stream."""
    describe = labels or label_columns
    yield [*COLUMNS, *LABEL_COLUMNS]
    for r in records:
        yield [*(_cell(r.get(c)) for c in COLUMNS), *describe(r)]


def export_json(records: Iterable[Mapping[str, Any]], path: Path) -> int:
    """Records as one JSON array, each with its ``prev`` and ``hash``; returns how many."""
    items = list(records)
    with atomic_open(path) as fh:
        json.dump(items, fh, ensure_ascii=False, indent=1, sort_keys=True)
        fh.write("\n")
    return len(items)


#: Resolves with a durable record's seq once it is on disk (None: it could not be written).
Waiter = asyncio.Future[int | None]


def _settle(waiter: Waiter, seq: int | None) -> None:
    """Resolve ``waiter`` from any thread."""

    def done() -> None:
        if not waiter.done():
            waiter.set_result(seq)

    loop = waiter.get_loop()
    try:
        running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        done()
    elif not loop.is_closed():
        with contextlib.suppress(RuntimeError):  # closed meanwhile: no one waits any more
            loop.call_soon_threadsafe(done)


class Journal:
    """Appends records to one journal file: thread-safe, and safe beside other processes
    appending to the same file (an OS lock, the tail re-read when the file changed).

    Inside a running event loop the writes are made by a worker thread, so an fsync never
    stalls the loop: what is queued while one write is under way goes together in the next
    (one ``write`` and one ``fsync``). Outside a loop each append is written at once.

    ``signer`` hands out the installation's key for the checkpoints (``keys.signing_key``
    with the OS keyring in the program; tests hand in one over ``keys.MemoryStore``). Without
    one, or when it raises (no keyring), journaling goes on without checkpoints, said once in
    the log. The key, once read, is kept in this object for the life of the process.
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        signer: checkpoints.Signer | None = None,
        checkpoint_every: int = checkpoints.EVERY,
    ) -> None:
        self.path = path or default_journal_path()
        self.checkpoints_path = checkpoints.checkpoints_path(self.path)
        self.checkpoint_every = checkpoint_every
        self._signer = signer
        self._key: Any = None  # Ed25519PrivateKey once read
        self._no_key = signer is None
        self._key_lock = threading.Lock()
        #: Held while writing (and while the cached tail is read or changed).
        self._lock = threading.Lock()
        #: Held only to queue or take records.
        self._queue_lock = threading.Lock()
        self._os_lock = filelock.FileLock(lock_path(self.path), mode=0o600, poll_interval=0.002)
        self._pending: list[tuple[dict[str, Any], Waiter | None]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._tail: tuple[str, int, int] | None = None  # head hash, last seq, segment
        #: The file's (device, inode, size) after this object's last write: while they stay
        #: the same, no one else appended and the cached tail is the file's.
        self._seen: tuple[int, int, int] | None = None
        #: A checkpoint due after the last write (seq, hash).
        self._due: tuple[int, str] | None = None
        #: Every record this object appended (seq -> hash), and the seqs of those no
        #: checkpoint of its own vouches for yet: a checkpoint vouches only for what this
        #: object wrote itself, never for records another hand appended between them.
        self._written: dict[int, bytes] = {}
        self._unvouched: list[int] = []
        _WRITERS.add(self)

    def append(self, record: Mapping[str, Any], *, durable: bool = False) -> int | None:
        """Queue ``record`` (a change unless it names another ``kind``): in a running loop a
        worker thread writes it soon after, with whatever else is queued; outside one it is
        written at once. ``durable``: written and fsynced here before returning (blocking),
        and its seq returned (None: it could not be written)."""
        entry = {"kind": "change", "time": now_iso(), **record}
        with self._queue_lock:
            self._pending.append((entry, None))
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or durable:
            self._write_pending()
            seq = entry.get("seq")
            return seq if durable and isinstance(seq, int) else None
        self._start_flusher(loop)
        return None

    def append_durable(self, record: Mapping[str, Any]) -> Waiter:
        """Queue ``record`` to be written and fsynced by the worker thread (with whatever
        else is queued); the future gives its seq once it is on disk. Needs a running loop."""
        loop = asyncio.get_running_loop()
        waiter: Waiter = loop.create_future()
        entry = {"kind": "change", "time": now_iso(), **record}
        with self._queue_lock:
            self._pending.append((entry, waiter))
        self._start_flusher(loop)
        return waiter

    def flush(self) -> None:
        """Write what is queued, durably, here (waiting for a write under way)."""
        self._write_pending()

    def _start_flusher(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush_in_thread())

    async def _flush_in_thread(self) -> None:
        """Write what is queued in a worker thread until nothing is."""
        while True:
            with self._queue_lock:
                if not self._pending:
                    return
            await asyncio.to_thread(self._write_pending)

    def _write_pending(self) -> None:
        """Write what is queued (one write, one fsync), resolve its waiters, and write the
        checkpoint it made due; never raises (an unwritable journal is logged)."""
        with self._lock:
            with self._queue_lock:
                batch, self._pending = self._pending, []
            if not batch:
                return
            try:
                self._write([entry for entry, _ in batch])
            except Exception as exc:  # a journal that cannot be written must not stop the work
                log.error("the journal could not be written: %s", exc)
        for entry, waiter in batch:
            if waiter is not None:
                seq = entry.get("seq")
                _settle(waiter, seq if isinstance(seq, int) else None)
        self._checkpoint_if_due()

    def wrote(self, seq: int, digest: str) -> bool:
        """True when this object appended the record ``seq`` with hash ``digest``."""
        mine = self._written.get(seq)
        try:
            return mine is not None and mine == bytes.fromhex(digest)
        except ValueError:
            return False

    def close(self) -> None:
        """Write what is queued and, when this object wrote records since its last
        checkpoint, a checkpoint of the last of them (a clean stop)."""
        self.flush()
        if self._unvouched:
            self.checkpoint("stop")

    def checkpoint(self, reason: str = "stop") -> dict[str, Any] | None:
        """Sign and write a checkpoint of the last record this object wrote, vouching for
        the records it wrote since its last checkpoint; None without a key, when it wrote
        none, or when the checkpoints file cannot be written.

        It never signs the file's head as found: records appended by another hand (another
        process, or someone editing the file) after this object's last record are not
        anchored by it, and those between its own are anchored but not vouched for."""
        key = self._signing_key()
        if key is None:
            return None
        try:
            with self._lock, self._locked():
                if not self._unvouched:
                    return None
                seq = self._unvouched[-1]
                return self._write_checkpoint(key, seq, self._written[seq].hex(), reason)
        except OSError as exc:
            log.error("a journal checkpoint could not be written: %s", exc)
            return None

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The OS lock of the journal (its folder made first)."""
        if not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fsync_dir(self.path.parent)
        with self._os_lock:
            yield

    def _signing_key(self) -> Any:
        """The installation's key, read once; None without one (said once in the log)."""
        if self._no_key:
            return None
        with self._key_lock:
            if self._key is None and not self._no_key and self._signer is not None:
                try:
                    self._key = self._signer()
                except Exception as exc:
                    self._no_key = True
                    log.warning("journal checkpoints are not written: no usable keyring")
                    log.debug("the signing key could not be read: %s", exc)
            return self._key

    def _checkpoint_if_due(self) -> None:
        """Write the checkpoint the last write made due (in the writing thread)."""
        with self._lock:
            due, self._due = self._due, None
        if due is not None and not self._no_key:
            self._checkpoint_at(*due)

    def _checkpoint_at(self, seq: int, head: str) -> None:
        key = self._signing_key()
        if key is None:
            return
        try:
            with self._lock, self._locked():
                self._write_checkpoint(key, seq, head, f"every {self.checkpoint_every}")
        except OSError as exc:
            log.error("a journal checkpoint could not be written: %s", exc)

    def _write_checkpoint(
        self, key: Any, seq: int, head: str, reason: str
    ) -> dict[str, Any] | None:
        """Append one checkpoint of this object's record ``seq`` (hash ``head``), vouching for
        the records it wrote up to it (the caller holds both locks)."""
        mine = [n for n in self._unvouched if n <= seq]
        line = checkpoints.make(key, seq, head, reason, vouches=_ranges(mine))
        checkpoints.append(self.checkpoints_path, line)
        self._unvouched = [n for n in self._unvouched if n > seq]
        return line

    def _write(self, entries: list[dict[str, Any]]) -> None:
        """Chain and append ``entries`` under the OS lock (the caller holds ``_lock``); each
        entry gets its ``seq``."""
        with self._locked():
            head, seq, segment = self._current_tail()
            first = seq + 1
            lines: list[bytes] = []
            chained: list[tuple[int, str]] = []
            for entry in entries:
                seq += 1
                body = {**entry, "seq": seq, "segment": segment, "format": FORMAT}
                digest = chain_hash(head, body)
                lines.append(canonical({**body, "prev": head, "hash": digest}) + b"\n")
                chained.append((seq, digest))
                head = digest
            fd = open_own(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            try:
                os.write(fd, b"".join(lines))
                os.fsync(fd)
                st = os.fstat(fd)
            finally:
                os.close(fd)
            self._seen = (st.st_dev, st.st_ino, st.st_size)
            self._tail = (head, seq, segment)
        for number, digest in chained:
            self._own(number, digest)
        for number, entry in enumerate(entries, start=first):
            entry["seq"] = number
        every = self.checkpoint_every
        if every > 0 and seq // every > (first - 1) // every:
            self._due = (seq, head)

    def _current_tail(self) -> tuple[str, int, int]:
        """The file's last good record (hash, seq, segment), under the OS lock: the cached one
        while the file is as this object left it, else read again from its end."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self._tail = self._seen = None
            return GENESIS, 0, 0
        if self._tail is not None and self._seen == (st.st_dev, st.st_ino, st.st_size):
            return self._tail
        self._tail = self._open_tail()
        st = os.stat(self.path)
        self._seen = (st.st_dev, st.st_ino, st.st_size)
        return self._tail

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
        ended = True  # the file ends with a newline (the segment record starts a line)
        if lines and lines[-1]:
            problem = "torn"
            try:
                self._cut_torn(size - len(lines[-1]))
            except OSError as exc:  # left in place: ended by a newline, a damaged line
                log.error("the journal's torn last line could not be set aside: %s", exc)
                ended = False
        for raw in reversed([line for line in lines[:-1] if line]):
            try:
                line = json_input.loads(raw)
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
        line = canonical({**body, "prev": head, "hash": digest}) + b"\n"
        fd = open_own(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, line if ended else b"\n" + line)
            os.fsync(fd)
        finally:
            os.close(fd)
        self._own(seq, digest)
        return digest, seq, segment

    def _own(self, seq: int, digest: str) -> None:
        """Remember a record this object wrote."""
        self._written[seq] = bytes.fromhex(digest)
        self._unvouched.append(seq)

    def _cut_torn(self, keep: int) -> None:
        """Set a torn last line aside (kept in ``.torn``) so the file ends with a record; no
        link planted at either name is followed (``OSError``: nothing is cut)."""
        with os.fdopen(open_own(self.path, os.O_RDWR), "r+b") as fh:
            fh.seek(keep)
            torn = fh.read()
            torn_path = self.path.with_suffix(".torn")
            fd = open_own(torn_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            with os.fdopen(fd, "ab") as out:
                out.write(torn + b"\n")
                out.flush()
                os.fsync(out.fileno())
            fh.truncate(keep)
            fh.flush()
            os.fsync(fh.fileno())
