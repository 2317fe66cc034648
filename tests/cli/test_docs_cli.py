"""The first ``sh`` block of docs/cli.md runs as written against the built-in sandbox."""

from __future__ import annotations

from pathlib import Path

from support.docs import first_sh_block, run_block


def test_the_first_sh_block_runs(tmp_path: Path) -> None:
    block = first_sh_block("cli.md")
    assert "portal-admin-cli --sandbox bulk status" in block and "--dry-run" in block
    done = run_block(block, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "suspended.csv").read_text(encoding="utf-8-sig").startswith('"id"')
    plan = (tmp_path / "plan.csv").read_text(encoding="utf-8-sig").splitlines()
    result = (tmp_path / "result.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(plan) == len(result) > 1
    assert all('"done"' in line for line in result[1:])
    listed = done.stdout.splitlines()
    assert listed[0].startswith("id ") and len(listed) == 2 and " finished " in listed[1]
    assert "dry run: nothing was sent" in done.stderr
