"""What a revert believes (red-team findings): a record by its (seq, hash) vouched for by this
installation's own key - not a colleague's trusted one -, or confirmed by a job file only for
a job a record this installation vouches for names; never a forged branch after a fake break."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin import jobs
from portal_admin.evidence import checkpoints, keys
from portal_admin.evidence import journal as jr
from portal_admin.evidence.recorder import attach
from portal_admin.jobs import JobFile
from portal_admin.jobs.revert_journal import Entry, JobFiles, believed
from support.forgery import fork

from .conftest import make_portal  # noqa: F401 - the fixture

CHANGE = {
    "kind": "change",
    "profile": "Sandbox",
    "server": "sandbox://built-in",
    "account": "admin@example.test",
    "operation": "accounts.status",
    "fields": {"action": "SUSPEND"},
    "outcome": "ok",
}


def _written(path: Path, n: int) -> str:
    store = keys.MemoryStore()
    journal = jr.Journal(path, signer=lambda: keys.signing_key(store), checkpoint_every=10)
    for i in range(n):
        journal.append({**CHANGE, "targets": [f"ACC{i:06d}"], "before": {"value": "ACTIVE"},
                        "after": {"value": "SUSPENDED"}})  # fmt: skip
    journal.close()
    jr._WRITERS.clear()
    return checkpoints.read(checkpoints.checkpoints_path(path)).checkpoints[0].fingerprint


def test_a_forged_job_file_confirms_a_forged_record(tmp_path: Path) -> None:
    """Attack: whoever can write the journal can write the jobs folder beside it. They append
    a forged record "job J suspended VICTIM" and create job file J (``JobFile.create`` needs
    no key) whose line for VICTIM is ``done`` with the same before/after. ``JobFiles.confirms``
    vouched for the record on the word of a file the same attacker wrote. Now a job file
    confirms records only of a job that a record this installation vouches for names."""
    folder = tmp_path / "jobs"
    job = JobFile.create(
        {"kind": "status", "params": {"action": "SUSPEND", "reason": "x"}, "source": "",
         "profile": "Sandbox", "server": "sandbox://built-in", "account": "a"},
        [("VICTIM", "victim", {}, "ACTIVE", "SUSPENDED", None)],
        folder,
    )  # fmt: skip
    job_id, job_path = job.id, job.path
    job.close()
    conn = sqlite3.connect(job_path)
    conn.execute("UPDATE items SET state = 'done'")
    conn.commit()
    conn.close()
    record = {
        **CHANGE,
        "seq": 26,
        "targets": ["VICTIM"],
        "before": {"value": "ACTIVE"},
        "after": {"value": "SUSPENDED", "job": job_id},
    }
    assert not JobFiles(folder).confirms(record), (
        "a job file anyone can write confirmed a forged record"
    )
    assert JobFiles(folder, {job_id}).confirms(record)  # a job this installation vouches for


def test_a_colleagues_trusted_key_vouches_for_records_this_installation_reverts(
    tmp_path: Path,
) -> None:
    """Attack: a colleague's key is trusted (their campaign sign-offs and packs verify). They
    append a forged change to this installation's journal and a checkpoint signed with THEIR
    key vouching for it: the journal verifies (a trusted key) and a revert believed the
    record. Now a revert believes only what this installation's own key vouches for."""
    path = tmp_path / "journal.jsonl"
    own = _written(path, 10)
    colleague = Ed25519PrivateKey.generate()
    last = list(jr.read(path))[-1]
    body = {**CHANGE, "time": jr.now_iso(), "targets": ["VICTIM"],
            "before": {"value": "ACTIVE"}, "after": {"value": "SUSPENDED"},
            "seq": 11, "segment": 0, "format": jr.FORMAT}  # fmt: skip
    digest = jr.chain_hash(str(last["hash"]), body)
    with path.open("ab") as fh:
        fh.write(jr.canonical({**body, "prev": last["hash"], "hash": digest}) + b"\n")
    checkpoints.append(
        checkpoints.checkpoints_path(path),
        checkpoints.make(colleague, 11, digest, "stop", vouches=[(11, 11)]),
    )
    colleague_fp = keys.fingerprint(colleague.public_key())
    result = jr.verify(path, expected_key=lambda: own, trusted=lambda: [colleague_fp])
    assert result.ok, result.summary()
    assert result.authenticated(11, digest)  # vouched for (by a trusted key)
    record = {**body, "prev": last["hash"], "hash": digest}
    sure, _doubtful = believed([Entry(11, record, "ok")], result, tmp_path / "jobs")
    assert not sure, "a record vouched for by a colleague's key is believed by a revert"
    ours = next(r for r in jr.read(path) if r["seq"] == 10)
    assert believed([Entry(10, ours, "ok")], result, tmp_path / "jobs")[0]


async def test_a_forged_branch_after_a_fake_break_is_planned_for_revert(
    make_portal,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Attack: an account was suspended (journaled), then the administrator suspended 3
    accounts (a bulk job); the journal is checkpointed at the stop. The attacker (no key)
    appends a ``segment`` record "torn after seq 2" and forged records re-using the later
    seqs, each claiming "this installation suspended VICTIM". ``plan_records_revert`` of one
    of those seqs planned to set VICTIM back to ACTIVE. Now it is refused."""
    path = tmp_path / "journal.jsonl"
    store = keys.MemoryStore()
    own = keys.fingerprint(keys.signing_key(store).public_key())
    portal = await make_portal(seed_accounts=30)
    journal = jr.Journal(path, signer=lambda: keys.signing_key(store))
    attach(portal.client, profile="Sandbox", server="sandbox://built-in", journal=journal)
    context = await portal.context()
    accounts = (await portal.client.accounts.query(status="ACTIVE", size=30)).items
    chosen = [a.biz_id for a in accounts if a.biz_id != context.self_id]
    victim = chosen[10]
    await portal.client.accounts.change_status(victim, "SUSPEND", reason="compromised")
    targets = [t async for t in _targets(portal.client, chosen[:3])]
    job = await jobs.create_job(
        portal.client, jobs.ChangeStatus("SUSPEND"), targets, context, folder=tmp_path
    )
    await jobs.Runner(portal.client, job, concurrency=1).run()
    job.close()
    journal.close()
    jr._WRITERS.clear()
    records = list(jr.read(path))
    assert len(records) >= 6
    forged: dict[str, Any] = {
        "kind": "change", "profile": "Sandbox", "server": "sandbox://built-in",
        "account": context.account, "operation": "accounts.status", "targets": [victim],
        "fields": {"action": "SUSPEND"}, "before": {"value": "ACTIVE"},
        "after": {"value": "SUSPENDED", "job": job.id}, "outcome": "ok",
    }  # fmt: skip
    written = fork(path, 2, [forged] * (len(records) - 3))
    seq = written[-1]["seq"]
    assert seq <= records[-1]["seq"]
    with pytest.raises(jobs.RevertError) as refused:
        plan = await jobs.plan_records_revert(
            portal.client, [seq], context, journal_path=path, folder=tmp_path,
            expected_key=lambda: own,
        )  # fmt: skip
        plan.discard()
    assert refused.value.code == "JOURNAL_BROKEN"
    assert "seq-again" in str(refused.value)
    now = await portal.client.accounts.get(victim)
    assert now.account_status is not None and now.account_status.code == "SUSPENDED"


async def _targets(client, ids):  # type: ignore[no-untyped-def]
    from portal_admin.jobs.targets import Entry as TargetEntry
    from portal_admin.jobs.targets import TargetList, match_accounts

    found, _problems = await match_accounts(
        client, TargetList(entries=[TargetEntry(n + 1, i, False) for n, i in enumerate(ids)])
    )
    for target in found:
        yield target
