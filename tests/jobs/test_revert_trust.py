"""A revert believes only records it can trust (the journal's threat model): records vouched
for, by their (seq, hash), by a checkpoint of this installation's own key, appended by this
process, or confirmed by their job file when a record this installation vouches for names
that job. Records appended by another hand, correctly chained, are never planned from unless
the person accepts them; and two reverts of one job are never planned at once."""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin import jobs
from portal_admin.evidence import journal as journal_file
from portal_admin.evidence import keys
from portal_admin.evidence.recorder import attach
from portal_admin.jobs.revert import RevertSkip
from support.forgery import append_forged

from .conftest import Portal
from .test_revert import journaled, run, statuses, suspend_some

Make = Callable[..., Awaitable[Portal]]


@pytest.fixture(autouse=True)
def _own_writers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sees only the journal objects it made: forgetting them (as a later process
    would) stays inside the test."""
    monkeypatch.setattr(journal_file, "_WRITERS", weakref.WeakSet())


def as_another_process() -> None:
    """Forget what this process appended: it reads the journal as a later program does."""
    journal_file._WRITERS.clear()


KEY = Ed25519PrivateKey.generate()
OWN = keys.fingerprint(KEY.public_key())


async def journaled_with_key(
    make_portal: Make, path: Path, **config: Any
) -> tuple[Portal, journal_file.Journal]:
    """A portal whose changes go to the journal at ``path``, checkpointed with :data:`KEY`
    only when a test says so."""
    portal = await make_portal(**config)
    journal = journal_file.Journal(path, signer=lambda: KEY, checkpoint_every=0)
    attach(portal.client, profile="Sandbox", server="sandbox://built-in", journal=journal)
    return portal, journal


def vouch_for(path: Path, seqs: list[int]) -> None:
    """A checkpoint of :data:`KEY` vouching for the records ``seqs`` (as their writer's)."""
    records = {r["seq"]: r for r in journal_file.read(path)}
    signer = journal_file.Journal(path, signer=lambda: KEY)
    signer._unvouched = list(seqs)
    signer._written = {n: bytes.fromhex(records[n]["hash"]) for n in seqs}
    assert signer.checkpoint() is not None


async def forged_job(make_portal: Make, tmp_path: Path) -> tuple[Portal, Any, str, list[int]]:
    """A bulk suspension of three accounts (its records vouched for), and two forged records
    claiming that the job also suspended an account it never touched (an intent and its
    outcome)."""
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled_with_key(make_portal, path, seed_accounts=30)
    job = await suspend_some(portal, tmp_path, 3)
    journal.flush()
    assert journal.checkpoint() is not None
    context = await portal.context()
    touched = {i.target_id for i in job.items()}
    victim = next(
        a.biz_id
        for a in (await portal.client.accounts.query(status="ACTIVE", size=30)).items
        if a.biz_id not in touched and a.biz_id != context.self_id
    )
    await portal.client.accounts.change_status(victim, "SUSPEND", reason="by someone else")
    common = {
        "profile": "Sandbox",
        "server": "sandbox://built-in",
        "account": context.account,
        "operation": "accounts.status",
        "targets": [victim],
        "fields": {"action": "SUSPEND"},
        "before": {"value": "ACTIVE"},
        "after": {"value": "SUSPENDED", "job": job.id},
    }
    [intent] = append_forged(path, {**common, "kind": "intent"})
    [outcome] = append_forged(path, {**common, "outcome": "ok", "intent_seq": intent})
    return portal, job, victim, [intent, outcome]


async def test_forged_records_of_a_job_are_not_planned(make_portal: Make, tmp_path: Path) -> None:
    portal, job, victim, forged = await forged_job(make_portal, tmp_path)
    path = tmp_path / "journal.jsonl"
    verification = journal_file.verify(path, expected_key=OWN)
    assert verification.ok  # the chain is whole: only its origin is in doubt
    assert verification.unauthenticated == forged
    as_another_process()
    context = await portal.context()
    revert = await jobs.plan_job_revert(
        portal.client, job.id, context, journal_path=path, folder=tmp_path, expected_key=OWN
    )
    lines = {i.target_id: i for i in revert.items()}
    assert revert.counts()["planned"] == 3  # the job's own targets, vouched for
    assert lines[victim].skip == RevertSkip.UNAUTHENTICATED
    assert "not authenticated" in lines[victim].record["why"]
    assert lines[victim].record["seqs"] == [forged[1]]
    await run(portal, revert)
    assert (await statuses(portal, [victim]))[victim] == "SUSPENDED"  # left alone
    revert.close()
    # Accepted on purpose, the forged record is planned like the others (and recorded so).
    again = await jobs.plan_job_revert(
        portal.client,
        job.id,
        context,
        journal_path=path,
        folder=tmp_path,
        accept_unauthenticated=True,
        expected_key=OWN,
    )
    assert {i.target_id for i in again.items() if i.skip is None} == {victim}
    assert again.meta()["unauthenticated_accepted"] == [forged[1]]
    again.discard()


async def test_a_forged_record_is_not_reverted_without_acceptance(
    make_portal: Make, tmp_path: Path
) -> None:
    portal, _job, victim, forged = await forged_job(make_portal, tmp_path)
    path = tmp_path / "journal.jsonl"
    context = await portal.context()
    sent = portal.sent("accounts.get", None)
    with pytest.raises(jobs.RevertError) as caught:
        await jobs.plan_records_revert(
            portal.client, [forged[1]], context, journal_path=path, folder=tmp_path,
            expected_key=OWN,
        )  # fmt: skip
    assert caught.value.code == "UNAUTHENTICATED"
    assert f"record(s) {forged[1]} are not authenticated" in str(caught.value)
    assert "--accept-unauthenticated" in str(caught.value)
    assert portal.sent("accounts.get", None) == sent  # nothing read from the server
    accepted = await jobs.plan_records_revert(
        portal.client,
        [forged[1]],
        context,
        journal_path=path,
        folder=tmp_path,
        accept_unauthenticated=True,
        expected_key=OWN,
    )
    assert [i.target_id for i in accepted.items() if i.skip is None] == [victim]
    accepted.discard()


async def test_records_of_an_earlier_process_are_believed_when_vouched_or_confirmed(
    make_portal: Make, tmp_path: Path
) -> None:
    """A record of this installation from an earlier run: believed when a checkpoint of its
    key vouches for it, or when its job file confirms it (a job an earlier record this
    installation vouches for names: the run was killed before its next checkpoint); else
    refused as unauthenticated."""
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled_with_key(make_portal, path, seed_accounts=30)
    job = await suspend_some(portal, tmp_path, 2)
    journal.flush()
    records = list(journal_file.read(path))
    seq = [r["seq"] for r in records if r["kind"] == "change" and r["outcome"] == "ok"][-1]
    first = min(r["seq"] for r in records if r.get("after", {}).get("job") == job.id)
    context = await portal.context()
    options: dict[str, Any] = {"journal_path": path, "expected_key": OWN}
    as_another_process()
    with pytest.raises(jobs.RevertError, match="not authenticated"):  # no record vouched for
        await jobs.plan_records_revert(portal.client, [seq], context, folder=tmp_path, **options)
    vouch_for(path, [first])  # the job's first record only
    as_another_process()
    confirmed = await jobs.plan_records_revert(
        portal.client, [seq], context, folder=tmp_path, **options
    )
    assert confirmed.counts()["planned"] == 1  # its job file says the job did it
    confirmed.discard()
    with pytest.raises(jobs.RevertError, match="not authenticated"):  # no job file here
        await jobs.plan_records_revert(
            portal.client, [seq], context, folder=tmp_path / "elsewhere", **options
        )
    # An edited job file (another value) does not confirm it either.
    with sqlite3.connect(job.path) as conn:
        conn.execute("UPDATE items SET current = 'DEACTIVATED'")
    job.close()
    with pytest.raises(jobs.RevertError, match="not authenticated"):
        await jobs.plan_records_revert(portal.client, [seq], context, folder=tmp_path, **options)
    # Vouched for by a checkpoint of this installation's key: believed without the job file.
    vouch_for(path, [r["seq"] for r in journal_file.read(path)])
    as_another_process()
    vouched = await jobs.plan_records_revert(
        portal.client, [seq], context, folder=tmp_path / "elsewhere", **options
    )
    assert vouched.counts()["planned"] == 1
    vouched.discard()


async def test_one_revert_of_a_job_at_a_time(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=30)
    job = await suspend_some(portal, tmp_path, 2)
    journal.flush()
    context = await portal.context()
    options: dict[str, Any] = {"journal_path": path, "folder": tmp_path}
    first = await jobs.plan_job_revert(portal.client, job.id, context, **options)
    with pytest.raises(jobs.RevertError) as caught:
        await jobs.plan_job_revert(portal.client, job.id, context, **options)
    assert caught.value.code == "UNDER_WAY"
    seq = next(r["seq"] for r in journal_file.read(path) if r["kind"] == "change")
    with pytest.raises(jobs.RevertError, match="being planned or run"):
        await jobs.plan_records_revert(portal.client, [seq], context, **options)
    first.discard()  # the lock goes with the plan
    second = await jobs.plan_job_revert(portal.client, job.id, context, **options)
    assert second.counts()["planned"] == 2
    second.discard()


async def test_a_reason_is_sent_and_journaled(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=30)
    job = await suspend_some(portal, tmp_path, 2)
    journal.flush()
    context = await portal.context()
    revert = await jobs.plan_job_revert(
        portal.client,
        job.id,
        context,
        journal_path=path,
        folder=tmp_path,
        reason="  Ticket 4711: suspended by mistake ",
    )
    await run(portal, revert)
    journal.flush()
    records = [
        r
        for r in journal_file.read(path)
        if r["kind"] == "change" and r["after"].get("job") == revert.id
    ]
    assert len(records) == 2
    assert {r["fields"]["reason"] for r in records} == {"Ticket 4711: suspended by mistake"}
    assert {r["after"]["reason"] for r in records} == {"Ticket 4711: suspended by mistake"}
    revert.close()
    for bad in ("x" * 501, "two\x1b[2Klines"):
        with pytest.raises(jobs.RevertError) as caught:
            await jobs.plan_job_revert(
                portal.client, job.id, context, journal_path=path, folder=tmp_path, reason=bad
            )
        assert caught.value.code == "BAD_REASON"


async def test_a_revert_resumed_takes_the_lock_again(make_portal: Make, tmp_path: Path) -> None:
    """A revert planned earlier and resumed later (its plan's locks are gone with the program
    that made it) is refused while another revert of the same job is under way."""
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=30)
    job = await suspend_some(portal, tmp_path, 2)
    journal.flush()
    context = await portal.context()
    options: dict[str, Any] = {"journal_path": path, "folder": tmp_path}
    earlier = await jobs.plan_job_revert(portal.client, job.id, context, **options)
    earlier.close()  # the program that planned it stopped
    other = await jobs.plan_job_revert(portal.client, job.id, context, **options)
    resumed = jobs.JobFile.open(earlier.path)
    with pytest.raises(jobs.JobLockedError, match="being planned or run"):
        await jobs.Runner(portal.client, resumed).run()
    assert resumed.counts()["planned"] == 2 and portal.sent("accounts.status") == 2  # the job's
    other.discard()
    progress = await jobs.Runner(portal.client, resumed).run()
    assert progress.counts["done"] == 2
    with pytest.raises(jobs.RevertError, match="being planned or run"):  # held until closed
        await jobs.plan_job_revert(portal.client, job.id, context, **options)
    resumed.close()
