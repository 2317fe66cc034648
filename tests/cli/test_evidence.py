"""The command line's changes are journaled; ``journal verify`` and ``evidence verify`` are the
evidence command's own checks."""

from __future__ import annotations

import json
import zipfile
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


def test_evidence_verify_checks_a_pack(tmp_path: Path) -> None:
    from portal_admin.evidence import keys, pack

    key = keys.signing_key(keys.MemoryStore())
    path = tmp_path / "pack.zip"
    manifest = pack.write_pack(path, "test", {"rows": (["a"], [["1"], ["2"]])}, {}, key)
    assert main(["evidence", "verify", str(path)]) == 3  # a key this installation does not trust
    assert main(["evidence", "verify", str(path), "--fingerprint", manifest["fingerprint"]]) == 0
    assert main(["evidence", "verify", str(path), "--fingerprint", "ab" * 32]) == 1
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp_path / "bad.zip", "w") as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            dst.writestr(info.filename, data + b"!" if info.filename == "rows.csv" else data)
    assert main(["evidence", "verify", str(tmp_path / "bad.zip")]) == 1


def test_a_missing_pack_exits_2(tmp_path: Path) -> None:
    """Not a pack (and, before the evidence command verifies packs, its own usage error)."""
    assert main(["evidence", "verify", str(tmp_path / "missing.zip")]) == 2
