"""The flags that guide a reviewer, computed from the snapshots in SQL, each with a reason.

| code | when |
|---|---|
| NEW | not in the earlier snapshot (or the earlier campaign's scope) |
| REACTIVATED | suspended, deactivated or rejected then, active now |
| ADMIN | a system-portal (administrator) account |
| STALE | not updated for N days before the scope was taken (a campaign setting) |
| EXPIRED | a pending invitation past its expiry |
| WRITE | a role holding write permissions |
| OWN | the reviewer's own account: they cannot decide it |
"""

from __future__ import annotations

import sqlite3

CODES = ("NEW", "REACTIVATED", "ADMIN", "STALE", "EXPIRED", "WRITE", "OWN")
#: Statuses an account is reactivated from.
INACTIVE = ("SUSPENDED", "DEACTIVATED", "REJECTED")
#: Permission codes that write end with this.
WRITE_SUFFIX = ":write"


def baseline_flags(conn: sqlite3.Connection, kind: str, when: str) -> None:
    """NEW and REACTIVATED against the attached ``b`` (a snapshot or a campaign)."""
    conn.execute(
        "CREATE TEMP TABLE base (kind TEXT, ref TEXT, status TEXT, PRIMARY KEY (kind, ref))"
    )
    if kind == "snapshot":
        conn.execute("INSERT OR IGNORE INTO base SELECT 'account', id, status FROM b.accounts")
        conn.execute("INSERT OR IGNORE INTO base SELECT 'role', id, type FROM b.roles")
        conn.execute(
            "INSERT OR IGNORE INTO base SELECT 'invitation', id, status FROM b.invitations"
        )
        where = "the earlier snapshot"
    else:
        conn.execute("INSERT OR IGNORE INTO base SELECT kind, ref, status FROM b.items")
        where = "the earlier campaign's scope"
    on = f" of {when[:10]}" if when else ""
    conn.execute(
        "INSERT INTO flags (item, code, reason) SELECT i.seq, 'NEW', ? FROM items AS i"
        " WHERE NOT EXISTS (SELECT 1 FROM base WHERE base.kind = i.kind AND base.ref = i.ref)",
        (f"not in {where}{on}",),
    )
    marks = ",".join("?" * len(INACTIVE))
    conn.execute(
        "INSERT INTO flags (item, code, reason) SELECT i.seq, 'REACTIVATED',"  # noqa: S608
        " base.status || ? || i.status || ' now'"
        " FROM items AS i JOIN base ON base.kind = 'account' AND base.ref = i.ref"
        f" WHERE i.kind = 'account' AND i.status = 'ACTIVE' AND base.status IN ({marks})",
        (f" in {where}{on}, ", *INACTIVE),
    )
    conn.execute("DROP TABLE temp.base")


def scope_flags(conn: sqlite3.Connection, *, at: str, stale_days: int, reviewer: str) -> None:
    """ADMIN, STALE, EXPIRED, WRITE and OWN from the items themselves; then each item's count.
    ``at``: when the scope was taken (ISO 8601)."""
    conn.execute(
        "INSERT INTO flags (item, code, reason) SELECT seq, 'ADMIN',"
        " 'a system-portal (administrator) account' FROM items"
        " WHERE kind = 'account' AND portal = 'SYSTEM'"
    )
    conn.execute(
        "INSERT INTO flags (item, code, reason) SELECT seq, 'STALE', 'not updated for '"
        " || CAST(julianday(?1) - julianday(updated) AS INTEGER) || ' days (since '"
        " || substr(updated, 1, 10) || ')' FROM items"
        " WHERE kind = 'account' AND updated IS NOT NULL"
        " AND julianday(?1) - julianday(updated) > ?2",
        (at, stale_days),
    )
    conn.execute(
        "INSERT INTO flags (item, code, reason) SELECT seq, 'EXPIRED', 'pending, expired on '"
        " || substr(json_extract(detail, '$.expires'), 1, 10) FROM items"
        " WHERE kind = 'invitation' AND json_extract(detail, '$.expires') IS NOT NULL"
        " AND julianday(json_extract(detail, '$.expires')) < julianday(?)",
        (at,),
    )
    conn.execute(
        "INSERT INTO flags (item, code, reason) SELECT i.seq, 'WRITE', 'holds write permissions: '"
        " || group_concat(p.value, ', ') FROM items AS i,"
        " json_each(json_extract(i.detail, '$.permissions')) AS p"
        " WHERE i.kind = 'role' AND p.value LIKE ? GROUP BY i.seq",
        (f"%{WRITE_SUFFIX}",),
    )
    own_flag(conn, reviewer)
    conn.execute(
        "UPDATE items SET flags = (SELECT count(*) FROM flags WHERE flags.item = items.seq)"
        " WHERE seq IN (SELECT item FROM flags)"
    )


def own_flag(conn: sqlite3.Connection, reviewer: str) -> None:
    """OWN on the account whose email is the reviewer's name (counts not updated)."""
    if reviewer.strip():
        conn.execute(
            "INSERT OR IGNORE INTO flags (item, code, reason) SELECT seq, 'OWN',"
            " 'the reviewer''s own account: another reviewer decides it' FROM items"
            " WHERE kind = 'account' AND lower(label) = lower(?)",
            (reviewer.strip(),),
        )


def is_own(label: str, kind: str, reviewer: str) -> bool:
    """True when an item is the reviewer's own account."""
    return kind == "account" and label.strip().casefold() == reviewer.strip().casefold()
