"""The systemd user units the .deb ships to run ``journal forward`` as a service or on a
timer: well-formed, naming the command and options that exist, and all of them installed."""

from __future__ import annotations

import ast
import configparser
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from portal_admin.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "packaging" / "linux" / "systemd"


def _unit(name: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=True, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNITS / name, encoding="utf-8")
    return parser


def test_the_deb_installs_every_unit() -> None:
    tree = ast.parse((ROOT / "packaging" / "build.py").read_text(encoding="utf-8"))
    (installed,) = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "USER_UNITS" for t in node.targets)
    ]
    assert sorted(installed) == sorted(p.name for p in UNITS.iterdir())


@pytest.mark.parametrize(
    ("name", "once"),
    [("portal-admin-forward.service", False), ("portal-admin-forward-once.service", True)],
)
def test_the_services_run_journal_forward(name: str, once: bool) -> None:
    unit = _unit(name)
    service = unit["Service"]
    assert service["EnvironmentFile"] == "%E/portal-admin/forward.env"
    assert unit["Unit"]["ConditionPathExists"] == service["EnvironmentFile"]
    command = shlex.split(service["ExecStart"])
    assert command[:3] == ["/usr/bin/portal-admin-cli", "journal", "forward"]
    assert ("--once" in command) is once
    # What systemd passes (the variables filled in) is a command line the parser takes.
    filled = [
        {"${PORTAL_ADMIN_FORWARD_TO}": "syslog+tls://siem.example:6514"}.get(word, word)
        for word in command[1:]
        if word != "$PORTAL_ADMIN_FORWARD_OPTIONS"
    ]
    args = build_parser().parse_args([*filled, "--format", "cef", "--ca-bundle", "ca.pem"])
    assert args.handler == "forward:forward" and args.once is once
    if not once:
        assert service["Restart"] == "on-failure" and service["KillSignal"] == "SIGTERM"
        assert unit["Install"]["WantedBy"] == "default.target"
    else:
        assert service["Type"] == "oneshot"


def test_the_timer_starts_the_once_service() -> None:
    timer = _unit("portal-admin-forward.timer")
    assert timer["Timer"]["Unit"] == "portal-admin-forward-once.service"
    assert (UNITS / timer["Timer"]["Unit"]).exists()
    assert timer["Timer"]["OnCalendar"] and timer["Install"]["WantedBy"] == "timers.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is needed")
def test_systemd_reads_them() -> None:
    for path in sorted(UNITS.iterdir()):
        done = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", str(path)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        said = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
        # Where the package is not installed, its command is missing: nothing else may be.
        missing = f"{path.stem}.service: Command /usr/bin/portal-admin-cli is not executable"
        assert all(line.startswith(missing) for line in said), said
        assert done.returncode == 0 or said, said
