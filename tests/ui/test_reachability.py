"""Every one of the 67 stated operations is reachable from some control of the program.

The UI tests (sign-in, every panel, the app, the kiosk walk) run in a subprocess that records
each operation the client sends while UI code is on the call chain; set-up calls that tests make
directly through the client are not counted. Then all 67 must have been sent.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from portal_admin.protocol.operations import OPERATIONS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_every_operation_is_reachable_from_a_control(tmp_path: Path) -> None:
    record = tmp_path / "operations.txt"
    record.touch()
    suites = [p for p in ("tests/ui", "tests/kiosk") if (ROOT / p).exists()]
    env = {**os.environ, "PORTAL_ADMIN_RECORD_OPS": str(record)}
    result = subprocess.run(
        [
            sys.executable, "-m", "pytest", *suites, "-q", "-p", "no:cacheprovider",
            "--deselect", "tests/ui/test_reachability.py", "-m", "not slow",
        ],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:]
    sent = set(record.read_text(encoding="utf-8").split())
    missing = sorted(set(OPERATIONS) - sent)
    assert not missing, f"{len(missing)} operations no control sends: {missing}"
