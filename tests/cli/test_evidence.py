"""The command line's changes are journaled; ``journal verify`` and ``evidence verify`` are the
evidence command's own checks."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Sequence
from pathlib import Path

import pytest

from portal_admin.cli.main import main
from portal_admin.evidence.journal import default_journal_path

from .conftest import ADMIN, ADMIN_PASSWORD, Query


def test_changes_are_journaled_and_the_journal_verifies(
    tmp_path: Path, query: Query, capsys: pytest.CaptureFixture[str]
) -> None:
    some = query("--status", "ACTIVE", "--name", "emma")[:3]
    ids = ",".join(a["id"] for a in some)
    argv = ["--sandbox", "bulk", "update", "--field", "remark", "--value", "journaled"]
    assert main([*argv, "--ids", ids]) == 0
    assert main(["--sandbox", "bulk", "reset-password", "--ids", ids, "--dry-run"]) == 0
    journal = default_journal_path()
    records = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    changes = [r for r in records if r["kind"] == "change"]
    assert [r["operation"] for r in changes] == ["accounts.update"] * 3  # a dry run: none
    assert {r["targets"][0] for r in changes} == {a["id"] for a in some}
    assert {(r["profile"], r["server"], r["account"], r["outcome"]) for r in changes} == {
        ("Sandbox", "http://sandbox.local", ADMIN, "ok")
    }
    assert {r["fields"]["accountRemark"] for r in changes} == {"journaled"}
    assert ADMIN_PASSWORD not in journal.read_text(encoding="utf-8")

    capsys.readouterr()
    assert main(["journal", "verify"]) == 0
    assert f"intact, {len(records)} records" in capsys.readouterr().out
    # an edited record breaks the chain at its line
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1].replace("journaled", "JOURNALED")
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(lines), encoding="utf-8")
    assert main(["journal", "verify", str(edited)]) == 1
    assert "BROKEN at line 2" in capsys.readouterr().out
    other = tmp_path / "notes.txt"
    other.write_text("not a journal\n", encoding="utf-8")
    assert main(["journal", "verify", str(other)]) == 2
    assert main(["journal", "verify", str(tmp_path / "missing.jsonl")]) == 2


def test_evidence_verify_delegates_to_the_evidence_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[list[str]] = []

    def evidence_main(argv: Sequence[str] | None = None) -> int:
        calls.append(list(argv or []))
        return 1  # something was changed

    fake = types.ModuleType("portal_admin.evidence.__main__")
    fake.main = evidence_main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "portal_admin.evidence.__main__", fake)
    assert main(["evidence", "verify", "pack.zip"]) == 1
    assert main(["journal", "verify", "other.jsonl"]) == 1
    assert calls == [["verify", "pack.zip"], ["journal", "verify", "other.jsonl"]]


def test_a_missing_pack_exits_2(tmp_path: Path) -> None:
    """Not a pack (and, before the evidence command verifies packs, its own usage error)."""
    assert main(["evidence", "verify", str(tmp_path / "missing.zip")]) == 2


def test_without_the_evidence_package_it_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "portal_admin.evidence", None)
    monkeypatch.setitem(sys.modules, "portal_admin.evidence.__main__", None)
    assert main(["evidence", "verify", "pack.zip"]) == 2
    assert "it cannot verify evidence" in capsys.readouterr().err
    assert main(["journal", "verify"]) == 2
