"""``--format json`` of the reports (``review status``, ``journal verify``, ``evidence verify``)
and of the reverts and the remediation (their plan and their result): JSON lines on standard
output, each line an object whose fields docs/cli.md names."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest

from portal_admin.cli.main import main
from portal_admin.cli.revert import PLAN_KEYS
from portal_admin.cli.running import result_path
from portal_admin.evidence import journal as journal_file
from reviews.support import INVITATIONS, ROLES, account, make_snapshot

from .conftest import Query, rows
from .test_jobs import paused_job
from .test_revert import suspend_emmas
from .test_review import os_keyring  # noqa: F401 (autouse: a keyring of the test's own)

DOCS = Path(__file__).parents[2] / "docs" / "cli.md"
PLAN = {"target_id", "target", "current", "new", "skipped_because"}
RESULT = {"target_id", "target", "before", "after", "outcome", "error_code", "request_id"}


def json_lines(text: str) -> list[dict[str, Any]]:
    """Every line of ``text`` parsed as one JSON object."""
    found = [json.loads(line) for line in text.splitlines()]
    assert found and all(isinstance(record, dict) for record in found), text
    return found


def documented(record: dict[str, Any]) -> None:
    """Every field of ``record`` (and of the objects in its lists) is named in docs/cli.md."""
    named = set(re.findall(r"`([a-z_]+)`", DOCS.read_text(encoding="utf-8")))
    fields = set(record)
    for value in record.values():
        if isinstance(value, list):
            fields |= {key for each in value if isinstance(each, dict) for key in each}
    assert fields <= named, sorted(fields - named)


def test_review_status_as_one_json_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    people = [account(n) for n in range(1, 4)]
    scope = make_snapshot(tmp_path / "scope.sqlite3", people, ROLES, INVITATIONS)
    campaign = str(tmp_path / "q4.review")
    argv = ["review", "create", campaign, "--name", "Q4", "--due", "2026-12-31"]
    assert main([*argv, "--snapshot", str(scope)]) == 0
    reviewer = ["--reviewer", "ana@example.test"]
    decide = ["review", "decide", campaign, "--item", "account:ACC000001", "--decision", "keep"]
    assert main([*decide, *reviewer]) == 0
    assert main(["review", "sign", campaign, *reviewer, "--allow-undecided"]) == 0
    capsys.readouterr()
    assert main(["review", "status", campaign]) == 0
    text = capsys.readouterr().out
    assert main(["review", "status", campaign, "--format", "json"]) == 0
    (record,) = json_lines(capsys.readouterr().out)
    assert (record["campaign"], record["due"], record["closed"]) == ("Q4", "2026-12-31", False)
    assert f"items: {record['totals']['items']:,}" in text and record["totals"]["decided"] == 1
    (signed,) = record["signoffs"]
    assert signed["reviewer"] == "ana@example.test" and signed["fingerprint"] in text
    documented(record)


def test_journal_verify_as_one_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--sandbox", "bulk", "update", "--field", "remark", "--value", "json"]
    assert main([*argv, "--all-matching", "--name", "emma"]) == 0
    capsys.readouterr()
    assert main(["journal", "verify", "--format", "json"]) == 0
    (record,) = json_lines(capsys.readouterr().out)
    path = journal_file.default_journal_path()
    assert record["ok"] is True and record["journal"] == str(path)
    assert record["records"] == len(path.read_text(encoding="utf-8").splitlines())
    documented(record)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join([lines[0], lines[1].replace("json", "JSON"), *lines[2:]]), "utf-8")
    assert main(["journal", "verify", str(edited), "--format", "json"]) == 1
    (broken,) = json_lines(capsys.readouterr().out)
    assert broken["ok"] is False and broken["problems"][0]["line"] == 2
    documented(broken)


def test_evidence_verify_as_one_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from portal_admin.evidence import keys, pack

    key = keys.signing_key(keys.MemoryStore())
    path = tmp_path / "pack.zip"
    manifest = pack.write_pack(path, "test", {"rows": (["a"], [["1"], ["2"]])}, {}, key)
    assert main(["evidence", "verify", str(path), "--format", "json"]) == 3
    (untrusted,) = json_lines(capsys.readouterr().out)
    assert (untrusted["status"], untrusted["trust"]) == ("untrusted", "untrusted")
    assert untrusted["fingerprint"] == manifest["fingerprint"]
    pinned = ["--fingerprint", manifest["fingerprint"]]
    assert main(["evidence", "verify", str(path), *pinned, "--format", "json"]) == 0
    (intact,) = json_lines(capsys.readouterr().out)
    assert (intact["status"], intact["trust"], intact["problems"]) == ("intact", "pinned", [])
    documented(intact)
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp_path / "bad.zip", "w") as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            dst.writestr(info.filename, data + b"!" if info.filename == "rows.csv" else data)
    assert main(["evidence", "verify", str(tmp_path / "bad.zip"), "--format", "json"]) == 1
    (changed,) = json_lines(capsys.readouterr().out)
    assert changed["status"] == "changed" and "changed: rows.csv" in changed["problems"]


def test_a_job_revert_takes_format_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job_id, targets = suspend_emmas(tmp_path, capsys)
    revert = ["--sandbox", "jobs", "revert", job_id, "--format", "json"]
    assert main([*revert, "--dry-run"]) == 0
    plan = json_lines(capsys.readouterr().out)
    assert set(plan[0]) == set(PLAN_KEYS)
    assert {p["target_id"] for p in plan} == set(targets)
    assert {(p["before"], p["after"], p["plan"]) for p in plan} == {
        ("ACTIVE", "SUSPENDED", "planned")
    }
    documented(plan[0])
    assert main(revert) == 0
    result = json_lines(capsys.readouterr().out)
    assert set(result[0]) >= RESULT and {r["outcome"] for r in result} == {"done"}
    assert {r["target_id"] for r in result} == set(targets)


def test_a_journal_revert_takes_format_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, targets = suspend_emmas(tmp_path, capsys)
    seq = max(
        r["seq"]
        for r in journal_file.read()
        if r["kind"] == "change" and r["operation"] == "accounts.status"
    )
    revert = ["--sandbox", "journal", "revert", str(seq), "--format", "json"]
    assert main([*revert, "--dry-run"]) == 0
    (line,) = json_lines(capsys.readouterr().out)
    assert line["plan"] == "planned" and line["journal_records"] == str(seq)
    out = tmp_path / "reverted.jsonl"
    assert main([*revert, "--out", str(out)]) == 0
    (result,) = json_lines(out.read_text(encoding="utf-8"))
    assert result["outcome"] == "done" and result["target_id"] in targets


def test_a_remediation_takes_format_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = tmp_path / "q4.review"
    assert main(["review", "create", "--sandbox", str(campaign), "--name", "Q4"]) == 0
    items = tmp_path / "items.csv"
    assert main(["review", "status", str(campaign), "--items", str(items), "--undecided"]) == 0
    target = next(r for r in rows(items) if r["status"] == "ACTIVE" and r["kind"] == "account"
                  and r["label"] != "admin@sandbox.test")  # fmt: skip
    reviewer = ["--reviewer", "ana@example.test"]
    decide = ["review", "decide", str(campaign), "--item", target["id"], "--decision", "revoke"]
    assert main([*decide, "--justification", "left", *reviewer]) == 0
    assert main(["review", "sign", str(campaign), *reviewer, "--allow-undecided"]) == 0
    capsys.readouterr()
    remediate = ["review", "remediate", "--sandbox", str(campaign), "--format", "json"]
    assert main([*remediate, "--dry-run"]) == 0
    (planned,) = json_lines(capsys.readouterr().out)
    assert set(planned) == PLAN and (planned["current"], planned["new"]) == ("ACTIVE", "SUSPENDED")
    documented(planned)
    assert main(remediate) == 0
    (done,) = json_lines(capsys.readouterr().out)
    assert done["target_id"] == planned["target_id"] and done["outcome"] == "done"
    documented(done)


def test_a_resumed_job_as_json_lines_keeps_its_result_csv(
    query: Query, capsys: pytest.CaptureFixture[str]
) -> None:
    """``jobs resume --format json`` without ``--out``: the JSON lines on standard output, the
    result CSV beside the job file (the JSON lines were written over it)."""
    job = paused_job(query("--status", "ACTIVE", "--name", "emma")[:2], "resumed")
    job_id, beside = job.id, result_path(job, None)
    job.close()
    capsys.readouterr()
    assert main(["jobs", "resume", job_id, "--format", "json"]) == 0
    result = json_lines(capsys.readouterr().out)
    assert [r["outcome"] for r in result] == ["done", "done"]
    documented(result[0])
    assert [r["outcome"] for r in rows(beside)] == ["done", "done"]


def test_text_from_a_file_is_escaped_in_json_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A campaign named with what a terminal obeys (CSI, a bidirectional override): its JSON
    line escapes them (JSON escapes only the ASCII controls itself), and reads back the same."""
    hostile = "Q4\x9b2K\u202eintact\u2028ok"
    scope = make_snapshot(tmp_path / "scope.sqlite3", [account(1)], ROLES, INVITATIONS)
    campaign = str(tmp_path / "q4.review")
    argv = ["review", "create", campaign, "--name", hostile, "--snapshot", str(scope)]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(["review", "status", campaign, "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\n") and out[:-1].isprintable() and "\\u009b2K\\u202e" in out
    (record,) = json_lines(out)
    assert record["campaign"] == hostile
