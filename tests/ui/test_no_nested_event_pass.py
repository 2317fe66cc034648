"""No UI code runs a nested Qt event pass (``processEvents()``, a dialog's or menu's
``exec()``) while the asyncio loop runs.

Under qasync a task's step that falls due inside such a pass cannot start ("Cannot enter into
task ... while another task is being executed"): the step is dropped and the task is never
resumed. The mnemonics test once hung on exactly that (a panel's reload left waiting on a
finished ``gather``); :func:`test_a_nested_pass_loses_a_task_step` shows the mechanism.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "src" / "portal_admin" / "ui"
#: Runs Qt's own loop before the asyncio loop exists (start-up's first window).
BEFORE_THE_LOOP = {"startup/loop_bridge.py"}
_NESTED = re.compile(r"\.(processEvents|exec|exec_)\(")


def test_ui_code_never_nests_an_event_pass() -> None:
    found = [
        f"{path.relative_to(UI).as_posix()}:{number}"
        for path in sorted(UI.rglob("*.py"))
        if path.relative_to(UI).as_posix() not in BEFORE_THE_LOOP
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _NESTED.search(line.split("#", 1)[0])
    ]
    assert found == [], "a nested event pass (use open()/show() and signals instead)"
    assert all((UI / where).is_file() for where in BEFORE_THE_LOOP)


#: A task waits on two children whose steps fall due during a nested processEvents().
NESTED_PASS = """
import asyncio
import qasync
from PySide6.QtWidgets import QApplication

app = QApplication([])
loop = qasync.QEventLoop(app)
asyncio.set_event_loop(loop)


async def child():
    await asyncio.sleep(0)


async def waiter():
    await asyncio.gather(child(), child())
    print("resumed", flush=True)


async def main():
    task = asyncio.ensure_future(waiter())
    await asyncio.sleep(0)
    QApplication.processEvents()
    await task


loop.run_until_complete(main())
"""


def test_a_nested_pass_loses_a_task_step(tmp_path: Path) -> None:
    """Why the rule above: the steps due during the nested pass are refused and dropped, and
    the waiting task is never resumed (the program would hang; it is stopped after 3 s)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    with subprocess.Popen(
        [sys.executable, "-c", NESTED_PASS], cwd=tmp_path, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    ) as process:  # fmt: skip
        try:
            out, err = process.communicate(timeout=3)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
    assert "Cannot enter into task" in err, err[-2000:]
    assert "resumed" not in out
