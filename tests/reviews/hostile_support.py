"""A signed campaign file built through the engine's public API (no server), for the attacks
(moved from tests/redteam/campaign_support.py with the attacks fixed)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from portal_admin.evidence.snapshot import KIND, SCHEMA, SCHEMA_VERSION

REVIEWER = "rev@example.test"
KEPT, REVOKED = "account:ACC000001", "account:ACC000002"
WHEN = "2026-11-20T10:00:00+00:00"


def _account(n: int, status: str = "ACTIVE", portal: str = "TENANT") -> tuple[Any, ...]:
    return (
        f"ACC{n:06d}", f"user{n}@example.test", f"User {n}", status, portal, "INS1", "en",
        "UTC", "GB", "", "2025-01-01T00:00:00+00:00", "2026-11-01T00:00:00+00:00",
    )  # fmt: skip


def snapshot(path: Path) -> Path:
    """A complete snapshot of four active accounts: 1 to 3 of the TENANT portal, 4 PARTNER."""
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.executemany(
        "INSERT INTO accounts VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        [*(_account(n) for n in (1, 2, 3)), _account(4, portal="PARTNER")],
    )
    meta = {
        "kind": KIND, "schema": SCHEMA_VERSION, "server": "https://portal.example.test",
        "account": "admin@example.test", "started": WHEN, "finished": WHEN,
        "counts": {"accounts": 4, "roles": 0, "invitations": 0}, "complete": True,
    }  # fmt: skip
    rows = [(k, json.dumps(v)) for k, v in meta.items()]
    conn.executemany("INSERT INTO meta VALUES (?, ?)", rows)
    conn.commit()
    conn.close()
    return path


def signed_campaign(folder: Path, store: Any = None) -> tuple[Path, Any]:
    """(path, reviewer) of a campaign with a Keep and a Revoke signed off by the reviewer
    (whose key is in ``store``, a new ``keys.MemoryStore`` by default)."""
    from portal_admin.evidence import keys
    from portal_admin.reviews import decide, reviewer_of, sign

    store = store if store is not None else keys.MemoryStore()
    reviewer = reviewer_of(REVIEWER, store)
    campaign = new_campaign(folder)
    decide(campaign, KEPT, "Keep", "", reviewer)
    decide(campaign, REVOKED, "Revoke", "left", reviewer)
    sign(campaign, reviewer.name, keys.signing_key(store))
    path = campaign.path
    campaign.close()
    return path, reviewer


def new_campaign(folder: Path, reviewer: str = REVIEWER) -> Any:
    """A new campaign (open) over :func:`snapshot`, nothing decided."""
    from portal_admin.reviews import Settings, create_campaign

    return create_campaign(
        folder / "q4.review", snapshot(folder / "scope.sqlite3"),
        Settings("Q4 review", "2026-12-15", reviewer=reviewer),
    )  # fmt: skip


def raw(path: Path, *statements: str, schema: bool = False) -> None:
    """Statements run by plain SQLite on the file, as a colleague could."""
    for sql in statements:
        conn = sqlite3.connect(path, isolation_level=None)
        if schema:
            conn.execute("PRAGMA writable_schema=ON")
        conn.executescript(sql)
        conn.close()
