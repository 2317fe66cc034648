"""The first ``sh`` block of docs/cli.md runs as written against the built-in sandbox."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def test_the_first_sh_block_runs(tmp_path: Path) -> None:
    block = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)[0]
    assert "portal-admin-cli --sandbox bulk status" in block and "--dry-run" in block
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
    assert (tmp_path / "suspended.csv").read_text(encoding="utf-8-sig").startswith('"id"')
    plan = (tmp_path / "plan.csv").read_text(encoding="utf-8-sig").splitlines()
    result = (tmp_path / "result.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(plan) == len(result) > 1
    assert all('"done"' in line for line in result[1:])
    listed = done.stdout.splitlines()
    assert listed[0].startswith("id ") and len(listed) == 2 and " finished " in listed[1]
    assert "dry run: nothing was sent" in done.stderr
