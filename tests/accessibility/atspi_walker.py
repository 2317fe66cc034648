"""Walk portal-admin's accessibility tree through AT-SPI, stop by stop of its tour.

Run by the *system* Python (``/usr/bin/python3``, where Debian's ``python3-pyatspi`` lives),
inside an X server and a D-Bus session (``xvfb-run dbus-run-session``); see
``test_atspi_walk.py``, which starts it, and docs/desktop.md, "Accessibility".

It starts the program (``--app-python -m portal_admin.ui.main --sandbox --tour DIR``) with Qt's
AT-SPI bridge on and the tour's pause handshake (``PORTAL_ADMIN_TOUR_PAUSE``, see
``portal_admin/ui/tour/runner.py``). At every stop it walks the tree of every window of the
application that AT-SPI shows (the main window, dialogs, open menus and popups) and notes:

- every object with the FOCUSABLE state (or a menu entry or a tab) that is SHOWING or VISIBLE
  and has an empty name;
- every table whose columns have no header name (``Table.getColumnDescription`` and
  ``Table.getColumnHeader``); table cells themselves are data, not controls, and are not
  walked.

It writes one JSON report (``--out``): the stops seen, the findings, the tables checked, the
program's exit status and its log tail. It uses only the standard library and pyatspi.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyatspi
from gi.repository import GLib

#: Roles whose children are the table's cells and headers (not walked one by one).
TABLE_ROLES = {pyatspi.ROLE_TABLE, pyatspi.ROLE_TREE_TABLE}
#: Table cells and headers: data, checked through the table's own interface.
CELL_ROLES = {
    pyatspi.ROLE_TABLE_CELL,
    pyatspi.ROLE_TABLE_COLUMN_HEADER,
    pyatspi.ROLE_TABLE_ROW_HEADER,
}
#: Menu entries and tabs: Qt does not mark them FOCUSABLE, yet a screen reader reads them as
#: controls; they are checked as if they were.
ITEM_ROLES = {
    pyatspi.ROLE_MENU_ITEM,
    pyatspi.ROLE_CHECK_MENU_ITEM,
    pyatspi.ROLE_RADIO_MENU_ITEM,
    pyatspi.ROLE_MENU,
    pyatspi.ROLE_PAGE_TAB,
}
#: Popups (menus, tooltips) are not children of the application in Qt's tree: the walker learns
#: of them from their "showing" events and walks those still shown at each stop.
POPUP_ROLES = {
    pyatspi.ROLE_POPUP_MENU,
    pyatspi.ROLE_MENU,
    pyatspi.ROLE_WINDOW,
    pyatspi.ROLE_TOOL_TIP,
}
#: A walk never goes deeper than this (a loop in a broken tree cannot hang it).
MAX_DEPTH = 60


def label(acc: Any) -> str:
    """``role "name"`` of one object, for the paths in the report."""
    try:
        name = acc.name or ""
    except Exception:
        name = "?"
    try:
        role = acc.getRoleName()
    except Exception:
        role = "?"
    return f'{role} "{name}"' if name else role


class Walk:
    """The findings of one stop."""

    def __init__(self, stop: str) -> None:
        self.stop = stop
        self.unnamed: list[dict[str, Any]] = []
        self.tables: list[dict[str, Any]] = []
        self.objects = 0
        self.focusable = 0

    def window(self, window: Any) -> None:
        self.visit(window, [], 0)

    def visit(self, acc: Any, path: list[str], depth: int) -> None:
        if acc is None or depth > MAX_DEPTH:
            return
        try:
            states = acc.getState()
            role = acc.getRole()
            name = (acc.name or "").strip()
        except Exception:  # gone meanwhile (a popup closed)
            return
        shown = states.contains(pyatspi.STATE_SHOWING) or states.contains(pyatspi.STATE_VISIBLE)
        if not shown:
            return  # hidden subtrees: a hidden stack page, a folded pane
        self.objects += 1
        here = label(acc)
        control = states.contains(pyatspi.STATE_FOCUSABLE) or role in ITEM_ROLES
        if control and role not in CELL_ROLES:
            self.focusable += 1
            if not name:
                self.unnamed.append(
                    {
                        "stop": self.stop,
                        "role": acc.getRoleName(),
                        "path": " > ".join(path),
                        "id": accessible_id(acc),
                        "description": safe(lambda: acc.description),
                    }
                )
        if role in TABLE_ROLES:
            self.table(acc, [*path, here])
            return
        try:
            count = acc.childCount
        except Exception:
            return
        for i in range(count):
            try:
                child = acc.getChildAtIndex(i)
            except Exception:
                continue
            self.visit(child, [*path, here], depth + 1)

    def table(self, acc: Any, path: list[str]) -> None:
        """The column headers a screen reader announces for this table."""
        try:
            table = acc.queryTable()
        except NotImplementedError:
            self.tables.append({"stop": self.stop, "path": " > ".join(path), "table": False})
            return
        columns = table.nColumns
        headers = []
        for column in range(columns):
            text = safe(lambda c=column: table.getColumnDescription(c))
            if not text:
                header = safe(lambda c=column: table.getColumnHeader(c))
                text = safe(lambda h=header: h.name) if header is not None else ""
            headers.append(text or "")
        self.tables.append(
            {
                "stop": self.stop,
                "path": " > ".join(path),
                "name": safe(lambda: acc.name),
                "table": True,
                "rows": table.nRows,
                "columns": columns,
                "headers": headers,
            }
        )


def safe(read: Any) -> Any:
    try:
        return read()
    except Exception:
        return ""


def accessible_id(acc: Any) -> str:
    """Qt's object-name path of the widget, where Qt gives one (AT-SPI's AccessibleId)."""
    return safe(lambda: acc.get_accessible_id()) or ""


class Popups:
    """The popups the program showed (from AT-SPI events), for the walk of each stop."""

    def __init__(self) -> None:
        self.seen: list[Any] = []
        pyatspi.Registry.registerEventListener(self.event, "object:state-changed:showing")

    def event(self, event: Any) -> None:
        if event.detail1 and safe(lambda: event.source.getRole()) in POPUP_ROLES:
            self.seen.append(event.source)

    def shown(self, pid: int) -> list[Any]:
        pump()
        shown = []
        for popup in self.seen:
            states = safe(lambda p=popup: p.getState())
            if (
                states
                and states.contains(pyatspi.STATE_SHOWING)
                and safe(lambda p=popup: p.get_process_id()) == pid
                and popup not in shown
            ):
                shown.append(popup)
        self.seen = list(shown)
        return shown


def pump() -> None:
    """Deliver the AT-SPI events received so far."""
    context = GLib.MainContext.default()
    while context.iteration(False):
        pass


def find_application(pid: int) -> Any:
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = safe(lambda i=i: desktop.getChildAtIndex(i))
        if app is not None and safe(lambda a=app: a.get_process_id()) == pid:
            return app
    return None


def walk_stop(pid: int, stop: str, popups: Popups) -> tuple[Walk, int]:
    """Walk every window and shown popup of the program; returns the walk and how many
    windows and popups it had."""
    walk = Walk(stop)
    app = None
    deadline = time.monotonic() + 15
    while app is None and time.monotonic() < deadline:
        app = find_application(pid)
        if app is None:
            time.sleep(0.2)
    if app is None:
        return walk, -1
    windows = app.childCount
    for i in range(windows):
        window = safe(lambda i=i: app.getChildAtIndex(i))
        walk.window(window)
    for popup in popups.shown(pid):
        walk.window(popup)
        windows += 1
    return walk, windows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--app-python", required=True, help="the Python with portal_admin")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--timeout", type=float, default=150.0)
    ns = parser.parse_args()

    pause = ns.workdir / "pause"
    pause.mkdir(parents=True, exist_ok=True)
    home = ns.workdir / "home"
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="xcb",
        QT_ACCESSIBILITY="1",
        QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
        PORTAL_ADMIN_TOUR_PAUSE=str(pause),
        XDG_CONFIG_HOME=str(home / "config"),
        PORTAL_ADMIN_HOME=str(home / "portal-admin"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"),
        # no keyring daemon is started on the walk's D-Bus session (the tour keeps tokens in
        # memory anyway)
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
    )
    command = [ns.app_python, "-m", "portal_admin.ui.main", "--sandbox", "--lang", ns.lang]
    command += ["--tour", str(ns.workdir / "tour")]
    log_path = ns.workdir / "program.log"
    started = time.monotonic()
    report: dict[str, Any] = {"lang": ns.lang, "stops": [], "unnamed": [], "tables": []}
    with log_path.open("w") as log:
        program = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        n = 1
        popups = Popups()
        try:
            while True:
                if time.monotonic() - started > ns.timeout:
                    report["error"] = f"timed out after {ns.timeout:.0f} s at stop {n}"
                    break
                stop_file = pause / f"stop-{n}.json"
                if stop_file.exists():
                    stop = json.loads(stop_file.read_text())["name"]
                    begun = time.monotonic()
                    walk, windows = walk_stop(program.pid, stop, popups)
                    report["stops"].append(
                        {
                            "name": stop,
                            "windows": windows,
                            "objects": walk.objects,
                            "focusable": walk.focusable,
                            "seconds": round(time.monotonic() - begun, 2),
                        }
                    )
                    report["unnamed"] += walk.unnamed
                    report["tables"] += walk.tables
                    (pause / f"done-{n}").touch()
                    n += 1
                    continue
                if (pause / "end.json").exists() or program.poll() is not None:
                    break
                pump()
                time.sleep(0.02)
            if (pause / "end.json").exists():
                report["end"] = json.loads((pause / "end.json").read_text())
            report["returncode"] = program.wait(timeout=30)
        finally:
            if program.poll() is None:
                program.kill()
                program.wait()
    report["seconds"] = round(time.monotonic() - started, 1)
    report["log_tail"] = log_path.read_text(errors="replace")[-4000:]
    ns.out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
