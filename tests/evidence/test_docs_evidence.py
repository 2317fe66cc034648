"""The first ``sh`` block of docs/evidence.md runs as written against the built-in sandbox, on
a machine without a usable keyring (the fail backend): the installation key lives in its
owner-only file, signs the pack and the journal's checkpoints, and records cut off the
journal's end are found."""

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

    def shell(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False
        )

    done = shell(posix_shell(), "-e", "-c", block)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "review.zip: intact" in done.stdout
    assert "account changed:" in done.stdout
    journal = [line for line in done.stdout.splitlines() if "journal.jsonl: " in line]
    assert "intact" in journal[-1]  # the journal, with the suspensions in it
    assert (tmp_path / "changes.csv").read_bytes().startswith(b"\xef\xbb\xbf")

    # No keyring, yet the journal is anchored: its checkpoints are signed with the key file's
    # key, and cutting the suspensions off its end is found.
    key_file = tmp_path / "portal-admin" / "data" / "signing-key.pem"
    assert key_file.is_file()
    assert "checkpoint(s), the last at seq" in done.stdout
    assert "not anchored" not in done.stdout
    path = tmp_path / "portal-admin" / "data" / "journal" / "journal.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))  # one whole record less: the chain alone agrees
    cut = shell("portal-admin-cli", "journal", "verify")
    assert cut.returncode == 1, cut.stdout + cut.stderr
    assert "truncated: the last checkpoint names seq" in cut.stdout
