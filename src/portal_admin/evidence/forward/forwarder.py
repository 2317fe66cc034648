"""The forwarding loop: stream the journal from a destination's cursor, send, then advance.

The journal is read line by line from the cursor's place (never loaded whole: memory stays
flat in the journal's size); only complete lines are read, so a record another process is
appending is picked up on the next pass. Records go in batches; after each batch the
destination accepted, the cursor moves to its last record and is written durably. The signed
checkpoints go too, each after the record it names (all that remain once the journal is
drained). A destination that fails ends the run with :class:`DestinationError`, the cursor
where the destination's last accepted batch left it.

Syslog has no acknowledgement: a batch counts as accepted once written and flushed, and a
receiver that goes away can take with it what sat in the sockets' buffers. So whenever the
journal is drained (the end of a ``--once`` run, each pause while following, a stop) the
connection is ended and the receiver must confirm it read everything (it closes its side);
when a syslog connection breaks instead, the cursor is set back by the batches of the last
:data:`REWIND` bytes written on it since the last confirmation: they are sent again next
time, and the receiver drops them by hash.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from portal_admin.evidence import checkpoints as checkpoint_files
from portal_admin.files import json_input

from . import formats
from .cursor import (
    HEX64,
    Cursor,
    CursorError,
    JournalRewritten,
    cursor_path,
    every,
    load,
    save,
)
from .destinations import Destination, DestinationError

#: Records per batch, and the most bytes of messages in one.
BATCH = 1000
BATCH_BYTES = 1 << 20
#: What a broken syslog connection may have lost: its last bytes sent (both sides' socket
#: buffers, generously).
REWIND = 16 << 20
#: Seconds between looks at a journal that did not grow (``--follow``).
POLL = 0.5


@dataclass
class Report:
    """What a run sent."""

    records: int = 0
    checkpoints: int = 0
    #: Lines that are not a record (not JSON): skipped, counted.
    unreadable: int = 0
    #: After a broken connection: the seq the cursor was set back to.
    rewound_to: int | None = None


@dataclass(frozen=True, slots=True)
class _Read:
    item: formats.Item
    start: int


def _record(raw: bytes) -> dict[str, Any] | None:
    """A record's line, or None when it is not one (not JSON, no seq, a hash that is not 64
    hex digits: no cursor may ever name such a thing)."""
    try:
        line = json_input.loads(raw)
    except ValueError:
        return None
    if not isinstance(line, dict) or not HEX64.match(str(line.get("hash"))):
        return None
    if not isinstance(line.get("seq"), int) or isinstance(line.get("seq"), bool):
        return None
    return line


def _checkpoint(raw: bytes) -> dict[str, Any] | None:
    """A checkpoint's line (a seq, the hash it names, a signature), or None."""
    line = _record(raw)
    return line if line is not None and isinstance(line.get("signature"), str) else None


def _lines_from(fh: IO[bytes], pos: int) -> Iterator[tuple[int, bytes]]:
    """Complete lines (start, bytes) from ``pos``; stops before a line still being written."""
    fh.seek(pos)
    while True:
        raw = fh.readline()
        if not raw.endswith(b"\n"):
            return
        yield pos, raw
        pos += len(raw)


def _locate(
    fh: IO[bytes], offset: int, matches: Callable[[bytes], bool], what: str
) -> tuple[int, int]:
    """Where the line a cursor names starts and ends: at ``offset`` when it is there, else
    found by reading the file; :class:`JournalRewritten` when it is nowhere."""
    if offset < 0:
        return -1, 0
    for start, raw in _lines_from(fh, offset):
        if matches(raw):
            return start, start + len(raw)
        break
    for start, raw in _lines_from(fh, 0):
        if matches(raw):
            return start, start + len(raw)
    raise JournalRewritten(what)


def record_position(fh: IO[bytes], cursor: Cursor, journal: Path) -> int:
    """Where reading goes on after the record ``cursor`` names (its offset updated)."""

    def matches(raw: bytes) -> bool:
        line = _record(raw) if cursor.hash.encode() in raw else None
        return line is not None and line["hash"] == cursor.hash and line["seq"] == cursor.seq

    start, end = _locate(
        fh,
        cursor.offset,
        matches,
        f"{journal} no longer holds the record seq {cursor.seq} (hash {cursor.hash})"
        f" that {cursor.destination} has: the journal was rewritten, replaced or cut"
        " short. Nothing was sent. Check it with 'journal verify'; 'journal forward"
        " --reset' sends every record again (the receiver drops what it has by hash).",
    )
    cursor.offset = start
    return end


def checkpoint_position(fh: IO[bytes], cursor: Cursor, path: Path) -> int:
    """Where reading goes on after the checkpoint ``cursor`` names (its offset updated)."""
    signature = cursor.checkpoint_signature

    def matches(raw: bytes) -> bool:
        line = _checkpoint(raw) if signature and signature.encode() in raw else None
        return line is not None and line["signature"] == signature

    start, end = _locate(
        fh,
        cursor.checkpoint_offset,
        matches,
        f"{path} no longer holds the checkpoint sent last to {cursor.destination}: the"
        " checkpoints were rewritten or replaced. Nothing was sent; 'journal forward"
        " --reset' sends everything again.",
    )
    cursor.checkpoint_offset = start
    return end


class _Saver:
    """Writes the newest cursor handed to it, durably, in a thread of its own: the fsyncs
    overlap the next batch instead of holding it up. A cursor only ever names batches the
    destination accepted; after a kill the file may lag a batch or two behind (those are
    sent again, and dropped by hash), never run ahead."""

    def __init__(self, path: Path, key: bytes | None = None) -> None:
        self.path = path
        self.key = key
        self._cond = threading.Condition()
        self._pending: Cursor | None = None
        self._busy = False
        self._closed = False
        self._error: OSError | None = None
        self._thread = threading.Thread(target=self._loop, name="cursor-writer", daemon=True)
        self._thread.start()

    def put(self, cursor: Cursor) -> None:
        with self._cond:
            self._raise()
            self._pending = dataclasses.replace(cursor)
            self._cond.notify_all()

    def flush(self) -> None:
        """Wait until the newest cursor handed over is on disk."""
        with self._cond:
            while self._pending is not None or self._busy:
                self._cond.wait()
            self._raise()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()
            self._thread.join()

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _loop(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._pending is None:
                    return
                cursor, self._pending = self._pending, None
                self._busy = True
            try:
                save(self.path, cursor, self.key)
            except OSError as exc:
                with self._cond:
                    self._error = exc
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()


class Forwarder:
    """Sends one journal (and its checkpoints) to one destination from its cursor."""

    def __init__(
        self,
        journal: Path,
        destination: Destination,
        fmt: str,
        *,
        cursors: Path | None = None,
        batch: int = BATCH,
        batch_bytes: int = BATCH_BYTES,
        host: str | None = None,
        seal_key: bytes | None = None,
    ) -> None:
        """``seal_key``: the key the cursor is sealed with (``cursor.seal_key()``; None: not
        sealed, a cursor moved by hand is not detected)."""
        self.journal = journal
        self.seal_key = seal_key
        self.checkpoints = checkpoint_files.checkpoints_path(journal)
        self.destination = destination
        self.format = fmt
        self.batch = max(1, batch)
        self.batch_bytes = batch_bytes
        self.host = host or formats.hostname()
        self.cursor_file = cursor_path(destination.label, journal, cursors)
        found = load(self.cursor_file, seal_key)
        self.cursor = found or Cursor(destination.label, str(journal.resolve()), fmt)
        if found is not None and found.destination != destination.label:
            raise CursorError(f"{self.cursor_file}: the cursor of another destination")
        self.cursor.format = fmt
        channel = getattr(destination, "channel", "")
        if isinstance(channel, str) and channel:
            if self.cursor.channel:
                destination.channel = self.cursor.channel  # type: ignore[attr-defined]
            else:  # kept at once: an acknowledgement pending at a failure is asked for
                self.cursor.channel = channel  # on the same channel next time
                save(self.cursor_file, self.cursor, seal_key)

    # --- the run ----------------------------------------------------------------------------

    def run(
        self,
        *,
        follow: bool = False,
        stop: threading.Event | None = None,
        poll: float = POLL,
    ) -> Report:
        """Send what the destination lacks; with ``follow``, go on as the journal grows
        until ``stop`` is set. Raises DestinationError, JournalRewritten."""
        stop = stop or threading.Event()
        report = Report()
        #: (bytes sent on this connection after a batch, the cursor before it)
        window: collections.deque[tuple[int, Cursor]] = collections.deque()
        sent = 0
        journal_fh: IO[bytes] | None = None
        cp_fh: IO[bytes] | None = None
        self._saver = _Saver(self.cursor_file, self.seal_key)
        try:
            while not stop.is_set():
                if journal_fh is None and self.journal.exists():
                    journal_fh = self.journal.open("rb")
                    pos = record_position(journal_fh, self.cursor, self.journal)
                if cp_fh is None and self.checkpoints.exists():
                    cp_fh = self.checkpoints.open("rb")
                    cp_pos = checkpoint_position(cp_fh, self.cursor, self.checkpoints)
                reads: list[_Read] = []
                if journal_fh is not None:
                    pos = self._read_records(journal_fh, pos, reads, report)
                cp_limit = reads[-1].item.seq if reads else None
                if cp_fh is not None:
                    cp_pos = self._read_checkpoints(cp_fh, cp_pos, cp_limit, reads, report)
                if not reads:
                    self._finish(window, report)  # drained: the receiver confirms it
                    if not follow:
                        break
                    stop.wait(poll)
                    if journal_fh is not None and self._replaced(journal_fh, self.journal, pos):
                        journal_fh.close()
                        journal_fh = None
                    if cp_fh is not None and self._replaced(cp_fh, self.checkpoints, cp_pos):
                        cp_fh.close()
                        cp_fh = None
                    continue
                before = dataclasses.replace(self.cursor)
                messages = [
                    formats.message(self.destination.envelope, self.format, r.item, self.host)
                    for r in reads
                ]
                try:
                    self.destination.send(messages)
                except DestinationError as exc:
                    if exc.broken and self.destination.unacknowledged:
                        self._rewind(window, report)
                    raise
                sent += sum(len(m) for m in messages)
                window.append((sent, before))
                while window and window[0][0] < sent - REWIND:
                    window.popleft()
                self._advance(reads, report)
            self._finish(window, report)
        except BaseException:
            with contextlib.suppress(OSError):  # the first failure is the one to tell
                self._saver.close()
            raise
        finally:
            for fh in (journal_fh, cp_fh):
                if fh is not None:
                    fh.close()
            self.destination.close()
        self._saver.close()
        return report

    def _read_records(self, fh: IO[bytes], pos: int, reads: list[_Read], report: Report) -> int:
        size = 0
        for start, raw in _lines_from(fh, pos):
            pos = start + len(raw)
            line = _record(raw)
            if line is None:
                report.unreadable += 1
                continue
            reads.append(_Read(formats.Item("record", line), start))
            size += len(raw)
            if len(reads) >= self.batch or size >= self.batch_bytes:
                break
        return pos

    def _read_checkpoints(
        self,
        fh: IO[bytes],
        pos: int,
        limit: int | None,
        reads: list[_Read],
        report: Report,
    ) -> int:
        """Add the checkpoints due: those naming a record up to ``limit`` (None: the journal
        is drained, so every one), in file order."""
        for start, raw in _lines_from(fh, pos):
            line = _checkpoint(raw)
            if line is None:
                report.unreadable += 1
                pos = start + len(raw)
                continue
            if limit is not None and line["seq"] > limit:
                break
            reads.append(_Read(formats.Item("checkpoint", line), start))
            pos = start + len(raw)
        return pos

    @staticmethod
    def _replaced(fh: IO[bytes], path: Path, pos: int) -> bool:
        """Whether ``path`` is no longer the file open as ``fh`` or became shorter."""
        try:
            now = os.stat(path)
        except OSError:
            return False
        was = os.fstat(fh.fileno())
        return (now.st_dev, now.st_ino) != (was.st_dev, was.st_ino) or now.st_size < pos

    def _advance(self, reads: list[_Read], report: Report) -> None:
        """Move the cursor past ``reads`` (accepted) and write it durably."""
        cursor = self.cursor
        for read in reads:
            if read.item.kind == "record":
                cursor.seq, cursor.hash = read.item.seq, str(read.item.line["hash"])
                cursor.offset = read.start
                report.records += 1
            else:
                cursor.checkpoint_signature = str(read.item.line["signature"])
                cursor.checkpoint_offset = read.start
                cursor.checkpoints += 1
                report.checkpoints += 1
        cursor.updated = datetime.now(UTC).isoformat(timespec="milliseconds")
        self._saver.put(cursor)

    def _finish(self, window: collections.deque[tuple[int, Cursor]], report: Report) -> None:
        """End the connection once the receiver confirmed it read everything; when it did
        not, set the cursor back (:meth:`_rewind`) and raise."""
        try:
            self.destination.finish()
        except DestinationError as exc:
            if exc.broken and self.destination.unacknowledged:
                self._rewind(window, report)
            raise
        window.clear()

    def _rewind(self, window: collections.deque[tuple[int, Cursor]], report: Report) -> None:
        """Set the cursor back to before the batches a broken connection may have lost."""
        if not window:
            return
        back = window[0][1]
        back.channel, back.updated = self.cursor.channel, self.cursor.updated
        self.cursor = back
        self._saver.put(back)
        self._saver.flush()
        report.rewound_to = back.seq


@dataclass(frozen=True)
class Standing:
    """One destination's cursor and how far behind it is."""

    path: Path
    cursor: Cursor | None
    #: Records and checkpoints not yet sent (None: unknown, with ``problem`` saying why).
    records_behind: int | None = None
    checkpoints_behind: int | None = None
    problem: str = ""


def _count_after(path: Path, end: int, valid: Callable[[bytes], Any]) -> int:
    if not path.exists():
        return 0
    with path.open("rb") as fh:
        return sum(1 for _, raw in _lines_from(fh, end) if valid(raw) is not None)


def standings(base: Path | None = None) -> list[Standing]:
    """Every destination's cursor, and how many records and checkpoints it is behind."""
    out: list[Standing] = []
    for path, found in every(base):
        if isinstance(found, CursorError):
            out.append(Standing(path, None, problem=str(found)))
            continue
        journal = Path(found.journal)
        cps = checkpoint_files.checkpoints_path(journal)
        if found.started and not journal.exists():
            out.append(Standing(path, found, problem=f"{journal}: the journal is not there"))
            continue
        try:
            records = checkpoints = 0
            if journal.exists():
                with journal.open("rb") as fh:
                    records = _count_after(journal, record_position(fh, found, journal), _record)
            if cps.exists():
                with cps.open("rb") as fh:
                    end = checkpoint_position(fh, found, cps)
                checkpoints = _count_after(cps, end, _checkpoint)
        except JournalRewritten as exc:
            out.append(Standing(path, found, problem=str(exc)))
            continue
        except OSError as exc:
            out.append(Standing(path, found, problem=f"{journal}: {exc.strerror}"))
            continue
        out.append(Standing(path, found, records, checkpoints))
    return out
