"""The forked-segment attack of ``test_journal_trust.py`` carried through to a revert plan on an
in-process sandbox (branch h/journal-undo): forged records re-using vouched seqs after a
forged ``segment`` record are planned as changes to set back, without
``--accept-unauthenticated``."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobs.conftest import make_portal  # noqa: F401 - the fixture
from portal_admin import jobs
from portal_admin.evidence import journal as jr
from portal_admin.evidence import keys
from portal_admin.evidence.recorder import attach

from .test_journal_trust import _fork


async def test_a_forged_branch_after_a_fake_break_is_planned_for_revert(
    make_portal,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Attack: an account was suspended (the security team's call, journaled), then the
    administrator suspended 3 accounts (a bulk job); the journal is checkpointed at the
    program's stop, vouching for every record. The attacker (no key) appends a ``segment``
    record "torn after seq 2" and forged records re-using the later seqs, each claiming
    "this installation suspended VICTIM". ``plan_records_revert`` of one of those seqs
    verifies the journal (ok: a segment is a recorded break, before the record), believes
    the record (its seq lies in a vouched range: the hash is never compared) and plans to
    set VICTIM back to ACTIVE - undoing a suspension this installation never made. Class of
    fix: as in ``test_a_forked_segment_makes_forged_records_vouched_for`` - vouch for (seq, hash),
    refuse a seq seen twice."""
    path = tmp_path / "journal.jsonl"
    store = keys.MemoryStore()
    own = keys.fingerprint(keys.signing_key(store).public_key())
    portal = await make_portal(seed_accounts=30)
    journal = jr.Journal(path, signer=lambda: keys.signing_key(store))
    attach(portal.client, profile="Sandbox", server="sandbox://built-in", journal=journal)
    context = await portal.context()
    accounts = (await portal.client.accounts.query(status="ACTIVE", size=30)).items
    chosen = [a.biz_id for a in accounts if a.biz_id != context.self_id]
    victim = chosen[10]  # suspended by the security team (say): a revert must not undo it
    await portal.client.accounts.change_status(victim, "SUSPEND", reason="compromised")
    targets = [t async for t in _targets(portal.client, chosen[:3])]
    job = await jobs.create_job(
        portal.client, jobs.ChangeStatus("SUSPEND"), targets, context, folder=tmp_path
    )
    await jobs.Runner(portal.client, job, concurrency=1).run()
    job.close()
    journal.close()  # a clean stop: a checkpoint vouching for every record
    jr._WRITERS.clear()  # a later process
    records = list(jr.read(path))
    assert len(records) >= 6
    forged = {
        "kind": "change", "profile": "Sandbox", "server": "sandbox://built-in",
        "account": context.account, "operation": "accounts.status", "targets": [victim],
        "fields": {"action": "SUSPEND"}, "before": {"value": "ACTIVE"},
        "after": {"value": "SUSPENDED", "job": job.id}, "outcome": "ok",
    }  # fmt: skip
    written = _fork(path, 2, [forged] * (len(records) - 3))
    seq = written[-1]["seq"]
    assert seq <= records[-1]["seq"]  # a seq the checkpoint vouches for
    with pytest.raises(jobs.RevertError) as refused:
        plan = await jobs.plan_records_revert(
            portal.client, [seq], context, journal_path=path, folder=tmp_path,
            expected_key=lambda: own,
        )  # fmt: skip
        planned = [i.target_id for i in plan.items() if i.skip is None]
        await jobs.Runner(portal.client, plan, concurrency=1).run()
        plan.close()
        now = await portal.client.accounts.get(victim)
        status = now.account_status.code if now.account_status else ""
        pytest.fail(f"a forged record was planned and run: {planned}; {victim} is now {status}")
    assert refused.value.code in ("UNAUTHENTICATED", "JOURNAL_BROKEN", "ACROSS_BREAK")


async def _targets(client, ids):  # type: ignore[no-untyped-def]
    from portal_admin.jobs.targets import Entry, TargetList, match_accounts

    found, _problems = await match_accounts(
        client, TargetList(entries=[Entry(n + 1, i, False) for n, i in enumerate(ids)])
    )
    for target in found:
        yield target
