"""Hostile input to a revert (#30): journal records rewritten by hand with values of the wrong
kind, and a revert's job file edited, end in skipped or failed lines, never a traceback."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from portal_admin import jobs
from portal_admin.client import before
from portal_admin.evidence import journal as journal_file
from portal_admin.jobs.revert import BAD_LINE, RevertSkip

from .conftest import Portal
from .test_revert import journaled

Make = Callable[..., Awaitable[Portal]]


async def test_records_of_the_wrong_shape_are_skipped(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=20)
    context = await portal.context()
    account = next(
        a
        for a in (await portal.client.accounts.query(status="ACTIVE", size=20)).items
        if a.biz_id != context.self_id
    )
    common = {"profile": "Sandbox", "server": "sandbox://built-in", "account": context.account}
    odd = [
        {"operation": "accounts.update", "targets": account.biz_id, "fields": {}},
        {
            "operation": "accounts.update",
            "targets": [account.biz_id],
            "fields": {"accountRemark": "x"},
            "before": {"accountRemark": {"nested": True}},
            "after": {"accountRemark": "x"},
            "outcome": "ok",
            "intent_seq": [1],
        },
        {
            "operation": "security.ip_whitelist_set",
            "targets": [],
            "fields": {"ips": ["192.0.2.1"]},
            "before": {"ips": "203.0.113.0/24"},
            "after": [],
            "outcome": "ok",
        },
        {"operation": "no.such_operation", "targets": [account.biz_id], "outcome": "ok"},
    ]
    for record in odd:
        journal.append({**common, **record})
    journal.flush()
    seqs = [r["seq"] for r in journal_file.read(path)]
    revert = await jobs.plan_records_revert(
        portal.client, seqs, context, journal_path=path, folder=tmp_path
    )
    lines = list(revert.items())
    assert revert.counts()["planned"] == 0
    assert {line.skip for line in lines} <= {RevertSkip.NO_BEFORE, RevertSkip.NOT_REVERSIBLE}
    assert any("not a value of accountRemark" in line.record.get("why", "") for line in lines)


async def test_an_edited_revert_job_file_fails_its_lines(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=20)
    client = portal.client
    context = await portal.context()
    first, second = [
        a
        for a in (await client.accounts.query(status="ACTIVE", size=20)).items
        if a.biz_id != context.self_id
    ][:2]
    for account in (first, second):
        await before.described(
            before.account_update(account, {"account_remark": "edited"}),
            client.accounts.update(account.biz_id, account_remark="edited"),
        )
    journal.flush()
    seqs = [r["seq"] for r in journal_file.read(path) if r["kind"] == "change"]
    revert = await jobs.plan_records_revert(
        client, seqs, context, journal_path=path, folder=tmp_path
    )
    assert revert.counts()["planned"] == 2
    edited = next(revert.items())
    record = {**edited.record, "before": {"a": "dict"}, "kind": "nothing"}
    with sqlite3.connect(revert.path) as conn:
        conn.execute("UPDATE items SET record = ? WHERE seq = ?", (json.dumps(record), edited.seq))
    progress = await jobs.Runner(client, revert).run()
    assert progress.state is jobs.JobState.FINISHED
    lines = {i.target_id: i for i in revert.items()}
    assert lines[edited.target_id].state is jobs.ItemState.FAILED
    assert lines[edited.target_id].error_code == BAD_LINE
    assert progress.counts["done"] == 1
