"""The first ``sh`` block of docs/reviews.md runs as written against the built-in sandbox:
create from a fresh snapshot, decide by CSV (a Revoke among them), sign, verify, remediate,
close, pack and verify the pack. The installation's key is kept in a file-backed keyring of
the test's own (``file_keyring.py``), never in the real one; and, with no usable keyring
(the fail backend: a kiosk image, a server, a CI runner), in the owner-only key file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.docs import posix_shell

DOC = Path(__file__).resolve().parents[2] / "docs" / "reviews.md"


@pytest.mark.parametrize("backend", ["file_keyring.FileKeyring", "keyring.backends.fail.Keyring"])
def test_the_first_sh_block_runs(tmp_path: Path, backend: str) -> None:
    block = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)[0]
    assert "review create --sandbox" in block and ",Revoke," in block
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "PORTAL_ADMIN_HOME": str(tmp_path / "portal-admin"),
        "PYTHONPATH": str(Path(__file__).parent),
        "PYTHON_KEYRING_BACKEND": backend,
        "REVIEW_TEST_KEYRING": str(tmp_path / "keyring.json"),
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
    assert "2 decisions recorded by reviewer@example.test" in done.stderr
    assert "q4.review: intact" in done.stdout
    assert "revoked and done: 1" in done.stdout
    result = (tmp_path / "result.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(result) == 2 and '"done"' in result[1]
    assert "q4-evidence.zip: intact" in done.stdout
    assert "this installation's key" in done.stdout
    key_file = tmp_path / "portal-admin" / "data" / "signing-key.pem"
    if backend.startswith("file_keyring"):
        assert (tmp_path / "keyring.json").is_file() and not key_file.exists()
    else:
        assert key_file.is_file() and not (tmp_path / "keyring.json").exists()
        assert done.stderr.count("signing key was made in the key file") == 1
