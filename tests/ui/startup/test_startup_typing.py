"""Typing into the sign-in window while the program starts is never lost.

The first window shows on Qt's own loop while asyncio and qasync are imported, then qasync
takes the loop over (``ui/startup/loop_bridge.py``). This runs the program's real start-up
(``portal_admin.ui.main.main``) in a fresh interpreter, where asyncio is not imported yet, and
puts key presses into Qt's event queue, as the window system does, at each stage: before the
first paint, at the first paint (while the worker thread imports asyncio), and just before
qasync takes over; then clicks "Sign in" before the asyncio loop runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import json, sys, threading
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
import portal_admin.ui.startup.loop_bridge as bridge
from portal_admin.ui.main import main

EMAIL, PASSWORD = "admin@sandbox.test", "Sandbox-Admin-2026!"
report = {"posted": [], "delivered": [], "clicked_before_loop": None}
state = {}


class Deliveries(QObject):
    # Notes, for each key press the field receives, whether the asyncio loop ran by then.
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.KeyPress:
            importing = any(t.name == "portal-admin-loop-imports" for t in threading.enumerate())
            report["delivered"].append([event.text(), bridge.loop_running(), importing])
        return False


def post(edit, text, stage):
    for ch in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QCoreApplication.postEvent(edit, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, ch))
    report["posted"].append([stage, "asyncio" in sys.modules])


real_show_first = bridge.show_first


def show_first(window, **kw):
    c = window.credentials
    state["window"] = window
    state["filter"] = Deliveries()
    c.email.installEventFilter(state["filter"])
    c.password.installEventFilter(state["filter"])
    post(c.email, EMAIL[:3], "before the first paint")
    window.firstPainted.connect(lambda: post(c.email, EMAIL[3:5], "at the first paint"))
    # then as soon as the worker imports asyncio (it starts on the turn after the paint)
    watch_worker = QTimer()
    watch_worker.setInterval(1)

    def worker_started():
        if any(t.name == "portal-admin-loop-imports" for t in threading.enumerate()):
            watch_worker.stop()
            post(c.email, EMAIL[5:8], "while the worker imports")

    watch_worker.timeout.connect(worker_started)
    window.firstPainted.connect(watch_worker.start)
    took = real_show_first(window, **kw)
    # Qt's loop has ended; qasync has not started yet.
    post(c.email, EMAIL[8:], "before the asyncio loop runs")
    c.password.setFocus()
    post(c.password, PASSWORD, "before the asyncio loop runs")
    QCoreApplication.processEvents()
    report["clicked_before_loop"] = not bridge.loop_running()
    c.sign_in_button.click()  # its sign-in waits for the loop
    report["waiting"] = len(bridge._waiting)
    QTimer.singleShot(0, watch)
    return took


def watch():
    window = state["window"]
    if window.flow.step.value == "mfa" or window.flow.error is not None:
        report["email"] = window.credentials.email.text()
        report["password_kept"] = window.credentials.password.text() == PASSWORD
        report["step"] = window.flow.step.value
        report["error"] = window.flow.error and window.flow.error.code
        print("REPORT " + json.dumps(report), flush=True)
        window.close()
        return
    QTimer.singleShot(20, watch)


bridge.show_first = show_first
sys.exit(main(["--sandbox"]))
"""


def test_keystrokes_and_a_click_during_start_up_are_kept(tmp_path: Path) -> None:
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=str(tmp_path / "c"),
        PORTAL_ADMIN_HOME=str(tmp_path / "portal-admin"),
        XDG_STATE_HOME=str(tmp_path / "s"),
        XDG_DATA_HOME=str(tmp_path / "d"),
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
    )
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
        check=False,
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("REPORT ")]
    assert lines, result.stdout[-2000:] + result.stderr[-3000:]
    report = json.loads(lines[-1].removeprefix("REPORT "))
    assert result.returncode == 0, result.stderr[-3000:]
    # Keys were put in the queue before asyncio was imported, and at the first paint.
    stages = {stage: asyncio for stage, asyncio in report["posted"]}
    assert stages["before the first paint"] is False
    assert stages["at the first paint"] is False
    assert "while the worker imports" in stages
    # Every key reached its field, in order, all before the asyncio loop ran.
    typed = "".join(text for text, _, _ in report["delivered"])
    assert typed == "admin@sandbox.test" + "Sandbox-Admin-2026!"
    assert not any(loop_ran for _, loop_ran, _ in report["delivered"]), report["delivered"]
    # The keys put in while the worker imported asyncio were handled meanwhile.
    assert any(importing for _, _, importing in report["delivered"]), report["delivered"]
    assert report["email"] == "admin@sandbox.test" and report["password_kept"]
    # The click on "Sign in" came before the loop ran and signed in once it did.
    assert report["clicked_before_loop"] is True and report["waiting"] == 1
    assert report["step"] == "mfa", report["error"]
