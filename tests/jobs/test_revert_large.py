"""A revert of a 10,000-target job, in-process (#30): planned from 20,000 journal records and
the accounts read page by page, then run; every target set back once."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from portal_admin import jobs
from portal_admin.evidence import journal as journal_file
from portal_admin.evidence.journal import Journal

from .conftest import Portal
from .test_revert import journaled

Make = Callable[..., Awaitable[Portal]]
TARGETS = 10_000


async def suspended_by_a_job(
    portal: Portal, journal: Journal, count: int, job_id: str
) -> list[str]:
    """``count`` active accounts suspended, journaled as bulk job ``job_id`` records them (an
    intent and an outcome each), without sending the requests (the sandbox's table is set)."""
    context = await portal.context()
    db = portal.app.state.sandbox.db
    ids = [
        row["biz_id"]
        for row in db.query("SELECT biz_id FROM accounts WHERE status = 'ACTIVE' ORDER BY biz_id")
        if row["biz_id"] != context.self_id
    ][:count]
    assert len(ids) == count
    db.executemany("UPDATE accounts SET status = 'SUSPENDED' WHERE biz_id = ?", [(i,) for i in ids])
    common: dict[str, Any] = {
        "profile": context.profile,
        "server": context.server,
        "account": context.account,
        "operation": "accounts.status",
        "fields": {"action": "SUSPEND"},
        "before": {"value": "ACTIVE"},
        "after": {"value": "SUSPENDED", "job": job_id},
    }
    for target in ids:
        journal.append({**common, "kind": "intent", "targets": [target]})
    journal.flush()
    intents = {
        r["targets"][0]: r["seq"] for r in journal_file.read(journal.path) if r["kind"] == "intent"
    }
    for target in ids:
        journal.append(
            {**common, "targets": [target], "outcome": "ok", "code": "2000",
             "intent_seq": intents[target]}
        )  # fmt: skip
    journal.flush()
    return ids


@pytest.mark.slow
async def test_a_10000_target_job_is_reverted(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    # No write rate limit: the sandbox's default (its 429s) would make the run wait minutes.
    portal, journal = await journaled(make_portal, path, seed_accounts=15_000, write_rate_limit=0)
    ids = await suspended_by_a_job(portal, journal, TARGETS, "big-job")
    context = await portal.context()
    started = time.perf_counter()
    revert = await jobs.plan_job_revert(
        portal.client, "big-job", context, journal_path=path, folder=tmp_path
    )
    planned_in = time.perf_counter() - started
    assert revert.counts()["planned"] == TARGETS
    started = time.perf_counter()
    progress = await jobs.Runner(portal.client, revert, concurrency=8).run()
    ran_in = time.perf_counter() - started
    assert progress.counts["done"] == TARGETS
    db = portal.app.state.sandbox.db
    marks = ",".join("?" * len(ids))
    sql = f"SELECT status, COUNT(*) AS n FROM accounts WHERE biz_id IN ({marks}) GROUP BY status"
    statuses = db.query(sql, ids)
    assert {(r["status"], r["n"]) for r in statuses} == {("ACTIVE", TARGETS)}
    print(f"revert of {TARGETS:,} targets: planned in {planned_in:.1f} s, run in {ran_in:.1f} s")
