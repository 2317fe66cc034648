"""One SQLite connection shared by the whole app, behind a lock."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .config import MEMORY

Params = Sequence[Any] | dict[str, Any]


class Database:
    """A thin wrapper over :mod:`sqlite3`: autocommit outside :meth:`transaction`."""

    def __init__(self, path: str = MEMORY) -> None:
        self.path = path
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._depth = 0
        if path != MEMORY:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            # Memory-mapped reads: row lookups by id (name search) skip a read() call each.
            self._conn.execute("PRAGMA mmap_size=268435456")
        self._conn.execute("PRAGMA foreign_keys=ON")

    def query(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Every row of a query."""
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row of a query, or None."""
        with self._lock:
            row: sqlite3.Row | None = self._conn.execute(sql, params).fetchone()
            return row

    def scalar(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row, or None."""
        row = self.one(sql, params)
        return None if row is None else row[0]

    def execute(self, sql: str, params: Params = ()) -> sqlite3.Cursor:
        """Run one statement (committed at once outside a transaction)."""
        with self._lock:
            return self._conn.execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for many parameter sets."""
        with self._lock:
            self._conn.executemany(sql, rows)

    def executescript(self, script: str) -> None:
        """Run DDL (several statements)."""
        with self._lock:
            self._conn.executescript(script)

    @contextmanager
    def transaction(self) -> Iterator[Database]:
        """All statements inside commit together or not at all; nesting joins the outer one."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self
                finally:
                    self._depth -= 1
                return
            self._conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")
            finally:
                self._depth = 0

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()
