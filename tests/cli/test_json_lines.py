"""``--format json`` wherever output may be piped: JSON lines (one object a line) on standard
output or in ``--out``, the words for people on standard error; a dry run lists its targets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portal_admin import jobs
from portal_admin.cli.main import main

EMMA = ["--all-matching", "--status", "ACTIVE", "--name", "emma"]
SUSPEND = ["--sandbox", "bulk", "status", "--action", "suspend", "--reason", "audit", *EMMA]


def _lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def test_a_dry_run_lists_its_targets_for_a_person(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SUSPEND, "--dry-run"]) == 0
    captured = capsys.readouterr()
    listed = captured.out.splitlines()
    planned = int(captured.err.split("plan: ")[1].split(" to change")[0])
    assert planned and len([line for line in listed if "ACTIVE -> SUSPENDED" in line]) == planned
    assert all("emma" in line.split("\t")[0] for line in listed)
    assert jobs.list_jobs() == []


def test_a_dry_run_and_a_run_as_json_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*SUSPEND, "--dry-run", "--format", "json"]) == 0
    plan = _lines(capsys.readouterr().out)
    assert plan and {(p["current"], p["new"]) for p in plan} == {("ACTIVE", "SUSPENDED")}
    assert set(plan[0]) == {"target_id", "target", "current", "new", "skipped_because"}

    out = tmp_path / "result.jsonl"
    assert main([*SUSPEND, "--format", "json", "--out", str(out)]) == 0
    result = _lines(out.read_text("utf-8"))
    assert {r["target_id"] for r in result} == {p["target_id"] for p in plan}
    assert {r["outcome"] for r in result} == {"done"}
    (job_path,) = jobs.list_jobs()
    assert job_path.with_name(job_path.name.split(".")[0] + ".result.csv").exists()

    capsys.readouterr()
    assert main(["jobs", "list", "--format", "json"]) == 0
    (summary,) = _lines(capsys.readouterr().out)
    assert summary["done"] == len(plan) and summary["state"] == "finished"
    assert main(["jobs", "show", str(summary["id"]), "--format", "json"]) == 0
    assert _lines(capsys.readouterr().out) == result


def test_the_doctor_takes_format_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--sandbox", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["steps"]
