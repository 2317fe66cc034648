"""Opening a campaign file as data, not as a database to obey.

A received campaign file is a SQLite database someone else wrote, and SQLite obeys what the
file says: its schema rows (a trigger fires on our writes whatever case its type is spelled
in), its indexes (the planner answers a query from an index that may disagree with its
table), its views, its statistics. So before any query of ours the file is checked:

1. the schema is exactly the one this program writes: every ``sqlite_master`` row is compared
   with the rows SQLite makes of this program's own schema (built in memory, once); a
   trigger, a view, a ``sqlite_stat*`` table or any other extra object is refused by name
   (FOREIGN_SQL), a table or index of ours defined otherwise, or missing, is SCHEMA;
2. ``PRAGMA integrity_check``: every index agrees with its table, every page is sound
   (DAMAGED otherwise);
3. every connection runs with ``trusted_schema=OFF``, SQLite's defensive mode where Python
   offers it (3.12+), and a time budget on every statement (a progress handler: a query the
   file makes endless ends as TOO_SLOW, never a hang).

The checks read through a read-only connection first: a file that is not a campaign is left
exactly as it was.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from portal_admin.files.sqlite_uri import sqlite_uri

from .schema import INDEXES, SCHEMA, UPGRADES

#: Instructions of SQLite's virtual machine between two looks at the clock.
STEPS = 20_000
#: The most rows the meta table may have, and the longest value (characters).
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


def harden(conn: Budgeted, budget: float) -> None:
    """The settings every campaign connection has, before any query of the file."""
    conn.budget = budget
    conn.set_progress_handler(conn._over, STEPS)
    if hasattr(conn, "setconfig") and hasattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE"):
        conn.setconfig(sqlite3.SQLITE_DBCONFIG_DEFENSIVE, True)  # Python 3.12+
    if hasattr(conn, "setconfig") and hasattr(sqlite3, "SQLITE_DBCONFIG_TRUSTED_SCHEMA"):
        conn.setconfig(sqlite3.SQLITE_DBCONFIG_TRUSTED_SCHEMA, False)
    conn.execute("PRAGMA trusted_schema=OFF")  # the file's schema calls no function with effects
    conn.execute("PRAGMA cell_size_check=ON")  # a damaged page is an error, not a misreading
    conn.execute("PRAGMA mmap_size=0")


def uri(path: Path, mode: str = "ro") -> str:
    """A SQLite URI for ``path`` (``files.sqlite_uri``: ``?``, ``#`` and ``%`` in a folder's
    name are part of the name)."""
    return sqlite_uri(path, mode)


def read_only(path: Path, budget: float) -> Budgeted:
    """A hardened read-only connection (autocommit)."""
    conn = sqlite3.connect(uri(path), uri=True, isolation_level=None, factory=Budgeted)
    assert isinstance(conn, Budgeted)
    harden(conn, budget)
    conn.execute("PRAGMA query_only=ON")
    return conn


Row = tuple[str, str, str, str | None]


@functools.cache
def expected(version: int) -> frozenset[Row]:
    """The ``sqlite_master`` rows (type, name, table, SQL) of a campaign file of schema
    ``version`` as this program writes it: SQLite's own rows of the schema built in memory."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA + INDEXES + "".join(UPGRADES[: version - 1]))
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


def foreign(rows: list[Row], versions: tuple[int, ...]) -> list[str]:
    """The objects of ``rows`` this program never writes, named (``trigger 'x'``): triggers
    and views whatever the case of their type, ``sqlite_stat*`` tables, any table or index
    of another name."""
    ours = {name.casefold() for v in versions for _t, name, _tb, _s in expected(v)}
    named = []
    for kind, name, _table, _sql in rows:
        if (
            kind.casefold() not in ("table", "index")
            or name.casefold() not in ours
            or name.casefold().startswith("sqlite_stat")
        ):
            named.append(f"{kind} {name!r}")
    return sorted(named)


def differences(rows: list[Row], version: int) -> tuple[list[str], list[str]]:
    """(missing tables or indexes, objects of ours defined otherwise) against ``version``."""
    want = {r[1]: r for r in expected(version)}
    have = {r[1]: r for r in rows}
    missing = sorted(n for n in want if n not in have)
    other = sorted(n for n in want if n in have and have[n] != want[n])
    return missing, other


def read_meta_rows(conn: sqlite3.Connection, name: str) -> dict[str, Any]:
    """The meta table as a dictionary of JSON values; ``ValueError`` naming the key of a value
    that is not JSON, or a table too large to be ours."""
    rows = conn.execute("SELECT key, value FROM meta LIMIT ?", (MAX_META_ROWS + 1,)).fetchall()
    if len(rows) > MAX_META_ROWS:
        raise ValueError(f"{name}: its metadata has more than {MAX_META_ROWS} entries")
    found: dict[str, Any] = {}
    for key, value in rows:
        if not isinstance(key, str) or not isinstance(value, str):
            raise ValueError(f"{name}: a metadata entry is not text")
        if len(value) > MAX_META_VALUE:
            raise ValueError(f"{name}: the metadata entry {key!r} is too large")
        try:
            found[key] = json.loads(value)
        except ValueError:
            raise ValueError(f"{name}: the metadata entry {key!r} is not JSON") from None
    return found


def integrity(conn: sqlite3.Connection) -> str | None:
    """None when ``PRAGMA integrity_check`` finds the file sound, else its first finding."""
    rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(5)")]
    return None if rows == ["ok"] else "; ".join(rows)[:300]


def encoded(value: Any) -> str:
    """A meta value as stored (JSON)."""
    return json.dumps(value, ensure_ascii=False)
