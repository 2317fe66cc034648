"""Opening a SQLite file someone else wrote as data, not as a database to obey (Qt-free).

SQLite obeys what a file says: its schema rows (a trigger fires on our writes whatever case
its type is spelled in), its indexes (the planner answers a query from an index that may
disagree with its table), its views, its statistics. A file the program did not just write
(a campaign, a job file) is therefore checked before any query of ours, through the
connection that is then used:

1. its ``sqlite_master`` rows compared with the rows SQLite makes of this program's own
   schema (built in memory, once: :func:`expected_rows`): an object of another name, a
   trigger or a view is :func:`foreign`; one of ours defined otherwise is in
   :func:`differences`;
2. ``PRAGMA integrity_check`` (:func:`integrity`);
3. every connection runs with ``trusted_schema=OFF``, SQLite's defensive mode where Python
   offers it (3.12+), and (:class:`Budgeted`) a time budget on every statement: a query the
   file makes endless ends as ``interrupted`` (:func:`too_slow`), never a hang.

A file attached to another connection (``ATTACH``) is checked there, by its schema name
(``schema_rows(conn, "s")``, ``integrity(conn, "s")``), inside the read transaction its rows
are then read in: what is checked is what is used.

The callers name what is refused (campaigns: ``reviews/opening.py``; snapshots:
``evidence/snapshot.py``; job files: ``jobs/store.py``).
"""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import json_input
from .sqlite_uri import sqlite_uri

#: Instructions of SQLite's virtual machine between two looks at the clock.
STEPS = 20_000

#: One ``sqlite_master`` row: type, name, table, SQL.
Row = tuple[str, str, str, str | None]
#: The most rows a meta table may have, and the longest value (characters).
MAX_META_ROWS = 1000
MAX_META_VALUE = 1 << 20


class Budgeted(sqlite3.Connection):
    """A connection whose every statement has a time budget: ``budget`` seconds from the
    ``execute`` that starts it (its rows included); past it SQLite stops the statement
    (``sqlite3.OperationalError: interrupted``, which :func:`too_slow` recognises)."""

    budget: float = 120.0
    deadline: float = float("inf")
    #: A time (``time.monotonic()``) no statement runs past, whatever its own budget.
    until: float = float("inf")

    def arm(self) -> None:
        """Start a statement's budget now."""
        self.deadline = min(time.monotonic() + self.budget, self.until)

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        self.arm()
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        self.arm()
        return super().executemany(sql, parameters)

    def executescript(self, script: str, /) -> sqlite3.Cursor:
        self.arm()
        return super().executescript(script)

    def _over(self) -> int:
        return 1 if time.monotonic() > self.deadline else 0


def too_slow(exc: BaseException) -> bool:
    """True when ``exc`` is a statement stopped by its time budget."""
    return isinstance(exc, sqlite3.OperationalError) and "interrupted" in str(exc)


def defend(conn: sqlite3.Connection) -> None:
    """The settings of any connection to a file someone else wrote, before any query of it:
    the file's schema calls no function with effects, a damaged page is an error."""
    if hasattr(conn, "setconfig") and hasattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE"):
        conn.setconfig(sqlite3.SQLITE_DBCONFIG_DEFENSIVE, True)  # Python 3.12+
    if hasattr(conn, "setconfig") and hasattr(sqlite3, "SQLITE_DBCONFIG_TRUSTED_SCHEMA"):
        conn.setconfig(sqlite3.SQLITE_DBCONFIG_TRUSTED_SCHEMA, False)
    conn.execute("PRAGMA trusted_schema=OFF")
    conn.execute("PRAGMA cell_size_check=ON")
    conn.execute("PRAGMA mmap_size=0")


def harden(conn: Budgeted, budget: float) -> None:
    """:func:`defend`, and a time budget of ``budget`` seconds on every statement."""
    conn.budget = budget
    conn.set_progress_handler(conn._over, STEPS)
    defend(conn)


def read_only(path: Path, budget: float) -> Budgeted:
    """A hardened read-only connection to ``path`` (autocommit; :func:`harden`)."""
    conn = sqlite3.connect(sqlite_uri(path, "ro"), uri=True, isolation_level=None, factory=Budgeted)
    assert isinstance(conn, Budgeted)
    harden(conn, budget)
    conn.execute("PRAGMA query_only=ON")
    return conn


def _schema(name: str) -> str:
    """``name`` as a schema qualifier; only this program's own names are accepted."""
    if not name.isidentifier():
        raise ValueError(f"not a schema name: {name!r}")
    return name


@functools.cache
def expected_rows(script: str) -> frozenset[Row]:
    """The ``sqlite_master`` rows of a file made by ``script`` (SQLite's own rows of the
    schema built in memory)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(script)
        return frozenset(
            (str(r[0]), str(r[1]), str(r[2]), r[3])
            for r in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
        )
    finally:
        conn.close()


def schema_rows(conn: sqlite3.Connection, schema: str = "main") -> list[Row]:
    """The ``sqlite_master`` rows of the file (or of the one attached as ``schema``), as the
    file has them."""
    sql = f"SELECT type, name, tbl_name, sql FROM {_schema(schema)}.sqlite_master"  # noqa: S608
    return [
        (str(r[0]), str(r[1]), str(r[2]), r[3] if r[3] is None else str(r[3]))
        for r in conn.execute(sql)
    ]


def foreign(rows: Iterable[Row], ours: Iterable[Row]) -> list[str]:
    """The objects of ``rows`` this program never writes, named (``trigger 'x'``): triggers
    and views whatever the case of their type, ``sqlite_stat*`` tables, any table or index
    of a name not in ``ours``."""
    names = {name.casefold() for _t, name, _tb, _s in ours}
    named = []
    for kind, name, _table, _sql in rows:
        if (
            kind.casefold() not in ("table", "index")
            or name.casefold() not in names
            or name.casefold().startswith("sqlite_stat")
        ):
            named.append(f"{kind} {name!r}")
    return sorted(named)


def differences(rows: Iterable[Row], want: Iterable[Row]) -> tuple[list[str], list[str]]:
    """(missing tables or indexes, objects of ours defined otherwise) against ``want``."""
    wanted = {r[1]: r for r in want}
    have = {r[1]: r for r in rows}
    missing = sorted(n for n in wanted if n not in have)
    other = sorted(n for n in wanted if n in have and have[n] != wanted[n])
    return missing, other


def integrity(conn: sqlite3.Connection, schema: str = "main") -> str | None:
    """None when ``PRAGMA integrity_check`` finds the file (or the one attached as ``schema``)
    sound, else its first findings."""
    rows = [str(r[0]) for r in conn.execute(f"PRAGMA {_schema(schema)}.integrity_check(5)")]
    return None if rows == ["ok"] else "; ".join(rows)[:300]


def read_meta(conn: sqlite3.Connection, name: str, schema: str = "main") -> dict[str, Any]:
    """A ``meta (key, value)`` table of JSON values as a dictionary; ``ValueError`` naming the
    entry that is not JSON, or a table too large to be one of ours (``name``: the file, for
    the message). Each value is read with a bounded depth (``files/json_input``)."""
    rows = conn.execute(
        f"SELECT key, value FROM {_schema(schema)}.meta LIMIT ?",  # noqa: S608
        (MAX_META_ROWS + 1,),
    ).fetchall()
    if len(rows) > MAX_META_ROWS:
        raise ValueError(f"{name}: its metadata has more than {MAX_META_ROWS} entries")
    found: dict[str, Any] = {}
    for key, value in rows:
        if not isinstance(key, str) or not isinstance(value, str):
            raise ValueError(f"{name}: a metadata entry is not text")
        if len(value) > MAX_META_VALUE:
            raise ValueError(f"{name}: the metadata entry {key!r} is too large")
        try:  # bounded depth: a value nested 100,000 deep is refused, not a RecursionError
            found[key] = json_input.loads(value, max_bytes=MAX_META_VALUE * 4)
        except ValueError as exc:
            raise ValueError(f"{name}: the metadata entry {key!r} is not JSON ({exc})") from None
    return found
