"""Running a doc's first ``sh`` block as written, in a fresh folder with the venv's commands
on PATH and the user folders in it (the docs tests share this)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


def first_sh_block(doc: str) -> str:
    """The first ``sh`` block of ``docs/<doc>``."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.*?)```", text, flags=re.S)[0]


def posix_shell() -> str:
    """The ``sh`` that runs the docs' examples; skips where there is none (Windows without a
    POSIX shell: the examples are shell sessions, with sed and grep, as a person on Linux or
    macOS types them; the commands they run are tested on Windows by the CLI tests)."""
    found = shutil.which("sh")
    if found is None:
        pytest.skip("no POSIX shell (sh) here: the docs' examples are POSIX shell sessions")
    return found


def run_block(block: str, folder: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``sh -e`` the block in ``folder``, HOME and the XDG data and config folders there."""
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(folder / "home"),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "PORTAL_ADMIN_HOME": str(folder / "portal-admin"),
    }
    return subprocess.run(
        [posix_shell(), "-e", "-c", block],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
