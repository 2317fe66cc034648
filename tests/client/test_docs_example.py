"""The quick-start example of docs/client.md runs as written against the sandbox."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from .sandbox_support import requires_sandbox

DOC = Path(__file__).resolve().parents[2] / "docs" / "client.md"


def quick_start() -> str:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    return str(next(b for b in blocks if "asyncio.run(main())" in b))


@requires_sandbox
def test_quick_start_runs(tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(quick_start(), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-W", "error", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "accounts" in result.stdout
