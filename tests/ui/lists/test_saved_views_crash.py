"""The saved-views file survives a process killed with SIGKILL while writing it: the views
saved before are all there, the one being written is there whole or not at all."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from portal_admin.files.saved_views import ViewStore

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is a POSIX signal")

WRITER = r"""
import os, sys, time
from pathlib import Path
from portal_admin.files import atomic
from portal_admin.files.saved_views import ViewStore

path, mode = Path(sys.argv[1]), sys.argv[2]
store = ViewStore(path, "profile:Production")
real_fsync = os.fsync
if mode == "pause":
    # The worst moment: the new file is written and synced, the rename not done yet.
    def fsync(fd):
        real_fsync(fd)
        print("synced", flush=True)
        time.sleep(30)
    atomic.os.fsync = fsync
wide = {"filters": {"textFilter": "x" * 20000}, "sort": None, "columns": []}
for n in range(100000):
    print(f"saving {n}", flush=True)
    store.save("accounts/accountsList", f"view {n}", wide)
    print(f"saved {n}", flush=True)
"""


def start(tmp_path: Path, mode: str) -> subprocess.Popen[str]:
    script = tmp_path / "writer.py"
    script.write_text(WRITER, encoding="utf-8")
    return subprocess.Popen(
        [sys.executable, str(script), str(tmp_path / "views.json"), mode],
        stdout=subprocess.PIPE,
        text=True,
    )


def kill(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL
    assert child.stdout is not None
    child.stdout.close()


def kept(tmp_path: Path) -> list[str]:
    text = (tmp_path / "views.json").read_text(encoding="utf-8")
    json.loads(text)  # whole, never torn
    return ViewStore(tmp_path / "views.json", "profile:Production").names("accounts/accountsList")


def test_killed_between_the_write_and_the_rename(tmp_path: Path) -> None:
    store = ViewStore(tmp_path / "views.json", "profile:Production")
    store.save("accounts/accountsList", "before", {"filters": {}})
    child = start(tmp_path, "pause")
    assert child.stdout is not None
    assert child.stdout.readline() == "saving 0\n"
    assert child.stdout.readline() == "synced\n"
    kill(child)
    assert kept(tmp_path) == ["before"]
    assert not (tmp_path / "views.json.bad").exists()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_killed_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    child = start(tmp_path, "loop")
    assert child.stdout is not None
    lines = random.Random(seed).randint(5, 60)
    last_saved = -1
    for _ in range(lines):
        line = child.stdout.readline()
        if line.startswith("saved "):
            last_saved = int(line.split()[1])
    kill(child)
    names = kept(tmp_path)
    # Every view saved before the kill is there; the one being written at most in addition.
    assert names[: last_saved + 1] == [f"view {n}" for n in range(last_saved + 1)]
    assert len(names) in (last_saved + 1, last_saved + 2)
    assert not (tmp_path / "views.json.bad").exists()
