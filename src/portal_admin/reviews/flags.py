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

Each flag's reason is kept in the file as an English sentence (the command line prints it);
:func:`reason_of` reads it back as a reason code (:data:`REASONS`) and its parameters, so the
desktop words it in the reader's language from codes, never from the English.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

CODES = ("NEW", "REACTIVATED", "ADMIN", "STALE", "EXPIRED", "WRITE", "OWN")
#: Why an item is flagged, with the parameters of each: NEW_SNAPSHOT and NEW_CAMPAIGN (the
#: earlier file's date, empty when unknown), REACTIVATED_SNAPSHOT and REACTIVATED_CAMPAIGN
#: (the status then, the earlier file's date, the status now), ADMIN (), STALE (days, the
#: date of the last update), EXPIRED (the expiry date), WRITE (the write permissions, comma
#: separated), OWN ().
REASONS = (
    "NEW_SNAPSHOT", "NEW_CAMPAIGN", "REACTIVATED_SNAPSHOT", "REACTIVATED_CAMPAIGN", "ADMIN",
    "STALE", "EXPIRED", "WRITE", "OWN",
)  # fmt: skip
#: Statuses an account is reactivated from.
INACTIVE = ("SUSPENDED", "DEACTIVATED", "REJECTED")
#: Permission codes that write end with this.
WRITE_SUFFIX = ":write"


_EARLIER = {"SNAPSHOT": "the earlier snapshot", "CAMPAIGN": "the earlier campaign's scope"}
_ADMIN = "a system-portal (administrator) account"
_OWN = "the reviewer's own account: another reviewer decides it"
#: The sentences this module writes, read back: (flag code, reason code, pattern).
_WRITTEN = (
    *(("NEW", f"NEW_{k}", rf"not in {re.escape(w)}(?: of ([\d-]+))?") for k, w in _EARLIER.items()),
    *(
        (
            "REACTIVATED",
            f"REACTIVATED_{k}",
            rf"([A-Z_]+) in {re.escape(w)}(?: of ([\d-]+))?, ([A-Z_]+) now",
        )
        for k, w in _EARLIER.items()
    ),
    ("ADMIN", "ADMIN", re.escape(_ADMIN)),
    ("STALE", "STALE", r"not updated for (\d+) days \(since ([\d-]+)\)"),
    ("EXPIRED", "EXPIRED", r"pending, expired on ([\d-]+)"),
    ("WRITE", "WRITE", r"holds write permissions: (.+)"),
    ("OWN", "OWN", re.escape(_OWN)),
)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an item is flagged: one of :data:`REASONS` and its parameters."""

    code: str
    params: tuple[str, ...] = ()


def reason_of(code: str, text: str) -> Reason | None:
    """The reason of flag ``code`` worded ``text``, as this module writes it (None: a
    sentence it never writes, a file's own: shown as written)."""
    for flag, reason, pattern in _WRITTEN:
        found = re.fullmatch(pattern, text) if flag == code else None
        if found:
            return Reason(reason, tuple(g or "" for g in found.groups()))
    return None


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
        where = _EARLIER["SNAPSHOT"]
    else:
        conn.execute("INSERT OR IGNORE INTO base SELECT kind, ref, status FROM b.items")
        where = _EARLIER["CAMPAIGN"]
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
        "INSERT INTO flags (item, code, reason) SELECT seq, 'ADMIN', ? FROM items"
        " WHERE kind = 'account' AND portal = 'SYSTEM'",
        (_ADMIN,),
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
            "INSERT OR IGNORE INTO flags (item, code, reason) SELECT seq, 'OWN', ? FROM items"
            " WHERE kind = 'account' AND lower(label) = lower(?)",
            (_OWN, reviewer.strip()),
        )


def is_own(label: str, kind: str, reviewer: str) -> bool:
    """True when an item is the reviewer's own account."""
    return kind == "account" and label.strip().casefold() == reviewer.strip().casefold()
