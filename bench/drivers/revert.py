"""Planning the revert of a bulk job (``jobs.plan_job_revert``) against planning the same
status change fresh (``jobs.create_job``), against the sandbox served over loopback (a server
of its own, as a real one is) on a copy of a database seeded with N accounts.

The job: every active account suspended, written to the database before it is served, to
a journal as the runner journals it (an intent and an outcome each) and to its job file, so
only planning is timed. Fresh: the same change planned as a bulk job, activating every
suspended account (read page by page, each planned; the accounts suspended before are among
them); revert: the journal read and verified, the same pages of accounts read (ahead, while
the journal is read), each line planned. Rounds alternate. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from portal_admin import jobs
from portal_admin.evidence import journal as journal_file
from portal_admin.evidence.journal import Journal
from portal_admin.jobs.targets import all_accounts

from ..common import ADMIN, portal_client, served_sandbox, sign_in
from ..sandbox_cache import fresh_copy

JOB = "bench-job"


def suspend_active(db: Path) -> list[str]:
    """Every active account but the administrator suspended in the database file."""
    conn = sqlite3.connect(db)
    try:
        ids = [
            row[0]
            for row in conn.execute(
                "SELECT biz_id FROM accounts WHERE status = 'ACTIVE' AND email != ?", (ADMIN[0],)
            )
        ]
        with conn:
            conn.executemany(
                "UPDATE accounts SET status = 'SUSPENDED' WHERE biz_id = ?", [(i,) for i in ids]
            )
    finally:
        conn.close()
    return ids


def write_journal(path: Path, ids: list[str], context: jobs.JobContext) -> None:
    """The records the runner writes for a suspension of ``ids`` (an intent, then its
    outcome)."""
    common: dict[str, Any] = {
        "profile": context.profile,
        "server": context.server,
        "account": context.account,
        "operation": "accounts.status",
        "fields": {"action": "SUSPEND"},
        "before": {"value": "ACTIVE"},
        "after": {"value": "SUSPENDED", "job": JOB},
    }
    journal = Journal(path)
    for target in ids:
        journal.append({**common, "kind": "intent", "targets": [target]})
    journal.flush()
    intents = {r["targets"][0]: r["seq"] for r in journal_file.read(path)}
    for target in ids:
        journal.append(
            {**common, "targets": [target], "outcome": "ok", "intent_seq": intents[target]}
        )
    journal.flush()


def write_job_file(folder: Path, ids: list[str], context: jobs.JobContext) -> None:
    """The job's own file, as the run left it on this computer (its lines done)."""
    meta = {
        "id": JOB,
        "kind": "status",
        "params": {"action": "SUSPEND", "reason": None},
        "profile": context.profile,
        "server": context.server,
        "account": context.account,
        "environment": context.environment,
    }
    rows = [(i, i, {}, "ACTIVE", "SUSPENDED", None) for i in ids]
    jobs.JobFile.create(meta, rows, folder).close()


async def measure(url: str, ids: list[str], folder: Path, rounds: int) -> dict[str, Any]:
    async with portal_client(url) as client:
        await sign_in(client)
        me = await client.auth.profile()
        context = jobs.JobContext("Sandbox", url, me.account_email or "", me.biz_id, "sandbox")
        path = folder / "journal.jsonl"
        write_journal(path, ids, context)
        write_job_file(folder, ids, context)

        async def fresh() -> float:
            start = time.perf_counter()
            job = await jobs.create_job(
                client,
                jobs.ChangeStatus("ACTIVATE"),
                all_accounts(client, status="SUSPENDED"),
                context,
                folder=folder,
            )
            took = time.perf_counter() - start
            assert job.counts()["planned"] >= len(ids), job.counts()
            job.discard()
            return took

        async def revert() -> float:
            start = time.perf_counter()
            # The journal is written here without checkpoints or the runner's own Journal, so its
            # records are vouched for by nothing: accepted, as `--accept-unauthenticated` does
            # (the journal is still read and verified in full, which is what is timed).
            job = await jobs.plan_job_revert(
                client, JOB, context, journal_path=path, folder=folder, accept_unauthenticated=True
            )
            took = time.perf_counter() - start
            assert job.counts()["planned"] == len(ids), job.counts()
            job.discard()
            return took

        fresh_s: list[float] = []
        revert_s: list[float] = []
        for _ in range(rounds):  # alternating: a busy machine slows both alike
            fresh_s.append(await fresh())
            revert_s.append(await revert())
        records = sum(1 for _ in journal_file.read(path))
    return {
        "targets": len(ids),
        "records": records,
        "rounds": rounds,
        "fresh_s": fresh_s,
        "revert_s": revert_s,
        "fresh_median_s": statistics.median(fresh_s),
        "revert_median_s": statistics.median(revert_s),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--accounts", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-revert-") as tmp:
        folder = Path(tmp)
        db = fresh_copy(args.accounts, folder / "revert.sqlite3")
        ids = suspend_active(db)
        with served_sandbox("--db", str(db), "--test-clock") as url:
            result = asyncio.run(measure(url, ids, folder, args.rounds))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
