"""Start-up: --version without Qt, lazy imports, the tour, --self-check."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from portal_admin import __version__
from portal_admin.ui.panels import register_all
from portal_admin.ui.panels.registry import PanelRegistry
from portal_admin.ui.startup.options import parse_args

#: Imported only once a client is needed (sign-in), never for the first window.
HEAVY = ("portal_admin.sandbox", "portal_admin.client", "fastapi", "uvicorn", "sqlite3", "httpx")


def program_env(tmp_path: Path) -> dict[str, str]:
    return dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=str(tmp_path / "c"),
        PORTAL_ADMIN_HOME=str(tmp_path / "portal-admin"),
        XDG_STATE_HOME=str(tmp_path / "s"),
        XDG_DATA_HOME=str(tmp_path / "d"),
    )


def run_program(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "portal_admin.ui.main", *args],
        capture_output=True,
        text=True,
        env=program_env(tmp_path),
        timeout=120,
        check=False,
    )


def imported(stderr: str) -> set[str]:
    names = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def test_version_without_qt(tmp_path: Path) -> None:
    result = run_program("--version", tmp_path=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"portal-admin {__version__}"
    modules = imported(result.stderr)
    assert "portal_admin.ui.startup.options" in modules
    assert not any(m.startswith(("PySide6", "shiboken6", "qasync")) for m in modules)


FIRST_WINDOW = """
import asyncio, json, sys
import qasync
from portal_admin.ui.app import Application, create_qapp
from portal_admin.ui.startup.options import parse_args
from portal_admin.ui.panels.registry import PANELS
from portal_admin.ui.panels import register_all

qapp = create_qapp(sys.argv[:1])
register_all(PANELS)
app = Application(qapp, parse_args(sys.argv[1:]))

async def main() -> None:
    window = app.start()
    await asyncio.sleep(0.2)
    report = {
        "visible": window.isVisible(),
        "name": window.objectName(),
        "panels": len(PANELS),
        "modules": sorted(sys.modules),
    }
    await app.close()
    print(json.dumps(report))

qasync.run(main())
"""


def first_window(tmp_path: Path, *args: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", FIRST_WINDOW, *args],
        capture_output=True,
        text=True,
        env=program_env(tmp_path),
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return report


def test_first_window_needs_neither_the_client_nor_the_sandbox(tmp_path: Path) -> None:
    for args in ((), ("--sandbox",)):
        report = first_window(tmp_path, *args)
        assert report["visible"] is True and report["name"] == "signInWindow"
        modules = report["modules"]
        assert isinstance(modules, list)
        assert "portal_admin.ui.signin.window" in modules
        assert not [m for m in modules if m.startswith(HEAVY)], args
        lazy = (
            "portal_admin.ui.lists.csv_export",
            "portal_admin.ui.widgets.error_dialog",
            "portal_admin.ui.tour.runner",
            # the main window and the demo mailbox: imported when first opened
            "portal_admin.ui.mainwindow.workspace",
            "portal_admin.ui.mainwindow.window",
            "portal_admin.ui.signin.mailbox",
        )
        assert not [m for m in modules if m.startswith(lazy)]
        # The names must exist, or the check above passes without checking anything.
        assert all(importlib.util.find_spec(name) for name in lazy)


WARM_UP = """
import json, sys
import qasync
import portal_admin.ui.app as A
from portal_admin.ui.startup.options import parse_args

seen = []
real = A.warm_imports


def spy(modules):
    window = app.sign_in_window
    seen.append({
        "modules": list(modules),
        "window_painted": bool(window is not None and window._painted),
        "client_before": "portal_admin.client" in sys.modules,
        "log_file_handler": [type(h).__name__ for h in A.logging.getLogger().handlers],
    })
    thread = real(modules)
    thread.join(120)
    seen[-1]["client_after"] = "portal_admin.client" in sys.modules
    app.request_quit()
    return thread


A.warm_imports = spy
early = A.buffer_logging()
qapp = A.create_qapp(sys.argv[:1])
app = A.Application(qapp, parse_args(sys.argv[1:]), early_log=early)
status = qasync.run(app.main())
print(json.dumps({"status": status, "seen": seen}))
"""


def test_sign_in_modules_are_imported_in_the_background_after_the_first_window(
    tmp_path: Path,
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", WARM_UP, "--sandbox"],
        capture_output=True,
        text=True,
        env=program_env(tmp_path),
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["status"] == 0
    [seen] = report["seen"]  # once
    assert seen["window_painted"] and not seen["client_before"] and seen["client_after"]
    assert seen["modules"] == ["portal_admin.client", "portal_admin.sandbox"]
    assert "RotatingFileHandler" in seen["log_file_handler"]  # the log file is open by then
    assert "EarlyLog" not in seen["log_file_handler"]


def test_sandbox_tour_saves_every_picture(tmp_path: Path) -> None:
    """...and works in a folder of its own: the person's snapshots, journal and jobs are as
    they were, and nothing is left in the temporary folder."""
    tour = tmp_path / "tour"
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    data = tmp_path / "portal-admin" / "data"  # the person's (PORTAL_ADMIN_HOME, program_env)
    (data / "snapshots").mkdir(parents=True)
    mine = data / "snapshots" / "mine.txt"
    mine.write_text("the person's own")
    result = subprocess.run(
        [sys.executable, "-m", "portal_admin.ui.main", "--sandbox", "--tour", str(tour)],
        capture_output=True,
        text=True,
        env=dict(program_env(tmp_path), TMPDIR=str(temporary)),
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert (
        "tour: saved snapshots-diff.png"
        in (tmp_path / "portal-admin" / "log" / "portal-admin.log").read_text()
    )  # the tour took its snapshots...
    # ...elsewhere: the person's data folder is exactly as it was, the config folder untouched
    # (the installation's random id, client/fingerprint.py, is kept in the data folder the
    # program uses, the tour's own during a tour)
    assert sorted(p.relative_to(data).as_posix() for p in data.rglob("*")) == [
        "snapshots",
        "snapshots/mine.txt",
    ]
    assert not (tmp_path / "portal-admin" / "config").exists()
    assert list(temporary.iterdir()) == []  # and its own folder is gone
    panels = {f"{spec.id}.png" for spec in register_all(PanelRegistry())}
    shell = {
        "sign-in.png",
        "sign-in-mfa.png",
        "demo-mailbox.png",
        "main-window.png",
        "change-password.png",
        "profile-editor.png",
        "about.png",
        "error-dialog.png",
        "locked.png",
        "unlock-sign-in.png",
    }
    saved = {p.name for p in tour.iterdir()}
    assert saved >= shell | panels
    assert all((tour / name).stat().st_size > 2000 for name in shell)
    log = (tmp_path / "portal-admin" / "log" / "portal-admin.log").read_text()
    assert f"portal-admin {__version__} starting" in log  # kept until the log file opened
    assert "modules for sign-in imported" in log  # the background warm-up ran
    assert "tour: saved sign-in-mfa.png" in log
    assert "Sandbox-Admin-2026!" not in log


def test_self_check_prints_json(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "portal_admin.ui.main", "--self-check"],
        capture_output=True,
        text=True,
        env=program_env(tmp_path),
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    assert report["version"] == __version__
    assert report["platform"] == "offscreen"
    assert isinstance(report["keyring"]["fail"], bool) and report["keyring"]["backend"]
    translations = report["translations"]
    assert set(translations) == {"en", "zh", "zh-Hant", "ja", "vi"}
    for code in ("zh", "zh-Hant", "ja"):
        assert translations[code]["qtbase"] is True


def test_parse_args() -> None:
    opts = parse_args(["--sandbox", "--lang", "zh-Hant", "--kiosk", "--profile", "Prod"])
    assert opts.sandbox and opts.kiosk and opts.lang == "zh-Hant" and opts.profile == "Prod"
    assert parse_args(["--tour", "x"]).tour == Path("x")
    assert parse_args(["--self-check"]).self_check


def test_start_up_probe_reports_the_first_window(tmp_path: Path) -> None:
    """How bench/ times start-up from outside: the marker on the first turn after the first
    window is exposed, then the process ends (ui/startup/probe.py)."""
    result = subprocess.run(
        [sys.executable, "-m", "portal_admin.ui.main"],
        capture_output=True,
        text=True,
        env=dict(program_env(tmp_path), PORTAL_ADMIN_STARTUP_PROBE="1"),
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "BENCH-FIRST-WINDOW SignInWindow"


TERMINATED_AT_FIRST_WINDOW = """
import os, signal, sys
from portal_admin.ui.startup import loop_bridge

shown = loop_bridge.show_first


def show_first(window):
    os.kill(os.getpid(), signal.SIGTERM)  # the worst moment: before the asyncio loop runs
    return shown(window)


loop_bridge.show_first = show_first
from portal_admin.ui.main import main

sys.exit(main(["--sandbox"]))
"""


@pytest.mark.skipif(
    sys.platform == "win32",
    reason="Windows has no SIGTERM to catch: os.kill(pid, SIGTERM) ends the process at once",
)
def test_sigterm_before_the_event_loop_ends_the_program_cleanly(tmp_path: Path) -> None:
    """A service manager or a session end may stop the program as soon as its window shows."""
    result = subprocess.run(
        [sys.executable, "-c", TERMINATED_AT_FIRST_WINDOW],
        capture_output=True,
        text=True,
        env=program_env(tmp_path),
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    log_file = tmp_path / "portal-admin" / "log" / "portal-admin.log"
    assert "portal-admin stopped (0)" in log_file.read_text(encoding="utf-8")
