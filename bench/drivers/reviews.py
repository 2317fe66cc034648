"""Driver of the access-review benchmark (a subprocess of ``bench.bench_reviews``).

Writes two snapshot files of ``--accounts`` accounts directly (the snapshot schema, rows made
in SQL: a scope, and a closing snapshot where one account in 20 was suspended, one in 50
renamed and one in 100 added). Times, alternately and as medians:

- creating a campaign from the scope (``reviews.create_campaign``: items, flags, indexes,
  fsync and rename) against reading the scope's accounts table into Python (``SELECT *``,
  every row fetched);
- the closing check (``reviews.closing.check``; a campaign where one item in ten is Revoke
  and the rest Keep) against ``evidence.diff.diff_snapshots`` of the same two snapshots;
- the desktop's keyboard decision: ``reviews.decide`` of one item in the queue (one
  transaction, fsynced), and of a page of 200 items.

Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from portal_admin.evidence import keys
from portal_admin.evidence.diff import diff_snapshots
from portal_admin.evidence.snapshot import KIND, SCHEMA, SCHEMA_VERSION
from portal_admin.reviews import Settings, closing, create_campaign, decide, reviewer_of
from portal_admin.reviews.campaign import Campaign

from ..harness import interleaved


def write_snapshot(path: Path, accounts: int, *, closing_state: bool) -> Path:
    """A complete snapshot file of ``accounts`` generated accounts (or the closing state)."""
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    total = accounts + (accounts // 100 if closing_state else 0)
    conn.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
        " INSERT INTO accounts SELECT printf('ACC%08d', i), printf('user%d@example.test', i),"
        " CASE WHEN ? AND i % 50 = 0 THEN printf('Renamed %d', i) ELSE printf('User %d', i) END,"
        " CASE WHEN ? AND i % 20 = 0 THEN 'SUSPENDED' WHEN i % 37 = 0 THEN 'DEACTIVATED'"
        " ELSE 'ACTIVE' END,"
        " CASE WHEN i % 25 = 0 THEN 'SYSTEM' ELSE 'TENANT' END, printf('INS%03d', i % 40),"
        " 'en', 'UTC', 'GB', '', '2025-01-01T00:00:00+00:00',"
        " printf('2026-%02d-15T10:00:00+00:00', 1 + i % 11) FROM n",
        (total, closing_state, closing_state),
    )
    roles = [
        (f"ROL{i}", f"Role {i}", "CUSTOM", "", json.dumps(["workspace:user:read"]), 3)
        for i in range(20)
    ]
    conn.executemany("INSERT INTO roles VALUES (?,?,?,?,?,?)", roles)
    meta = {
        "kind": KIND, "schema": SCHEMA_VERSION, "server": "https://bench.example.test",
        "started": "2026-11-20T10:00:00+00:00", "finished": "2026-11-20T10:00:00+00:00",
        "counts": {"accounts": total, "roles": len(roles)}, "complete": True,
    }  # fmt: skip
    conn.executemany(
        "INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()]
    )
    conn.commit()
    conn.close()
    return path


def read_accounts(path: Path) -> int:
    """The baseline of creation: every row of the snapshot's accounts table, in Python."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return len(conn.execute("SELECT * FROM accounts").fetchall())
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--accounts", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    result: dict[str, Any] = {"accounts": args.accounts, "rounds": args.rounds}
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-reviews-") as tmp:
        folder = Path(tmp)
        scope = write_snapshot(folder / "scope.sqlite3", args.accounts, closing_state=False)
        end = write_snapshot(folder / "closing.sqlite3", args.accounts, closing_state=True)
        made: list[Path] = []

        def create() -> None:
            path = folder / f"c{len(made)}.review"
            create_campaign(path, scope, Settings("bench", "2026-12-31")).close()
            made.append(path)

        read_accounts(scope)  # warm: the file in the page cache
        result["create_s"], result["read_s"] = interleaved(
            create, lambda: read_accounts(scope), args.rounds
        )
        campaign = Campaign.open(made[0])
        result["items"] = campaign.count()
        reviewer = reviewer_of("bench@example.test", keys.MemoryStore())
        conn = campaign.conn
        with campaign.transaction():  # the decisions of a finished review, set directly
            conn.execute(
                "INSERT INTO decisions (item, decision, justification, reviewer, fingerprint,"
                " decided_at, source) SELECT id, CASE WHEN seq % 10 = 0 THEN 'REVOKE'"
                " ELSE 'KEEP' END, 'bench', ?, ?, '2026-11-21T00:00:00+00:00', 'bench'"
                " FROM items ORDER BY seq",
                (reviewer.name, reviewer.fingerprint),
            )
            conn.execute(
                "UPDATE items SET decision_seq = (SELECT seq FROM decisions WHERE item = items.id),"
                " decision = (SELECT decision FROM decisions WHERE item = items.id)"
            )
        result["check_s"], result["diff_s"] = interleaved(
            lambda: closing.check(campaign, end), lambda: diff_snapshots(scope, end), args.rounds
        )
        result["closing"] = closing.check(campaign, end)
        ids = [i.id for i in campaign.page(limit=2000, after=campaign.count() // 2)]
        one: list[float] = []
        many: list[float] = []
        for n in range(max(args.rounds * 5, 10)):
            start = time.perf_counter()
            decide(campaign, ids[n], "Revoke" if n % 2 else "Don't know", f"reason {n}", reviewer)
            one.append(time.perf_counter() - start)
            page = ids[200 * (n % 9) : 200 * (n % 9) + 200]
            start = time.perf_counter()
            decide(campaign, page, "Revoke", f"page {n}", reviewer)
            many.append(time.perf_counter() - start)
        result["decide_one_s"] = statistics.median(one)
        result["decide_page_s"] = statistics.median(many)
        campaign.close()
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
