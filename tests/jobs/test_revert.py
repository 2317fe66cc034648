"""Undo (issue 30): a revert is planned from the journal and run as a bulk job, in-process."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from portal_admin import jobs
from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.client.errors import ReadOnlyError
from portal_admin.evidence import journal as journal_file
from portal_admin.evidence.journal import Journal
from portal_admin.evidence.recorder import attach
from portal_admin.jobs import revert as revert_module
from portal_admin.jobs.revert import RevertSkip
from portal_admin.jobs.targets import all_accounts
from support.portal import FAST_RETRY, sign_in

from .conftest import Portal

Make = Callable[..., Awaitable[Portal]]


async def journaled(make_portal: Make, path: Path, **config: Any) -> tuple[Portal, Journal]:
    """A portal whose changes go to the journal at ``path``."""
    portal = await make_portal(**config)
    journal = Journal(path)
    attach(portal.client, profile="Sandbox", server="sandbox://built-in", journal=journal)
    return portal, journal


async def run(portal: Portal, job: jobs.JobFile) -> jobs.Progress:
    progress = await jobs.Runner(portal.client, job, concurrency=4).run()
    return progress


async def suspend_some(portal: Portal, folder: Path, count: int) -> jobs.JobFile:
    """Suspend ``count`` active accounts as a bulk job, run to its end."""
    context = await portal.context()
    active = [t async for t in all_accounts(portal.client, status="ACTIVE")]
    chosen = [t for t in active if t.id != context.self_id][:count]
    job = await jobs.create_job(
        portal.client, jobs.ChangeStatus("SUSPEND"), chosen, context, folder=folder
    )
    progress = await run(portal, job)
    assert progress.counts["done"] == count
    return job


@contextlib.asynccontextmanager
async def second_client(portal: Portal) -> AsyncIterator[PortalClient]:
    """Another signed-in client of the same sandbox."""
    client = PortalClient(
        "http://sandbox.local",
        ClientOptions(access_code="SANDBOX", client_hash="other", retry=FAST_RETRY),
        transport=httpx.ASGITransport(app=portal.app),
        token_store=MemoryTokenStore(),
    )
    try:
        await sign_in(client)
        yield client
    finally:
        await client.aclose()


async def statuses(portal: Portal, ids: list[str]) -> dict[str, str]:
    found = {}
    for each in ids:
        account = await portal.client.accounts.get(each)
        found[each] = account.account_status.code if account.account_status else ""
    return found


async def test_a_job_reverted_sets_every_target_back(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path)
    job = await suspend_some(portal, tmp_path, 6)
    ids = [i.target_id for i in job.items()]
    journal.flush()
    context = await portal.context()
    revert = await jobs.plan_job_revert(
        portal.client, job.id, context, journal_path=path, folder=tmp_path
    )
    assert revert.counts()["planned"] == 6
    assert {i.current for i in revert.items()} == {"SUSPENDED"}
    assert {i.new for i in revert.items()} == {"ACTIVE"}
    done = await run(portal, revert)
    assert done.counts["done"] == 6
    assert set((await statuses(portal, ids)).values()) == {"ACTIVE"}
    journal.flush()
    records = [
        r
        for r in journal_file.read(path)
        if r["kind"] == "change" and r["after"].get("job") == revert.id
    ]
    assert len(records) == 6
    assert all(
        r["operation"] == "accounts.status" and r["fields"]["action"] == "ACTIVATE" for r in records
    )
    assert all(r["before"] == {"status": "SUSPENDED"} for r in records)
    assert all(r["after"]["status"] == "ACTIVE" and r["after"]["reverts"] for r in records)

    # A revert of the revert suspends them again.
    again = await jobs.plan_job_revert(
        portal.client, revert.id, context, journal_path=path, folder=tmp_path
    )
    assert again.counts()["planned"] == 6
    assert (await run(portal, again)).counts["done"] == 6
    assert set((await statuses(portal, ids)).values()) == {"SUSPENDED"}


async def test_changed_since_and_already_back_are_skipped(
    make_portal: Make, tmp_path: Path
) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path)
    job = await suspend_some(portal, tmp_path, 3)
    first, second, third = [i.target_id for i in job.items()]
    journal.flush()
    # A second client (another administrator, no journal here) changes two of them.
    async with second_client(portal) as other:
        await other.accounts.change_status(first, "DEACTIVATE")
        await other.accounts.change_status(second, "ACTIVATE")
    revert = await jobs.plan_job_revert(
        portal.client, job.id, await portal.context(), journal_path=path, folder=tmp_path
    )
    lines = {i.target_id: i for i in revert.items()}
    assert lines[first].skip == RevertSkip.CHANGED_SINCE
    assert lines[first].record["now"] == "DEACTIVATED"
    assert "before ACTIVE, after SUSPENDED, now DEACTIVATED" in lines[first].record["why"]
    assert lines[second].skip == jobs.Skip.NO_CHANGE
    assert lines[third].skip is None and lines[third].current == "SUSPENDED"
    out = tmp_path / "plan.csv"
    jobs.write_revert_plan(revert, out)
    text = out.read_text(encoding="utf-8-sig")
    assert "CHANGED_SINCE" in text and "DEACTIVATED" in text


async def test_the_kiosk_plans_no_revert(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path)
    job = await suspend_some(portal, tmp_path, 2)
    journal.flush()
    kiosk = await make_portal(read_only=True)
    with pytest.raises(ReadOnlyError):
        await jobs.plan_job_revert(
            kiosk.client, job.id, await portal.context(), journal_path=path, folder=tmp_path
        )


async def test_an_old_plan_reads_each_target_again_before_its_write(
    make_portal: Make, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path)
    job = await suspend_some(portal, tmp_path, 3)
    first, second, third = [i.target_id for i in job.items()]
    journal.flush()
    revert = await jobs.plan_job_revert(
        portal.client, job.id, await portal.context(), journal_path=path, folder=tmp_path
    )
    assert revert.counts()["planned"] == 3
    # Between the plan and the run (a job resumed later), someone deactivates one of them.
    async with second_client(portal) as other:
        await other.accounts.change_status(second, "DEACTIVATE")
    monkeypatch.setattr(revert_module, "STALE_AFTER", -1.0)  # the plan counts as old
    writes = portal.sent("accounts.status")
    progress = await run(portal, revert)
    lines = {i.target_id: i for i in revert.items()}
    assert lines[second].state is jobs.ItemState.FAILED
    assert lines[second].error_code == RevertSkip.CHANGED_SINCE
    assert {lines[first].state, lines[third].state} == {jobs.ItemState.DONE}
    assert portal.sent("accounts.status") == writes + 2  # nothing sent for the changed one
    assert (await statuses(portal, [second]))[second] == "DEACTIVATED"
    assert progress.counts["failed"] == 1
