"""What changed between two snapshots: one row per change, with counts per kind.

Accounts are compared in SQL (the two files attached to one connection), so 100,000 accounts
cost no Python dictionaries; the small tables (roles, invitations, whitelist, MFA, channels) the
same way. Each row: kind, id, label, field, before, after.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from portal_admin.files import sqlite_data
from portal_admin.files.atomic import atomic_open
from portal_admin.files.csv_rules import DELIMITERS, ENCODING, write_rows
from portal_admin.files.portable import sqlite_connect, sqlite_uri

from .snapshot import STATEMENT_BUDGET, Snapshot, check_attached, open_snapshot

#: Compared columns of each table: (table, kind, label column, fields).
TABLES = (
    (
        "accounts",
        "account",
        "email",
        (
            "email",
            "name",
            "status",
            "portal",
            "institution",
            "language",
            "timezone",
            "country",
            "remark",
        ),
    ),
    ("roles", "role", "name", ("name", "type", "description", "permissions", "member_count")),
    ("invitations", "invitation", "email", ("email", "status", "expires")),
    ("channel_types", "channel type", "code", ("code", "name", "status", "enabled")),
    ("channels", "channel", "name", ("name", "category", "status", "active", "is_default")),
    ("mfa", "mfa", "method", ("enabled", "is_primary", "verified")),
)
KEYS = {"mfa": "method", "whitelist": "entry"}
HEADER = ("kind", "change", "id", "label", "field", "before", "after")


@dataclass(frozen=True, slots=True)
class Change:
    """One difference."""

    kind: str  # account, role, invitation, whitelist, mfa, channel, channel type, setting
    change: str  # added, removed, changed
    id: str
    label: str
    field: str = ""
    before: str = ""
    after: str = ""


@dataclass
class SnapshotDiff:
    """Every change from ``old`` to ``new``."""

    old: Snapshot
    new: Snapshot
    changes: list[Change] = field(default_factory=list)

    def counts(self) -> Counter[tuple[str, str]]:
        """Changes per (kind, change)."""
        return Counter((c.kind, c.change) for c in self.changes)

    def filtered(self, kind: str | None = None, text: str | None = None) -> Iterator[Change]:
        """The changes of ``kind`` whose id, label or values contain ``text``."""
        needle = (text or "").casefold()
        for c in self.changes:
            if kind and c.kind != kind:
                continue
            if needle and not any(
                needle in v.casefold() for v in (c.id, c.label, c.before, c.after, c.field)
            ):
                continue
            yield c

    def table(self) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
        """The changes with their codes, then field, before and after as a person reads them
        (the snapshots' labels, else the code in words): one table for the CSV and the pack."""
        from .value_labels import LABEL_HEADER, change_labels, snapshot_labels

        old, new = snapshot_labels(self.old), snapshot_labels(self.new)
        rows: list[tuple[str, ...]] = [
            (
                c.kind,
                c.change,
                c.id,
                c.label,
                c.field,
                c.before,
                c.after,
                *change_labels(c, old, new),
            )
            for c in self.changes
        ]
        return (*HEADER, *LABEL_HEADER), rows

    def write_csv(self, path: Path, delimiter: str = "comma") -> int:
        """The changes as CSV (the program's CSV rules), codes and labels."""
        header, rows = self.table()
        with atomic_open(path, encoding=ENCODING, newline="") as fh:
            return write_rows(fh, [header, *rows], DELIMITERS[delimiter]) - 1


def _text(value: object) -> str:
    return "" if value is None else str(value)


def diff_snapshots(old_path: Path, new_path: Path) -> SnapshotDiff:
    """Compare two snapshot files (each opened with ``open_snapshot``, then checked as data
    where it is attached, in the read transaction the comparison runs in)."""
    old, new = open_snapshot(old_path), open_snapshot(new_path)
    result = SnapshotDiff(old, new)
    # attaches by URI; hardened, with a time budget on every statement (sqlite_data)
    conn = sqlite_connect(":memory:", isolation_level=None, factory=sqlite_data.Budgeted)
    assert isinstance(conn, sqlite_data.Budgeted)
    try:
        sqlite_data.harden(conn, STATEMENT_BUDGET)
        conn.execute("ATTACH DATABASE ? AS o", (sqlite_uri(old.path),))
        conn.execute("ATTACH DATABASE ? AS n", (sqlite_uri(new.path),))
        conn.execute("BEGIN")
        check_attached(conn, "o", old)
        check_attached(conn, "n", new)
        for table, kind, label, fields in TABLES:
            key = KEYS.get(table, "id")
            _rows(conn, result, table, kind, key, label, fields)
        for change, a, b in (("added", "n", "o"), ("removed", "o", "n")):
            sql = f"SELECT entry FROM {a}.whitelist WHERE entry NOT IN (SELECT entry FROM {b}.whitelist) ORDER BY entry"  # noqa: E501, S608
            for (entry,) in conn.execute(sql):
                result.changes.append(Change("whitelist", change, entry, entry))
    finally:
        conn.close()
    for name in ("whitelist_enabled", "backup_codes", "session_config"):
        before, after = old.meta.get(name), new.meta.get(name)
        if before != after:
            result.changes.append(
                Change("setting", "changed", name, name, name, _text(before), _text(after))
            )
    return result


def _rows(
    conn: sqlite3.Connection,
    result: SnapshotDiff,
    table: str,
    kind: str,
    key: str,
    label: str,
    fields: tuple[str, ...],
) -> None:
    """Added, removed and changed rows of one table."""
    for change, a, b in (("added", "n", "o"), ("removed", "o", "n")):
        sql = (
            f"SELECT {key}, {label} FROM {a}.{table} WHERE {key} NOT IN "  # noqa: S608
            f"(SELECT {key} FROM {b}.{table}) ORDER BY {key}"
        )
        for row_id, row_label in conn.execute(sql):
            result.changes.append(Change(kind, change, _text(row_id), _text(row_label)))
    differs = " OR ".join(f"o.{f} IS NOT n.{f}" for f in fields)
    columns = ", ".join(f"o.{f}, n.{f}" for f in fields)
    sql = (
        f"SELECT o.{key}, n.{label}, {columns} FROM o.{table} AS o "  # noqa: S608
        f"JOIN n.{table} AS n ON n.{key} = o.{key} WHERE {differs} ORDER BY o.{key}"
    )
    for row in conn.execute(sql):
        row_id, row_label, values = row[0], row[1], row[2:]
        for i, name in enumerate(fields):
            before, after = values[2 * i], values[2 * i + 1]
            if before != after:
                result.changes.append(
                    Change(
                        kind,
                        "changed",
                        _text(row_id),
                        _text(row_label),
                        name,
                        _text(before),
                        _text(after),
                    )
                )
