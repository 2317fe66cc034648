"""``accounts query`` against the built-in sandbox: every page, filters, CSV and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portal_admin.cli.main import main

from .conftest import Query, rows


def test_every_page_as_csv_to_a_file(tmp_path: Path, query: Query) -> None:
    out = tmp_path / "suspended.csv"
    argv = ["--sandbox", "accounts", "query", "--status", "SUSPENDED", "--format", "csv"]
    assert main([*argv, "--out", str(out)]) == 0
    suspended = rows(out)
    assert len(suspended) > 100  # more than one page of the client's 100
    assert {r["status"] for r in suspended} == {"SUSPENDED"}
    assert len({r["id"] for r in suspended}) == len(suspended)
    assert [r["id"] for r in suspended] == [a["id"] for a in query("--status", "SUSPENDED")]


def test_json_to_standard_output_and_options_after_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["accounts", "query", "--sandbox", "--status", "ACTIVE", "--name", "emma"]
    assert main([*argv, "--format", "json", "--sort", "accountEmail,desc"]) == 0
    captured = capsys.readouterr()
    printed = [json.loads(line) for line in captured.out.splitlines()]  # JSON lines
    assert printed and all(a["status"] == "ACTIVE" for a in printed)
    assert [a["email"] for a in printed] == sorted((a["email"] for a in printed), reverse=True)
    assert f"{len(printed)} accounts" in captured.err


def test_semicolons_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--sandbox", "accounts", "query", "--email", "emma", "--delimiter", "semicolon"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith('"id";"email";"name";"status"')
    assert len(lines) > 1 and all("emma" in line.lower() for line in lines[1:])
