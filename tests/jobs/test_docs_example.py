"""The first python example of docs/bulk.md runs as written against the in-process sandbox."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "bulk.md"


def test_the_example_plans_runs_and_summarizes(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    script = tmp_path / "example.py"
    script.write_text(blocks[0], encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-W", "error", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    planned = int(re.search(r"planned: (\d+)", result.stdout).group(1))  # type: ignore[union-attr]
    done = int(re.search(r"done: (\d+)", result.stdout).group(1))  # type: ignore[union-attr]
    assert planned > 0 and done == planned
    assert "failed: 0" in result.stdout and "state: finished" in result.stdout
