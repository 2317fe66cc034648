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

The generic part (schema rows compared with the expected ones, the integrity check, the
hardened connection with its time budget) is ``files/sqlite_data.py``, shared with job
files; this module names a campaign's schema and its metadata.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from portal_admin.files import sqlite_data
from portal_admin.files.sqlite_data import (
    STEPS,
    Budgeted,
    Row,
    expected_rows,
    harden,
    integrity,
    read_only,
    schema_rows,
    too_slow,
)
from portal_admin.files.sqlite_uri import sqlite_uri

from .schema import INDEXES, SCHEMA, UPGRADES

__all__ = [
    "STEPS", "Budgeted", "Row", "differences", "encoded",
    "expected", "foreign", "harden", "integrity", "read_only", "schema_rows",
    "too_slow", "uri",
]  # fmt: skip


def uri(path: Path, mode: str = "ro") -> str:
    """A SQLite URI for ``path`` (``files.sqlite_uri``: ``?``, ``#`` and ``%`` in a folder's
    name are part of the name)."""
    return sqlite_uri(path, mode)


@functools.cache
def expected(version: int) -> frozenset[Row]:
    """The ``sqlite_master`` rows (type, name, table, SQL) of a campaign file of schema
    ``version`` as this program writes it: SQLite's own rows of the schema built in memory."""
    return expected_rows(SCHEMA + INDEXES + "".join(UPGRADES[: version - 1]))


def foreign(rows: list[Row], versions: tuple[int, ...]) -> list[str]:
    """The objects of ``rows`` no campaign file of ``versions`` has (``sqlite_data.foreign``)."""
    return sqlite_data.foreign(rows, [r for v in versions for r in expected(v)])


def differences(rows: list[Row], version: int) -> tuple[list[str], list[str]]:
    """(missing tables or indexes, objects of ours defined otherwise) against ``version``."""
    return sqlite_data.differences(rows, expected(version))


def encoded(value: Any) -> str:
    """A meta value as stored (JSON)."""
    return json.dumps(value, ensure_ascii=False)
