"""Accessibility through the platform's screen-reader interface (AT-SPI).

The program runs its tour (``--tour``) in a real X11 window under Xvfb, on a private D-Bus
session with the AT-SPI bus, with Qt's AT-SPI bridge on. The tour pauses at each of its stops
(every panel, the panels' own dialogs, the sign-in windows, the workspace's dialogs, menus and
the palette) while ``atspi_walker.py``, run by the system Python with Debian's pyatspi, walks
the application's accessibility tree as a screen reader sees it. The walk fails on

- any focusable, shown object without an accessible name;
- any table whose columns have no header a screen reader can announce.

In English and in Japanese. Without Xvfb, dbus-run-session, the AT-SPI bus or pyatspi the
tests are skipped with the reason, except under CI (``CI=true``), where they fail instead.
Needs (Debian): ``xvfb xauth at-spi2-core python3-pyatspi dbus-daemon dbus-bin`` and the xcb
libraries of ``tests/ui/mainwindow/test_real_window.py`` (``.ci/run`` installs them).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from portal_admin.ui.panels import register_all
from portal_admin.ui.panels.registry import PanelRegistry
from support.xvfb import xvfb_run

WALKER = Path(__file__).with_name("atspi_walker.py")
#: The Python that has Debian's pyatspi (python3-pyatspi); not the virtualenv's.
SYSTEM_PYTHON = os.environ.get("PORTAL_ADMIN_ATSPI_PYTHON", "/usr/bin/python3")
#: The AT-SPI bus, started by D-Bus activation on the walk's session bus.
ATSPI_BUS_SERVICE = Path("/usr/share/dbus-1/services/org.a11y.Bus.service")
#: One walk (a whole tour) takes about half a minute; this is its limit.
WALK_TIMEOUT = 150
LANGUAGES = ("en", "ja")
#: Stops every walk must have seen, besides one per registered panel.
SHELL_STOPS = {
    "sign-in",
    "sign-in-mfa",
    "demo-mailbox",
    "main-window",
    "change-password",
    "profile-editor",
    "about",
    "error-dialog",
    "locked",
    "unlock-sign-in",
    "list-menu-1024x700",
    "palette-1024x700",
    "login-history-table",
    "menu-file",
    "menu-view",
    "menu-help",
    "dialog-account-edit",
    "dialog-account-status",
    "dialog-invitation-create",
    "dialog-invitation-cancel",
    "dialog-channel-create",
    "dialog-channel-type-create",
    "dialog-export-options",
    "dialog-view-name",
    "dialog-confirm",
}


def missing_prerequisite() -> str | None:
    """Why the walk cannot run here, or None."""
    if sys.platform != "linux":
        return "AT-SPI and Xvfb are Linux only"
    for tool, package in (("xvfb-run", "xvfb xauth"), ("dbus-run-session", "dbus-bin")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install {package}; .ci/run does it)"
    if not ATSPI_BUS_SERVICE.is_file():
        return "the AT-SPI bus is not installed (apt-get install at-spi2-core; .ci/run does it)"
    if not Path(SYSTEM_PYTHON).is_file():
        return f"{SYSTEM_PYTHON} (with python3-pyatspi) is not there"
    check = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, text=True, check=False
    )
    if check.returncode != 0:
        return (
            f"{SYSTEM_PYTHON} cannot import pyatspi (apt-get install python3-pyatspi; "
            f".ci/run does it): {check.stderr.strip()[-300:]}"
        )
    return None


def require_prerequisites() -> None:
    """Skip with the reason when something is missing; under CI fail instead."""
    reason = missing_prerequisite()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the AT-SPI walk, but {reason}", pytrace=False)
    pytest.skip(reason)


def walk(lang: str, workdir: Path) -> dict[str, Any]:
    """Run the tour under Xvfb and the AT-SPI bus, walking every stop; the walker's report."""
    out = workdir / "report.json"
    env = dict(os.environ)
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"):
        env.pop(var, None)
    command = [
        *xvfb_run(workdir, "1920x1080x24"),
        "dbus-run-session",
        "--",
        SYSTEM_PYTHON,
        str(WALKER),
        "--app-python",
        sys.executable,
        "--lang",
        lang,
        "--workdir",
        str(workdir),
        "--out",
        str(out),
        "--timeout",
        str(WALK_TIMEOUT - 20),
    ]
    result = subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=WALK_TIMEOUT, check=False
    )
    assert out.is_file(), f"the walker wrote no report:\n{result.stdout}\n{result.stderr[-3000:]}"
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    report["walker_stderr"] = result.stderr[-3000:]
    return report


@pytest.fixture(scope="module", params=LANGUAGES)
def report(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    require_prerequisites()
    return walk(request.param, tmp_path_factory.mktemp(f"atspi-{request.param}"))


def where(report: dict[str, Any]) -> str:
    return f"[{report['lang']}] log tail:\n{report['log_tail']}\n{report['walker_stderr']}"


@pytest.mark.slow
def test_the_walk_sees_every_stop(report: dict[str, Any]) -> None:
    assert "error" not in report, report["error"] + where(report)
    assert report["returncode"] == 0, where(report)
    end = report.get("end")
    assert end is not None, "the tour did not finish" + where(report)
    assert end["problems"] == [], where(report)
    stops = [s["name"] for s in report["stops"]]
    assert end["stops"] == len(stops)
    panels = {spec.id for spec in register_all(PanelRegistry())}
    assert set(stops) >= panels | SHELL_STOPS, sorted(panels | SHELL_STOPS - set(stops))
    for stop in report["stops"]:
        # Qt answered through AT-SPI: the program's windows and their controls were seen
        assert stop["windows"] > 0 and stop["focusable"] > 0, stop
    menu = next(s for s in report["stops"] if s["name"] == "list-menu-1024x700")
    layout = next(s for s in report["stops"] if s["name"] == "layout-1024x700")
    assert menu["windows"] > layout["windows"]  # the open context menu was walked too
    assert any(
        t["stop"] == "login-history-table" and t["name"] and t["rows"] > 0 for t in report["tables"]
    ), "the sign-in chart's table was not seen"


@pytest.mark.slow
def test_every_focusable_control_has_a_name(report: dict[str, Any]) -> None:
    unnamed: dict[tuple[str, str, str], list[str]] = {}
    for item in report["unnamed"]:
        key = (item["role"], item["path"], item["id"])
        unnamed.setdefault(key, []).append(item["stop"])
    lines = [
        f"- {role} at {path} (Qt: {qt_id or '?'}), seen at: {', '.join(stops[:4])}"
        + (f" and {len(stops) - 4} more" if len(stops) > 4 else "")
        for (role, path, qt_id), stops in unnamed.items()
    ]
    assert not lines, (
        f"[{report['lang']}] {len(lines)} focusable controls without an accessible name:\n"
        + "\n".join(lines)
    )


@pytest.mark.slow
def test_tables_announce_their_column_headers(report: dict[str, Any]) -> None:
    tables = report["tables"]
    assert len({t["stop"] for t in tables}) >= 15  # the lists of the panels were walked
    bad = [
        t
        for t in tables
        if not t["table"] or t["columns"] == 0 or not all(h.strip() for h in t["headers"])
    ]
    assert not bad, f"[{report['lang']}] tables without column headers:\n" + "\n".join(
        f"- {t['stop']}: {t['path']} headers={t.get('headers')}" for t in bad
    )
