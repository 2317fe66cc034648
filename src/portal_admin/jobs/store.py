"""The durable job file: one SQLite file per job, with its plan and every target's outcome.

Written before and after each request (WAL, ``synchronous=FULL``: a commit survives a kill
and a power cut). Writes are grouped into few transactions (an fsync costs about 0.2 ms, and
two per target halved a job's throughput): a write that must be on disk before a request
leaves (``urgent``) is committed at the end of the loop's turn, with every other write made
by then; the rest wait at most ``LAZY_COMMIT`` for company. Commits run on the loop's thread:
a writer thread had to win the GIL back from a busy loop and waited for it. A job file is
run by one runner at a time: :meth:`JobFile.lock` takes an OS lock beside it (released by
the OS when the process dies). The file, its ``-wal``/``-shm`` and its lock are readable by
their owner only (0600): they hold emails, names and remarks.

Version 2 added ``sent_until`` (until when a target's unanswered request may still be applied)
and ``unknown_sends``; a version-1 file is upgraded when it is opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import filelock

from portal_admin.files import sqlite_data
from portal_admin.files.paths import data_dir
from portal_admin.files.portable import WINDOWS, create_private, make_private, private_dir

SCHEMA_VERSION = 2
#: Permissions of a job file and of the files SQLite and the lock put beside it.
FILE_MODE = 0o600
#: Files beside a job file (SQLite's, and the lock).
SIDE_FILES = ("-wal", "-shm", ".lock")
#: How long a write that need not be on disk at once may wait for others to share its commit.
LAZY_COMMIT = 0.05
SUFFIX = ".job.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
    seq INTEGER PRIMARY KEY,
    target_id TEXT NOT NULL,
    label TEXT NOT NULL,
    record TEXT NOT NULL,
    current TEXT NOT NULL,
    new TEXT NOT NULL,
    skip TEXT,
    state TEXT NOT NULL,
    after TEXT,
    error_code TEXT,
    request_id TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    note TEXT,
    finished_at TEXT,
    sent_until REAL,
    unknown_sends INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS items_state ON items (state, seq);
"""


class JobState(StrEnum):
    """Where a job stands."""

    PLANNED = "planned"  # planned, nothing sent yet
    RUNNING = "running"  # a runner holds it (or held it when the process died)
    PAUSED = "paused"  # paused by the person or by a fault; resumable
    CANCELLED = "cancelled"  # stopped by the person; what was done stays done
    FINISHED = "finished"  # every target has its outcome


class ItemState(StrEnum):
    """Where one target stands."""

    PLANNED = "planned"  # to be sent
    SKIPPED = "skipped"  # left alone, with the reason in ``skip``
    SENDING = "sending"  # written before the request: its outcome is not known yet
    DONE = "done"  # changed (``after`` holds the value after)
    FAILED = "failed"  # the server refused it (``error_code``)
    UNKNOWN = "unknown"  # sent, outcome unknown, and not repeated (cannot be read back)
    CANCELLED = "cancelled"  # not sent: the job was cancelled first


#: Version 1 to 2: until when an unanswered request may still be applied (wall-clock seconds
#: since the epoch, written with the ``sending`` mark), and how many of a target's sends had
#: an unknown outcome. A version-1 target left ``sending`` has no ``sent_until``: the runner
#: then waits a whole window before reading it back.
_UPGRADES = {
    1: (
        "ALTER TABLE items ADD COLUMN sent_until REAL",
        "ALTER TABLE items ADD COLUMN unknown_sends INTEGER NOT NULL DEFAULT 0",
    ),
}

#: The schema as version 1 wrote it (before ``_UPGRADES[1]``).
_SCHEMA_V1 = _SCHEMA.replace(
    ",\n    sent_until REAL,\n    unknown_sends INTEGER NOT NULL DEFAULT 0\n", "\n"
)
#: Seconds the checks of a job file opened as data may take.
CHECK_BUDGET = 60.0

#: States in which a target needs no more work.
FINAL = frozenset({ItemState.SKIPPED, ItemState.DONE, ItemState.FAILED, ItemState.UNKNOWN})


def jobs_dir() -> Path:
    """Where job files live: the user data folder's ``jobs``."""
    return data_dir() / "jobs"


def now_iso() -> str:
    """The time now, UTC, ISO 8601 with milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class JobLockedError(RuntimeError):
    """Another runner (in this or another process) holds the job."""


class JobFileError(RuntimeError):
    """A file that is not a job file of this program (or a newer one)."""


@dataclass(slots=True)
class Item:
    """One target's line of the job (the runner keeps its copy in step with the file)."""

    seq: int
    target_id: str
    label: str
    record: dict[str, Any]
    current: str
    new: str
    skip: str | None
    state: ItemState
    after: str | None = None
    error_code: str | None = None
    request_id: str | None = None
    attempts: int = 0
    note: str | None = None
    finished_at: str | None = None
    #: Wall-clock time (epoch seconds) until which its request may still be applied (None: not
    #: known, e.g. a version-1 file).
    sent_until: float | None = None
    #: How many of its sends had an unknown outcome and were found not applied.
    unknown_sends: int = 0


def _item(row: sqlite3.Row) -> Item:
    return Item(
        seq=row["seq"],
        target_id=row["target_id"],
        label=row["label"],
        record=json.loads(row["record"]),
        current=row["current"],
        new=row["new"],
        skip=row["skip"],
        state=ItemState(row["state"]),
        after=row["after"],
        error_code=row["error_code"],
        request_id=row["request_id"],
        attempts=row["attempts"],
        note=row["note"],
        finished_at=row["finished_at"],
        sent_until=row["sent_until"],
        unknown_sends=row["unknown_sends"],
    )


def _private(path: Path) -> None:
    """Create ``path`` empty, readable and writable by its owner only (whatever the umask)."""
    create_private(path)


def restrict(path: Path) -> None:
    """Make an existing job file and the files beside it owner-only (a file of an earlier
    version was created 0644). SQLite gives a new ``-wal``/``-shm`` the job file's mode."""
    for each in (path, *(Path(f"{path}{side}") for side in SIDE_FILES)):
        with contextlib.suppress(OSError):  # absent, or not ours: left as it is
            if WINDOWS or each.stat().st_mode & 0o077:
                make_private(each)


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    sqlite_data.defend(conn)  # trusted_schema OFF, defensive: before any query of the file
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def _schemas() -> list[frozenset[sqlite_data.Row]]:
    """The ``sqlite_master`` rows of the job files this program writes: version 1, version 1
    upgraded, the current version."""
    upgraded = _SCHEMA_V1 + "".join(f"{sql};\n" for v in sorted(_UPGRADES) for sql in _UPGRADES[v])
    return [sqlite_data.expected_rows(s) for s in (_SCHEMA_V1, upgraded, _SCHEMA)]


def _check_as_data(conn: sqlite3.Connection, path: Path, budget: float = CHECK_BUDGET) -> None:
    """Refuse (JobFileError) a job file that is not this program's, read as data
    (``files/sqlite_data.py``): SQL this program never writes (a trigger, a view, another
    table or index), a table or index defined otherwise, a failed integrity check; within
    ``budget`` seconds (``sqlite3.OperationalError: interrupted`` past it)."""
    until = time.monotonic() + budget
    conn.set_progress_handler(lambda: 1 if time.monotonic() > until else 0, sqlite_data.STEPS)
    try:
        conn.execute("BEGIN")  # one read transaction: every check sees the same file
        try:
            rows = sqlite_data.schema_rows(conn)
            known = _schemas()
            alien = sqlite_data.foreign(rows, [r for rs in known for r in rs])
            if alien:
                raise JobFileError(
                    f"{path.name} carries SQL this program never puts in a job file"
                    f" ({', '.join(alien[:5])}): refused, since it could change what is sent"
                )
            if frozenset(rows) not in known:
                raise JobFileError(f"{path.name} does not have this program's job schema: refused")
            found = sqlite_data.integrity(conn)
            if found is not None:
                raise JobFileError(f"{path.name} is damaged (integrity check: {found}): refused")
        finally:
            conn.execute("COMMIT")
    finally:
        conn.set_progress_handler(None, 0)


Write = Callable[[sqlite3.Connection], None]


class JobFile:
    """One job's SQLite file: its metadata, plan and outcomes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = _connect(path)
        self._pending: list[tuple[Write, asyncio.Future[None]]] = []
        self._commit_soon = False
        self._lazy: asyncio.TimerHandle | None = None
        self._lock: filelock.BaseFileLock | None = None
        #: Locks kept until the file is closed (a revert's, on what it reverts).
        self._held: list[filelock.BaseFileLock] = []

    # Creating and opening -------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        meta: dict[str, Any],
        items: Iterable[tuple[str, str, dict[str, Any], str, str, str | None]],
        folder: Path | None = None,
    ) -> JobFile:
        """Write a new job file (in one transaction) and return it.

        ``items``: (target id, label, record, current, new, skip reason or None).
        """
        folder = folder or jobs_dir()
        private_dir(folder)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S%f")[:-3]  # to the millisecond
        job_id = meta.get("id") or f"{stamp}-{uuid.uuid4().hex[:6]}"
        final = folder / f"{job_id}{SUFFIX}"
        tmp = folder / f".{job_id}{SUFFIX}.tmp"
        for leftover in (tmp, *(Path(f"{tmp}{side}") for side in ("-wal", "-shm"))):
            leftover.unlink(missing_ok=True)
        _private(tmp)  # before SQLite writes anything; its -wal and -shm take this mode
        conn = _connect(tmp)
        try:
            conn.executescript(_SCHEMA)
            conn.execute("BEGIN")
            values = {
                **meta,
                "id": job_id,
                "schema": SCHEMA_VERSION,
                "state": JobState.PLANNED,
                "created_at": now_iso(),
            }
            conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [(k, json.dumps(v, ensure_ascii=False)) for k, v in values.items()],
            )
            conn.executemany(
                "INSERT INTO items (target_id, label, record, current, new, skip, state)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    (
                        tid,
                        label,
                        json.dumps(record, ensure_ascii=False),
                        current,
                        new,
                        skip,
                        ItemState.SKIPPED if skip else ItemState.PLANNED,
                    )
                    for tid, label, record, current, new, skip in items
                ),
            )
            conn.execute("COMMIT")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        for extra in ("-wal", "-shm"):
            Path(f"{tmp}{extra}").unlink(missing_ok=True)
        tmp.replace(final)  # a plan is either whole or absent
        from portal_admin.files.atomic import fsync_dir

        fsync_dir(folder)
        return cls(final)

    @classmethod
    def open(cls, path: Path) -> JobFile:
        """Open an existing job file; JobFileError when it is not one."""
        if not path.is_file():
            raise JobFileError(f"{path} does not exist")
        restrict(path)
        job = cls(path)
        try:
            _check_as_data(job._conn, path)  # the connection that is then used
        except JobFileError:
            job.close()
            raise
        except sqlite3.DatabaseError as exc:
            job.close()
            if sqlite_data.too_slow(exc):
                raise JobFileError(f"{path.name} was not read in time: refused") from None
            raise JobFileError(f"{path.name} is not a job file ({exc})") from None
        try:
            schema = job.meta().get("schema")
            version = int(schema) if isinstance(schema, int | str) else None
        except (sqlite3.DatabaseError, ValueError) as exc:
            job.close()
            raise JobFileError(f"{path.name} is not a job file ({exc})") from None
        if version is None or not 1 <= version <= SCHEMA_VERSION:
            job.close()
            raise JobFileError(f"{path.name} is not a job file of this version")
        if version < SCHEMA_VERSION:
            try:
                job._upgrade()
            except sqlite3.DatabaseError as exc:
                job.close()
                raise JobFileError(f"{path.name} could not be upgraded ({exc})") from None
        return job

    def _upgrade(self) -> None:
        """Bring a file of an earlier version to this one, in one transaction (read again
        inside it: another program may have upgraded it meanwhile)."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            for version in range(int(json.loads(row[0])), SCHEMA_VERSION):
                for sql in _UPGRADES[version]:
                    conn.execute(sql)
            conn.execute(
                "UPDATE meta SET value = ? WHERE key = 'schema'", (json.dumps(SCHEMA_VERSION),)
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @property
    def id(self) -> str:
        """The job's id (also its file name's stem)."""
        return self.path.name.removesuffix(SUFFIX)

    def close(self) -> None:
        """Commit what is pending, release the locks, close the file."""
        try:
            self.commit()
            self.unlock()
            self._conn.close()
        finally:
            held, self._held = self._held, []
            for lock in held:
                lock.release()

    def hold(self, locks: list[filelock.BaseFileLock]) -> None:
        """Keep ``locks`` until this file is closed."""
        self._held.extend(locks)

    @property
    def holding(self) -> bool:
        """True when this file keeps locks (see :meth:`hold`)."""
        return bool(self._held)

    def discard(self) -> None:
        """Close and delete the job file (a plan that was only previewed or not confirmed)."""
        self.close()
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    # Locking --------------------------------------------------------------------------------

    def lock(self) -> None:
        """Take the job's lock; JobLockedError when another runner holds it."""
        if self._lock is not None and self._lock.is_locked:
            return
        lock = filelock.FileLock(str(self.path) + ".lock", timeout=0, mode=FILE_MODE)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise JobLockedError(f"job {self.path.name} is being run elsewhere") from None
        self._lock = lock

    def unlock(self) -> None:
        """Release the job's lock."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def is_locked_elsewhere(self) -> bool:
        """True when another runner holds the job now."""
        if self._lock is not None and self._lock.is_locked:
            return False
        probe = filelock.FileLock(str(self.path) + ".lock", timeout=0, mode=FILE_MODE)
        try:
            probe.acquire()
        except filelock.Timeout:
            return True
        probe.release()
        return False

    # Reading --------------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        """Every metadata value."""
        rows = self._conn.execute("SELECT key, value FROM meta").fetchall()
        return {row["key"]: json.loads(row["value"]) for row in rows}

    def state(self) -> JobState:
        """The job's recorded state."""
        return JobState(self.meta()["state"])

    def items(self, states: Iterable[ItemState] | None = None) -> Iterator[Item]:
        """The job's lines in order, optionally only those in ``states``."""
        if states is None:
            cursor = self._conn.execute("SELECT * FROM items ORDER BY seq")
        else:
            wanted = [str(s) for s in states]
            marks = ",".join("?" * len(wanted))
            cursor = self._conn.execute(
                f"SELECT * FROM items WHERE state IN ({marks}) ORDER BY seq",  # noqa: S608
                wanted,
            )
        for row in cursor:
            yield _item(row)

    def seqs(self, states: Iterable[ItemState]) -> list[int]:
        """The seqs of the lines in ``states``, in order."""
        wanted = [str(s) for s in states]
        marks = ",".join("?" * len(wanted))
        sql = f"SELECT seq FROM items WHERE state IN ({marks}) ORDER BY seq"  # noqa: S608
        return [row[0] for row in self._conn.execute(sql, wanted)]

    def items_at(self, seqs: Iterable[int]) -> list[Item]:
        """The lines with these seqs, in order."""
        wanted = list(seqs)
        if not wanted:
            return []
        marks = ",".join("?" * len(wanted))
        sql = f"SELECT * FROM items WHERE seq IN ({marks}) ORDER BY seq"  # noqa: S608
        return [_item(row) for row in self._conn.execute(sql, wanted)]

    def counts(self) -> dict[str, int]:
        """How many lines are in each item state."""
        rows = self._conn.execute("SELECT state, COUNT(*) AS n FROM items GROUP BY state")
        counts = {str(s): 0 for s in ItemState}
        counts.update({row["state"]: row["n"] for row in rows})
        return counts

    def skip_counts(self) -> dict[str, int]:
        """How many lines are skipped for each reason."""
        rows = self._conn.execute(
            "SELECT skip, COUNT(*) AS n FROM items WHERE skip IS NOT NULL GROUP BY skip"
        )
        return {row["skip"]: row["n"] for row in rows}

    # Writing (durable once the returned future is done) -------------------------------------

    def _submit(self, write: Write, *, urgent: bool = True) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((write, future))
        if urgent:
            if not self._commit_soon:  # after whatever else this turn of the loop writes
                self._commit_soon = True
                loop.call_soon(self.commit)
        elif self._lazy is None and not self._commit_soon:
            self._lazy = loop.call_later(LAZY_COMMIT, self.commit)
        return future

    def commit(self) -> None:
        """Commit every pending write in one transaction, then settle their futures."""
        self._commit_soon = False
        if self._lazy is not None:
            self._lazy.cancel()
            self._lazy = None
        batch, self._pending = self._pending, []
        if not batch:
            return
        error: BaseException | None = None
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            for write, _ in batch:
                write(self._conn)
            self._conn.execute("COMMIT")
        except Exception as exc:  # a failed batch fails every write in it
            error = exc
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        for _, future in batch:
            if future.done():
                continue
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)

    def set_meta(self, **values: Any) -> asyncio.Future[None]:
        """Record metadata values (state, pause reason, ...); durable once the future is done."""

        def write(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [(k, json.dumps(v, ensure_ascii=False)) for k, v in values.items()],
            )

        return self._submit(write)

    def set_item(
        self, seq: int, state: ItemState, *, urgent: bool = True, **fields: Any
    ) -> asyncio.Future[None]:
        """Record one line's new state (and any of after, error_code, request_id, note, skip);
        durable once the future is done. Writes are committed in the order they are made: an
        ``urgent`` one at the end of this turn of the loop, others within ``LAZY_COMMIT``."""
        return self.set_items([seq], state, urgent=urgent, **fields)

    def set_items(
        self,
        seqs: Sequence[int],
        state: ItemState,
        *,
        urgent: bool = True,
        undo_attempt: bool = False,
        unknown_send: bool = False,
        **fields: Any,
    ) -> asyncio.Future[None]:
        """Record the same new state for several lines (``undo_attempt``: a ``sending`` mark
        taken back before its request left; ``unknown_send``: a send of unknown outcome was
        found not applied). ``sending`` counts an attempt; give it ``sent_until``."""
        columns = ["state = ?"]
        values: list[Any] = [str(state)]
        if state is ItemState.SENDING:
            columns.append("attempts = attempts + 1")
        if undo_attempt:
            columns.append("attempts = MAX(attempts - 1, 0)")
        if unknown_send:
            columns.append("unknown_sends = unknown_sends + 1")
        if state in FINAL:
            columns.append("finished_at = ?")
            values.append(now_iso())
        return self._update(seqs, columns, values, fields, urgent=urgent)

    def update_items(
        self, seqs: Sequence[int], *, urgent: bool = True, **fields: Any
    ) -> asyncio.Future[None]:
        """Record fields of several lines, their state unchanged (a later ``sent_until``; the
        code of an answer that left the outcome unknown)."""
        return self._update(seqs, [], [], fields, urgent=urgent)

    def _update(
        self,
        seqs: Sequence[int],
        columns: list[str],
        values: list[Any],
        fields: dict[str, Any],
        *,
        urgent: bool,
    ) -> asyncio.Future[None]:
        allowed = {"after", "error_code", "request_id", "note", "skip", "record", "sent_until"}
        if not set(fields) <= allowed:
            raise ValueError(f"unknown item fields {sorted(set(fields) - allowed)}")
        columns, values = list(columns), list(values)
        for key, value in fields.items():
            columns.append(f"{key} = ?")
            values.append(json.dumps(value, ensure_ascii=False) if key == "record" else value)
        if not columns:
            raise ValueError("nothing to record")
        sql = f"UPDATE items SET {', '.join(columns)} WHERE seq = ?"  # noqa: S608
        rows = [(*values, seq) for seq in seqs]

        def write(conn: sqlite3.Connection) -> None:
            conn.executemany(sql, rows)

        return self._submit(write, urgent=urgent)


def list_jobs(folder: Path | None = None) -> list[Path]:
    """Every job file in ``folder`` (default: the jobs folder), newest first."""
    folder = folder or jobs_dir()
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"*{SUFFIX}"), reverse=True)
