"""Snapshot files written directly (no server), for the campaign tests."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from portal_admin.evidence.snapshot import KIND, SCHEMA, SCHEMA_VERSION

#: The server the snapshots name (what a remediation must be signed in to).
SERVER = "https://portal.example.test"
WHEN = "2026-11-20T10:00:00+00:00"


def account(
    n: int,
    status: str = "ACTIVE",
    portal: str = "TENANT",
    institution: str = "INS1",
    updated: str = "2026-11-01T00:00:00+00:00",
    email: str | None = None,
) -> tuple[Any, ...]:
    """One snapshot accounts row."""
    return (
        f"ACC{n:06d}", email or f"user{n}@example.test", f"User {n}", status, portal,
        institution, "en", "UTC", "GB", "", "2025-01-01T00:00:00+00:00", updated,
    )  # fmt: skip


def make_snapshot(
    path: Path,
    accounts: Iterable[Sequence[Any]],
    roles: Iterable[Sequence[Any]] = (),
    invitations: Iterable[Sequence[Any]] = (),
    finished: str = WHEN,
) -> Path:
    """A complete snapshot file of these rows."""
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.executemany("INSERT INTO accounts VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", accounts)
    conn.executemany("INSERT INTO roles VALUES (?,?,?,?,?,?)", roles)
    conn.executemany("INSERT INTO invitations VALUES (?,?,?,?,?,?,?)", invitations)
    counts = {
        t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
        for t in ("accounts", "roles", "invitations")
    }
    meta = {
        "kind": KIND, "schema": SCHEMA_VERSION, "server": SERVER,
        "account": "admin@example.test", "started": finished, "finished": finished,
        "counts": counts, "complete": True,
    }  # fmt: skip
    conn.executemany(
        "INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()]
    )
    conn.commit()
    conn.close()
    return path


ROLES = [
    (
        "ROL1",
        "Owner",
        "OWNER",
        "all",
        json.dumps(["workspace:user:read", "workspace:user:write"]),
        2,
    ),
    ("ROL2", "Auditor", "CUSTOM", "reads", json.dumps(["workspace:user:read"]), 1),
]
INVITATIONS = [
    ("INV1", "new@example.test", "PENDING", "WSP1", "Admin", "2026-11-01T00:00:00+00:00",
     "2026-11-08T00:00:00+00:00"),
    ("INV2", "later@example.test", "PENDING", "WSP1", "Admin", "2026-11-19T00:00:00+00:00",
     "2026-11-26T00:00:00+00:00"),
    ("INV3", "done@example.test", "ACCEPTED", "WSP1", "Admin", "2026-10-01T00:00:00+00:00",
     "2026-10-08T00:00:00+00:00"),
]  # fmt: skip
