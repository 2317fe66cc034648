"""A clean stop writes a signed checkpoint of the journal's head: a command-line command that
journaled, when it ends, and the desktop program's shutdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portal_admin.cli.main import main
from portal_admin.evidence import checkpoints, keys, recorder
from portal_admin.evidence import journal as jr
from portal_admin.ui.startup.shutdown import ShutdownHooks


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch) -> keys.MemoryStore:
    """The process's journals signed with a key in memory (never the OS keyring)."""
    store = keys.MemoryStore()
    monkeypatch.setattr(recorder, "SIGNER", lambda: keys.signing_key(store))
    monkeypatch.setattr(recorder, "_JOURNALS", {})
    return store


def last_checkpoint(journal: Path) -> checkpoints.Checkpoint:
    return checkpoints.read(checkpoints.checkpoints_path(journal)).checkpoints[-1]


def test_a_command_that_journaled_ends_with_a_checkpoint(store: keys.MemoryStore) -> None:
    path = jr.default_journal_path()
    before = len(checkpoints.read(checkpoints.checkpoints_path(path)).checkpoints)
    argv = ["--sandbox", "bulk", "update", "--field", "remark", "--value", "anchored"]
    assert main([*argv, "--all-matching", "--status", "ACTIVE", "--name", "emma"]) == 0
    head = json.loads(path.read_bytes().splitlines()[-1])
    mark = last_checkpoint(path)
    assert (mark.seq, mark.hash, mark.reason, mark.signed) == (
        head["seq"],
        head["hash"],
        "stop",
        True,
    )
    assert mark.fingerprint == keys.fingerprint(keys.signing_key(store).public_key())
    assert jr.verify(path, expected_key=mark.fingerprint).ok
    # A command that journaled nothing writes none.
    count = len(checkpoints.read(checkpoints.checkpoints_path(path)).checkpoints)
    assert count == before + 1
    assert (
        main(["--sandbox", "bulk", "update", *argv[3:], "--ids", head["targets"][0], "--dry-run"])
        == 0
    )
    assert len(checkpoints.read(checkpoints.checkpoints_path(path)).checkpoints) == count


async def test_the_desktop_programs_shutdown_writes_a_checkpoint(
    store: keys.MemoryStore, tmp_path: Path
) -> None:
    path = tmp_path / "journal.jsonl"
    journal = recorder.journal_at(path)
    journal.append({"operation": "accounts.update", "targets": ["ACC1"], "outcome": "ok"})
    await ShutdownHooks().run()
    mark = last_checkpoint(path)
    assert (mark.seq, mark.reason, mark.signed) == (1, "stop", True)
