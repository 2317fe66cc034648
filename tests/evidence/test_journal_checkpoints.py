"""Signed checkpoints anchor the journal's end: cutting records off the end, rewriting the
whole file with new hashes, or re-signing the checkpoints with another key is found.

The key comes from a ``keys.MemoryStore``: no test touches the OS keyring.
"""

from __future__ import annotations

import base64
import json
import logging
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.cli.main import main as cli_main
from portal_admin.cli.packs_of import PackSource, source
from portal_admin.evidence import checkpoints, keys, trust
from portal_admin.evidence import journal as jr
from portal_admin.evidence.__main__ import main as evidence_main
from support.forgery import append_forged

EVERY = 10


@pytest.fixture(autouse=True)
def _own_writers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sees only the journal objects it made: forgetting them (as a later process
    would) stays inside the test."""
    monkeypatch.setattr(jr, "_WRITERS", weakref.WeakSet())


def signer_of(store: keys.MemoryStore) -> Callable[[], Ed25519PrivateKey]:
    return lambda: keys.signing_key(store)


@pytest.fixture
def store() -> keys.MemoryStore:
    return keys.MemoryStore()


@pytest.fixture
def fingerprint(store: keys.MemoryStore) -> str:
    return keys.fingerprint(keys.signing_key(store).public_key())


def written(path: Path, store: keys.MemoryStore, n: int = 25) -> jr.Journal:
    """``n`` records, checkpointed every ten and at the close."""
    journal = jr.Journal(path, signer=signer_of(store), checkpoint_every=EVERY)
    for i in range(n):
        journal.append({"operation": "accounts.update", "targets": [f"ACC{i}"], "outcome": "ok"})
    journal.close()
    return journal


def rechained(rows: list[dict[str, object]]) -> bytes:
    """Records written again with a fresh, valid chain (what someone rewriting the file
    without the key can do)."""
    prev, out = jr.GENESIS, []
    for row in rows:
        body = {k: v for k, v in row.items() if k not in ("prev", "hash")}
        digest = jr.chain_hash(prev, body)
        out.append(jr.canonical({**body, "prev": prev, "hash": digest}) + b"\n")
        prev = digest
    return b"".join(out)


def test_checkpoints_every_n_records_and_at_a_clean_stop(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str
) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, store)
    found = checkpoints.read(path.with_name("journal.checkpoints.jsonl"))
    assert [(c.seq, c.reason, c.signed) for c in found.checkpoints] == [
        (10, "every 10", True),
        (20, "every 10", True),
        (25, "stop", True),
    ]
    assert {c.fingerprint for c in found.checkpoints} == {fingerprint}
    result = jr.verify(path, expected_key=fingerprint)
    assert result.ok and result.checkpoints == 3, result.anchor
    assert "the last at seq 25" in result.notes[0]
    jr.Journal(path, signer=signer_of(store)).close()  # wrote nothing: no checkpoint
    assert len(checkpoints.read(path.with_name("journal.checkpoints.jsonl")).checkpoints) == 3


def test_records_cut_off_the_end_are_found(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, store)
    rows = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(rows[:22]))  # whole records: the chain alone still verifies
    result = jr.verify(path, expected_key=fingerprint)
    assert not result.problems
    assert not result.ok
    assert result.anchor == ["truncated: the last checkpoint names seq 25, the journal ends at 22"]
    assert "BROKEN: truncated" in result.summary()
    capsys.readouterr()
    assert evidence_main(["journal", "verify", str(path), "--fingerprint", fingerprint]) == 1
    assert "truncated: the last checkpoint names seq 25, the journal ends at 22" in (
        capsys.readouterr().out
    )
    # The same through portal-admin-cli, pinning the checkpoints' key as python -m does.
    assert cli_main(["journal", "verify", str(path), "--fingerprint", fingerprint]) == 1
    assert "truncated: the last checkpoint names seq 25" in capsys.readouterr().out


def test_a_whole_file_rewritten_with_new_hashes_is_found(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str
) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, store)
    rows = [json.loads(line) for line in path.read_bytes().splitlines()]
    rows[2]["targets"] = ["SOMEONE-ELSE"]  # one record changed, every hash after it redone
    path.write_bytes(rechained(rows))
    result = jr.verify(path, expected_key=fingerprint)
    assert not result.problems  # the chain itself is whole again
    assert not result.ok
    assert [a.split(": ")[1] for a in result.anchor] == [
        f"the record at seq {seq} does not have the hash it names" for seq in (10, 20, 25)
    ]
    assert evidence_main(["journal", "verify", str(path), "--fingerprint", fingerprint]) == 1


def test_checkpoints_re_signed_with_another_key_are_found(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str
) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, store)
    rows = [json.loads(line) for line in path.read_bytes().splitlines()][:20]
    rows[2]["targets"] = ["SOMEONE-ELSE"]
    path.write_bytes(rechained(rows))
    rows = [json.loads(line) for line in path.read_bytes().splitlines()]
    # The forger signs new checkpoints of the forged chain with a key of their own.
    forged = keys.signing_key(keys.MemoryStore())
    cp_path = path.with_name("journal.checkpoints.jsonl")
    cp_path.write_bytes(
        b"".join(
            jr.canonical(checkpoints.make(forged, seq, str(rows[seq - 1]["hash"]), "stop")) + b"\n"
            for seq in (10, 20)
        )
    )
    result = jr.verify(path, expected_key=fingerprint)
    assert not result.ok
    assert len(result.anchor) == 2
    assert all("is signed by another key" in a and fingerprint in a for a in result.anchor)
    assert evidence_main(["journal", "verify", str(path), "--fingerprint", fingerprint]) == 1


def test_without_this_installations_key_a_checkpoint_by_an_unknown_key_anchors_nothing(
    tmp_path: Path,
    store: keys.MemoryStore,
    fingerprint: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No keyring (this installation's key unknown): a journal rewritten and re-signed by a
    forger's key is not intact, by verify or by the command line; a key trusted on purpose,
    or pinned, is accepted."""
    path = tmp_path / "journal.jsonl"
    written(path, store)
    rows = [json.loads(line) for line in path.read_bytes().splitlines()][:20]
    rows[2]["targets"] = ["SOMEONE-ELSE"]
    path.write_bytes(rechained(rows))
    rows = [json.loads(line) for line in path.read_bytes().splitlines()]
    forged = keys.signing_key(keys.MemoryStore())
    forger = keys.fingerprint(forged.public_key())
    path.with_name("journal.checkpoints.jsonl").write_bytes(
        b"".join(
            jr.canonical(checkpoints.make(forged, seq, str(rows[seq - 1]["hash"]), "stop")) + b"\n"
            for seq in (10, 20)
        )
    )
    unknown = jr.verify(path, expected_key=lambda: None)
    assert not unknown.ok and len(unknown.anchor) == 2
    assert all(
        f"signed by another key ({forger}) than this installation's, and not a trusted one:"
        " it anchors nothing" in a
        for a in unknown.anchor
    ), unknown.anchor
    assert "BROKEN" in unknown.summary() and "intact" not in unknown.summary()
    assert unknown.anchored == 0 and len(unknown.unauthenticated) == 20
    monkeypatch.setattr(trust, "own_fingerprint", lambda store=None: None)  # no keyring
    assert evidence_main(["journal", "verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "BROKEN" in out and "anchors nothing" in out and "intact" not in out
    # Trusted on purpose (this person's other installation, say), or pinned: accepted.
    assert jr.verify(path, expected_key=lambda: None, trusted=[forger]).ok
    assert jr.verify(path, expected_key=forger).ok
    # A trusted key does not pass when another one is pinned.
    assert not jr.verify(path, expected_key=fingerprint, trusted=[forger]).ok


def test_a_checkpoint_edited_without_the_key_does_not_verify(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str
) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, store)
    cp_path = path.with_name("journal.checkpoints.jsonl")
    lines = cp_path.read_bytes().splitlines(keepends=True)
    last = json.loads(lines[-1])
    last["seq"] = 22  # to make a cut at 22 look anchored
    lines[-1] = jr.canonical(last) + b"\n"
    cp_path.write_bytes(b"".join([*lines, b"garbage\n"]))
    result = jr.verify(path, expected_key=fingerprint)
    assert result.anchor == [
        "checkpoint line 4 is not a checkpoint",
        "checkpoint line 3 (seq 22): the signature does not verify",
    ]


def test_journaling_goes_on_without_a_key(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    calls = []

    def no_keyring() -> Ed25519PrivateKey:
        calls.append(1)
        raise keys.KeyUnavailable("no usable keyring: test")

    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path, signer=no_keyring, checkpoint_every=EVERY)
    with caplog.at_level(logging.WARNING, logger="portal_admin.evidence.journal"):
        for i in range(35):
            journal.append({"operation": "accounts.update", "targets": [f"A{i}"]})
        assert journal.checkpoint() is None
        journal.close()
    result = jr.verify(path)
    assert result.ok and result.records == 35
    assert result.notes == ["no checkpoint: the journal's end is not anchored"]
    assert not path.with_name("journal.checkpoints.jsonl").exists()
    assert calls == [1]  # asked once
    said = [r for r in caplog.records if "checkpoints are not written" in r.getMessage()]
    assert len(said) == 1


def test_a_torn_checkpoint_line_is_cut_before_the_next(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str
) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, store, 12)
    cp_path = path.with_name("journal.checkpoints.jsonl")
    cp_path.write_bytes(cp_path.read_bytes()[:-30])  # a kill in the middle of the last one
    assert jr.verify(path, expected_key=fingerprint).ok  # a crash, not an attack
    written(path, store, 3)
    found = checkpoints.read(cp_path)
    assert not found.torn and not found.unreadable
    assert [c.seq for c in found.checkpoints] == [10, 15]
    assert jr.verify(path, expected_key=fingerprint).ok


def test_a_journal_pack_holds_the_checkpoints(
    tmp_path: Path, store: keys.MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.jsonl"
    monkeypatch.setattr(jr, "default_journal_path", lambda: path)
    written(path, store)
    kind, tables, _summary = source(PackSource(journal=True))
    assert kind == "journal"
    header, rows = tables["checkpoints"]
    found = [dict(zip(header, row, strict=True)) for row in rows]
    assert [(r["seq"], r["reason"]) for r in found] == [
        (10, "every 10"),
        (20, "every 10"),
        (25, "stop"),
    ]
    assert all(r["signature"] and r["public_key"] for r in found)


def test_hostile_records_and_checkpoints_are_named_not_a_traceback(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str
) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, store, 12)
    rows = [json.loads(line) for line in path.read_bytes().splitlines()]
    rows[9]["seq"] = [10]  # unhashable where a checkpoint's seq is looked up
    rows[10]["intent_seq"] = {"x": 1}
    path.write_bytes(rechained(rows))
    cp_path = path.with_name("journal.checkpoints.jsonl")
    with cp_path.open("ab") as fh:
        fh.write(b'[1, 2]\n{"seq": 3, "hash": "x", "public_key": "AAAA", "signature": "!"}\n')
    result = jr.verify(path, expected_key=fingerprint)
    assert [(p.line, p.reason) for p in result.problems] == [(10, "order"), (11, "order")]
    assert "checkpoint line 3 is not a checkpoint" in result.anchor
    assert "checkpoint line 4 is not a checkpoint" in result.anchor
    assert any("disagrees with the checkpoint at line 1" in a for a in result.anchor)


def test_a_checkpoint_never_signs_over_records_appended_by_another_hand(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path, signer=signer_of(store), checkpoint_every=EVERY)
    for i in range(3):
        journal.append({"operation": "accounts.update", "targets": [f"ACC{i}"], "outcome": "ok"})
    forged = append_forged(path, *[{"operation": "accounts.status", "targets": ["NEVER"]}] * 2)
    assert forged == [4, 5]
    journal.close()  # a clean stop: its checkpoint names its own last record, not the head
    found = checkpoints.read(path.with_name("journal.checkpoints.jsonl"))
    assert [(c.seq, c.vouches) for c in found.checkpoints] == [(3, ((1, 3),))]
    result = jr.verify(path, expected_key=fingerprint)
    assert result.ok and result.anchored == 3
    assert result.unauthenticated == [4, 5]
    assert "NOT AUTHENTICATED (the first at seq 4)" in result.summary()
    assert evidence_main(["journal", "verify", str(path), "--fingerprint", fingerprint]) == 0
    out = capsys.readouterr().out
    assert "2 record(s) NOT AUTHENTICATED" in out and "2 record(s) not authenticated" in out

    # The next process appends after the forged records: its checkpoint anchors them (they
    # cannot be cut or changed unseen any more) but vouches only for its own.
    later = jr.Journal(path, signer=signer_of(store), checkpoint_every=EVERY)
    later.append({"operation": "accounts.update", "targets": ["ACC9"], "outcome": "ok"})
    later.close()
    result = jr.verify(path, expected_key=fingerprint)
    assert result.ok and result.anchored == 6 and result.unauthenticated == [4, 5]
    rows = [json.loads(line) for line in path.read_bytes().splitlines()]
    assert not jr.appended_here(path, 4, rows[3]["hash"])
    assert jr.appended_here(path, 6, rows[5]["hash"])  # this process wrote it
    assert not jr.appended_here(path, 6, "0" * 64)


def test_interleaved_processes_vouch_for_their_own_records_together(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str
) -> None:
    """Two programs appending in turn (the desktop and the command line): each checkpoint
    vouches for its writer's records, and together they cover every one."""
    path = tmp_path / "journal.jsonl"
    one = jr.Journal(path, signer=signer_of(store), checkpoint_every=EVERY)
    two = jr.Journal(path, signer=signer_of(store), checkpoint_every=EVERY)
    for writer in (one, one, two, two, one, two, one):
        writer.append({"operation": "accounts.update", "targets": ["A"], "outcome": "ok"})
    two.close()
    one.close()
    found = checkpoints.read(path.with_name("journal.checkpoints.jsonl"))
    assert [(c.seq, c.vouches) for c in found.checkpoints] == [
        (6, ((3, 4), (6, 6))),
        (7, ((1, 2), (5, 5), (7, 7))),
    ]
    jr._WRITERS.clear()  # as a later process sees it
    result = jr.verify(path, expected_key=fingerprint)
    assert result.ok and result.unauthenticated == [] and result.vouched == [(1, 7)]


def test_an_earlier_versions_checkpoint_vouches_for_all_before_it_and_bad_vouches_are_refused(
    tmp_path: Path, store: keys.MemoryStore, fingerprint: str
) -> None:
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path, signer=signer_of(store), checkpoint_every=0)
    for i in range(4):
        journal.append({"operation": "accounts.update", "targets": [f"A{i}"], "outcome": "ok"})
    jr._WRITERS.clear()
    rows = [json.loads(line) for line in path.read_bytes().splitlines()]
    key = keys.signing_key(store)
    cp_path = path.with_name("journal.checkpoints.jsonl")
    cp_path.write_bytes(jr.canonical(checkpoints.make(key, 3, rows[2]["hash"], "stop")) + b"\n")
    result = jr.verify(path, expected_key=fingerprint)
    assert result.ok and result.vouched == [(1, 3)] and result.unauthenticated == [4]
    for bad in ("all", [[1]], [[1, "4"]], [[True, 4]], [[1, 2]] * 10_001):
        line = checkpoints.make(key, 4, rows[3]["hash"], "stop")
        body = {k: v for k, v in line.items() if k != "signature"}
        body["vouches"] = bad
        signature = key.sign(checkpoints.CONTEXT + jr.canonical(body))
        signed = {**body, "signature": base64.b64encode(signature).decode()}
        cp_path.write_bytes(jr.canonical(signed) + b"\n")
        result = jr.verify(path, expected_key=fingerprint)
        assert result.anchor == ["checkpoint line 1 is not a checkpoint"], bad
    # Vouches past its own seq are cut at it.
    line = checkpoints.make(key, 2, rows[1]["hash"], "stop", vouches=[(1, 4)])
    cp_path.write_bytes(jr.canonical(line) + b"\n")
    result = jr.verify(path, expected_key=fingerprint)
    assert result.vouched == [(1, 2)] and result.unauthenticated == [3, 4]
