"""The GUI-thread I/O rule on the source (``tools/gui_thread_io.py``; docs/desktop.md, "File
work and the GUI thread"): ui/ keeps it, every exception is still needed, and the checker finds
each way of breaking it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from gui_thread_io import ALLOWED, UI, check_files, check_source  # noqa: E402 - from tools/


def test_the_desktop_program_keeps_the_rule() -> None:
    findings = check_files(UI.rglob("*.py"))
    assert not findings, "\n".join(map(str, findings))


def test_every_allowed_exception_is_still_in_the_source() -> None:
    """An exception whose function is gone is dropped from the list, not kept to excuse
    another; each says why."""
    functions: set[tuple[str, str]] = set()
    for path in UI.rglob("*.py"):
        rel = path.relative_to(UI).as_posix()
        functions |= {(rel, "*"), (rel.partition("/")[0] + "/*", "*")}
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions |= {
            (rel, node.name)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
    assert set(ALLOWED) <= functions, set(ALLOWED) - functions
    assert all(reason.strip() for reason in ALLOWED.values())


BAD = {
    "open() in a slot": (
        "def save(self):\n    with open(self.path, 'w') as fh:\n        fh.write('x')\n"
    ),
    "Path.write_text": "def save(path):\n    path.write_text('x')\n",
    "Path.read_bytes in a method": (
        "class P:\n    def load(self):\n        return self.path.read_bytes()\n"
    ),
    "sqlite3.connect": "import sqlite3\ndef q(p):\n    return sqlite3.connect(p)\n",
    "shutil": "import shutil\nasync def clean(p):\n    shutil.rmtree(p)\n",
    "os.replace": "import os\ndef swap(a, b):\n    os.replace(a, b)\n",
    "an atomic write": "def save(p, t):\n    atomic_write_text(p, t)\n",
    "a worker call that runs something else": (
        "async def save(self, p):\n    await in_worker(other)\n    p.write_text('x')\n"
    ),
}

GOOD = {
    "a function handed to in_worker": (
        "def write(p):\n    p.write_text('x')\nasync def save(p):\n    await in_worker(write, p)\n"
    ),
    "through partial": (
        "def write(p, t):\n    p.write_text(t)\n"
        "async def save(p):\n    await FileWork(partial(write, p, 't')).run()\n"
    ),
    "a lambda handed to a worker": (
        "async def save(p):\n    await in_worker(lambda: p.write_text('x'))\n"
    ),
    "a thread's target": (
        "def read(p):\n    return p.read_text()\n"
        "def start(p):\n    threading.Thread(target=read, args=(p,)).start()\n"
    ),
    "a Qt dialog's open()": "def ask(dialog):\n    dialog.open()\n",
    "a string's replace()": "def tidy(s):\n    return s.replace('a', 'b')\n",
}


@pytest.mark.parametrize("source", BAD.values(), ids=list(BAD))
def test_the_checker_finds_file_work_on_the_gui_thread(source: str) -> None:
    assert check_source(source, "panels/x.py"), source


@pytest.mark.parametrize("source", GOOD.values(), ids=list(GOOD))
def test_the_checker_leaves_worker_code_alone(source: str) -> None:
    assert check_source(source, "panels/x.py") == []


def test_a_function_another_module_hands_to_a_worker_runs_there(tmp_path: Path) -> None:
    (tmp_path / "notice.py").write_text("def remember(p):\n    p.write_text('x')\n")
    (tmp_path / "user.py").write_text(
        "from . import notice\nasync def go(p):\n    await in_worker(notice.remember, p)\n"
    )
    assert check_files(tmp_path.glob("*.py"), tmp_path) == []
    (tmp_path / "user.py").write_text("from . import notice\ndef go(p):\n    notice.remember(p)\n")
    assert [f.function for f in check_files(tmp_path.glob("*.py"), tmp_path)] == ["remember"]
