"""The first ``sh`` block of docs/undo.md runs as written against the built-in sandbox: a bulk
suspension, its revert, and a query showing the accounts active again."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "undo.md"


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def test_the_first_sh_block_runs(tmp_path: Path) -> None:
    block = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)[0]
    assert "bulk status --action suspend" in block and "jobs revert" in block
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    done = subprocess.run(
        ["sh", "-e", "-c", block],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
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
