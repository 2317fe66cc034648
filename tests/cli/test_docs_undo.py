"""The first ``sh`` block of docs/undo.md runs as written against the built-in sandbox: a bulk
suspension, its revert, and a query showing the accounts active again."""

from __future__ import annotations

import csv
from pathlib import Path

from support.docs import first_sh_block, run_block


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def test_the_first_sh_block_runs(tmp_path: Path) -> None:
    block = first_sh_block("undo.md")
    assert "bulk status --action suspend" in block and "jobs revert" in block
    done = run_block(block, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    suspended = {r["target id"] for r in rows(tmp_path / "suspended.csv") if r["outcome"] == "done"}
    assert suspended
    plan = rows(tmp_path / "revert-plan.csv")
    assert {r["target id"] for r in plan} == suspended
    assert {(r["before"], r["after"], r["now"]) for r in plan} == {
        ("ACTIVE", "SUSPENDED", "SUSPENDED")
    }
    assert {r["outcome"] for r in rows(tmp_path / "reverted.csv")} == {"done"}
    status = {r["id"]: r["status"] for r in rows(tmp_path / "emma.csv")}
    assert all(status[t] == "ACTIVE" for t in suspended)
    assert "dry run: nothing was sent" in done.stderr
