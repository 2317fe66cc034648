"""A checkpoint vouches for (seq, hash) pairs, never for seq numbers (red-team finding): a
forged ``segment`` record claiming a break earlier in the file, followed by forged records
re-using seqs the checkpoints vouch for, made every forged record authenticated."""

from __future__ import annotations

from pathlib import Path

from portal_admin.evidence import checkpoints, keys
from portal_admin.evidence import journal as jr
from support.forgery import fork

CHANGE = {
    "kind": "change",
    "profile": "Sandbox",
    "server": "sandbox://built-in",
    "account": "admin@example.test",
    "operation": "accounts.status",
    "fields": {"action": "SUSPEND"},
    "outcome": "ok",
}


def written(path: Path, n: int = 25) -> str:
    """``n`` records of this installation, checkpointed every ten and at the close (every
    record vouched for), read as a later process does; the key's fingerprint."""
    store = keys.MemoryStore()
    journal = jr.Journal(path, signer=lambda: keys.signing_key(store), checkpoint_every=10)
    for i in range(n):
        journal.append({**CHANGE, "targets": [f"ACC{i:06d}"], "before": {"value": "ACTIVE"},
                        "after": {"value": "SUSPENDED"}})  # fmt: skip
    journal.close()
    jr._WRITERS.clear()
    found = checkpoints.read(checkpoints.checkpoints_path(path))
    return found.checkpoints[0].fingerprint


def test_a_forked_segment_makes_forged_records_vouched_for(tmp_path: Path) -> None:
    """Attack: after a journal of 25 vouched records (checkpoints at 10, 20, 25), append a
    ``segment`` record that claims a break after seq 15 (it chains from record 15, as a real
    one would), then forged records with seqs 17..25 - seqs the checkpoints vouch for. The
    journal verified (a segment is a "recorded break"; ``checkpoints.check`` accepted any
    record of the checkpoint's seq) and ``Verification.authenticated`` looked at the seq only:
    every forged record was authenticated. Now a second record of a seq is a problem
    ("seq-again"), and a record is authenticated only as the (seq, hash) pair vouched for."""
    path = tmp_path / "journal.jsonl"
    own = written(path)
    originals = {r["seq"]: r["hash"] for r in jr.read(path)}
    forged = fork(
        path,
        15,
        [{**CHANGE, "targets": [f"VICTIM{n}"], "before": {"value": "ACTIVE"},
          "after": {"value": "SUSPENDED"}} for n in range(17, 26)],
    )  # fmt: skip
    result = jr.verify(path, expected_key=lambda: None, trusted=lambda: [own])
    assert not result.ok
    assert {p.seq for p in result.problems if p.reason == "seq-again"} == set(range(16, 26))
    victim = forged[5]  # seq 22, above the break
    assert victim["seq"] == 22
    assert not result.authenticated(victim["seq"], victim["hash"]), (
        "a forged record on a forked branch is authenticated by the seq number alone"
    )
    assert result.authenticated(22, originals[22])  # the record the checkpoints vouch for


def test_a_record_is_vouched_for_by_its_hash_not_its_seq(tmp_path: Path) -> None:
    """The pair, even in a journal that verifies: another hash at a vouched seq is not
    authenticated."""
    path = tmp_path / "journal.jsonl"
    own = written(path, 5)
    result = jr.verify(path, expected_key=own)
    assert result.ok and not result.unauthenticated
    record = next(r for r in jr.read(path) if r["seq"] == 3)
    assert result.authenticated(3, record["hash"])
    assert result.authenticated(3, record["hash"], own_only=True)
    assert not result.authenticated(3, "0" * 64)
