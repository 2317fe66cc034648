"""Every one of the 67 stated operations is reachable from some control of the program.

The UI tests (sign-in, every panel, the app, the kiosk walk) record each operation the client
sends while UI code is on the call chain (``tests/support/operations_record.py``); set-up calls
that tests make directly through the client are not counted. Then all 67 must have been sent.

When this session runs every UI test (the full suite, as in CI), this check runs after them
(``tests/conftest.py``) and reads their record; otherwise it runs the UI suites in a
subprocess that records them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from portal_admin.protocol.operations import OPERATIONS
from support.operations_record import SENT, UI_SUITES, whole_ui_suites_run

ROOT = Path(__file__).resolve().parents[2]


def sent_by_a_subprocess_run(tmp_path: Path) -> set[str]:
    """Run the UI suites (not the slow tests) in a subprocess that records what they send."""
    record = tmp_path / "operations.txt"
    record.touch()
    env = {**os.environ, "PORTAL_ADMIN_RECORD_OPS": str(record)}
    result = subprocess.run(
        [
            sys.executable, "-m", "pytest", *UI_SUITES, "-q", "-p", "no:cacheprovider",
            "--deselect", "tests/ui/test_reachability.py", "-m", "not slow",
        ],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:]
    return set(record.read_text(encoding="utf-8").split())


@pytest.mark.slow
def test_every_operation_is_reachable_from_a_control(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    # when this session runs every UI test, they ran before this one
    whole = whole_ui_suites_run(request.session)
    sent = set(SENT) if whole else sent_by_a_subprocess_run(tmp_path)
    missing = sorted(set(OPERATIONS) - sent)
    assert not missing, f"{len(missing)} operations no control sends: {missing}"
