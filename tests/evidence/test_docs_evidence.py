"""The first ``sh`` block of docs/evidence.md runs as written against the built-in sandbox."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from support.docs import posix_shell

DOC = Path(__file__).resolve().parents[2] / "docs" / "evidence.md"


def test_the_first_sh_block_runs(tmp_path: Path) -> None:
    block = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)[0]
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "PORTAL_ADMIN_HOME": str(tmp_path / "portal-admin"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }
    done = subprocess.run(
        [posix_shell(), "-e", "-c", block],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "review.zip: intact" in done.stdout
    assert "account changed:" in done.stdout
    journal = [line for line in done.stdout.splitlines() if "journal.jsonl: " in line]
    assert "intact" in journal[-1]  # the journal, with the suspensions in it
    assert (tmp_path / "changes.csv").read_bytes().startswith(b"\xef\xbb\xbf")
