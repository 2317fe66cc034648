"""Start-up: --version without Qt, lazy imports, the tour, clean shutdown."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from portal_admin import __version__
from portal_admin.ui.options import parse_args


def run_program(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=str(tmp_path / "c"),
        XDG_STATE_HOME=str(tmp_path / "s"),
        XDG_DATA_HOME=str(tmp_path / "d"),
    )
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "portal_admin.ui.main", *args],
        capture_output=True,
        text=True,
        env=env,
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
    assert "portal_admin.ui.options" in modules
    assert not any(m.startswith(("PySide6", "shiboken6", "qasync")) for m in modules)


def test_tour_starts_without_sandbox_and_saves_pictures(tmp_path: Path) -> None:
    result = run_program("--tour", str(tmp_path / "tour"), tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    modules = imported(result.stderr)
    assert "portal_admin.ui.main_window" in modules
    heavy = ("portal_admin.sandbox", "fastapi", "uvicorn", "sqlite3", "httpx")
    assert not [m for m in modules if m.startswith(heavy)]
    lazy = ("portal_admin.ui.csv_export", "portal_admin.ui.error_dialog")
    assert not [m for m in modules if m.startswith(lazy)]
    assert {p.name for p in (tmp_path / "tour").iterdir()} >= {
        "main-window.png",
        "profile-editor.png",
        "locked.png",
    }
    assert (tmp_path / "s" / "portal-admin" / "log" / "portal-admin.log").is_file()


def test_parse_args() -> None:
    opts = parse_args(["--sandbox", "--lang", "zh-Hant", "--kiosk", "--profile", "Prod"])
    assert opts.sandbox and opts.kiosk and opts.lang == "zh-Hant" and opts.profile == "Prod"
    assert parse_args(["--tour", "x"]).tour == Path("x")
