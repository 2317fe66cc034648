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

The callers name what is refused (campaigns: ``reviews/opening.py``; job files:
``jobs/store.py``).
"""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import Iterable
from typing import Any

#: Instructions of SQLite's virtual machine between two looks at the clock.
STEPS = 20_000

#: One ``sqlite_master`` row: type, name, table, SQL.
Row = tuple[str, str, str, str | None]


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


def schema_rows(conn: sqlite3.Connection) -> list[Row]:
    """The file's ``sqlite_master`` rows, as the file has them."""
    return [
        (str(r[0]), str(r[1]), str(r[2]), r[3] if r[3] is None else str(r[3]))
        for r in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
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


def integrity(conn: sqlite3.Connection) -> str | None:
    """None when ``PRAGMA integrity_check`` finds the file sound, else its first finding."""
    rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(5)")]
    return None if rows == ["ok"] else "; ".join(rows)[:300]
