"""Start-up under Wine: the frozen Windows program against a minimal PySide6 program.

Not one of ``python -m bench.run``'s benchmarks (it needs Wine, the Windows Python and the
Windows bundle): ``packaging/windows/wine.sh bench`` runs it, on the host's Python, with Wine's
prefix and display set up::

    python3 -m bench.wine_startup --exe PATH/portal-admin.exe --python PATH/python.exe

Each side is a fresh ``wine`` process timed from spawn to the marker the start-up probe prints
on the first event-loop turn after the first top-level window is exposed
(``portal_admin.ui.startup.probe``; the program installs it when ``PORTAL_ADMIN_STARTUP_PROBE=1``):
the bundle's ``portal-admin.exe`` as a person starts it, and the one-label program of
``bench/drivers/startup.py`` run by the Windows Python. Both on Qt's ``windows`` platform, on the
display Wine draws into. One warm-up run of each is not counted; the timed runs alternate.
Informative only (the goal, 1.3, is the one of the Linux start-up row): Wine is not Windows.
Standard library only, so that the host's Python runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from .harness import ROOT, Result, at_most, markdown_table

#: ``portal_admin.ui.startup.probe.MARKER`` (that module imports Qt, which the host may lack;
#: tests/bench/test_wine_startup.py holds the two equal).
MARKER = "BENCH-FIRST-WINDOW"
PROBE_ENV = "PORTAL_ADMIN_STARTUP_PROBE"
#: Under Wine a cold start can take long on a loaded machine; a hung side ends the run.
LAUNCH_TIMEOUT = 180.0


def launch(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Seconds from spawn to the marker line, and the window class the probe reported."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        errors="replace",
    )
    assert proc.stdout is not None
    window, elapsed = "", float("nan")
    for line in proc.stdout:
        if line.startswith(MARKER):
            elapsed = time.perf_counter() - start
            window = line.split(maxsplit=1)[1].strip() if " " in line.strip() else "?"
            break
        if time.perf_counter() - start > LAUNCH_TIMEOUT:
            break
    proc.stdout.close()
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if elapsed != elapsed:  # NaN: no marker
        raise RuntimeError(f"{command} showed no window (exit {proc.returncode})")
    return elapsed, window


def measure(sides: dict[str, list[str]], env: dict[str, str], runs: int) -> dict[str, float]:
    """Median seconds per side (a warm-up run each first, then alternating)."""
    for command in sides.values():
        launch(command, env)
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(runs):
        for name, command in sides.items():
            elapsed, window = launch(command, env)
            times[name].append(elapsed)
            if name == "bundle":
                print(f"bundle: {elapsed:.2f} s, first window {window}", file=sys.stderr)
            else:
                print(f"baseline: {elapsed:.2f} s", file=sys.stderr)
    return {name: statistics.median(values) for name, values in times.items()}


def run(exe: Path, python: Path, runs: int) -> list[Result]:
    """The row: the bundle's start-up against the minimal program's, both under Wine."""
    sides = {
        "baseline": ["wine", str(python), "-m", "bench.drivers.startup", "baseline"],
        "bundle": ["wine", str(exe)],
    }
    env = dict(os.environ)
    env[PROBE_ENV] = "1"
    # The Windows test interpreter maps WINEPASS_* onto its environment (wine.sh's shim);
    # the frozen program reads the plain name.
    env["WINEPASS_" + PROBE_ENV] = "1"
    env["WINEPASS_QT_QPA_PLATFORM"] = env["QT_QPA_PLATFORM"] = "windows"
    medians = measure(sides, env, runs)
    return [
        at_most(
            "start-up to first window, Windows bundle under Wine (s)",
            medians["bundle"],
            medians["baseline"],
            "s",
            1.3,
            f"median of {runs}; the PyInstaller bundle's portal-admin.exe under Wine "
            f"(informative: Wine is not Windows); baseline: QApplication + one QLabel by the "
            f"Windows Python under the same Wine, same probe",
        )
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", type=Path, required=True, help="the bundle's portal-admin.exe")
    parser.add_argument("--python", type=Path, required=True, help="the Windows python.exe")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", type=Path, help="write the results here too")
    args = parser.parse_args(argv)
    results = run(args.exe, args.python, args.runs)
    print(markdown_table(results))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "machine": {"host": platform.platform(), "cores": os.cpu_count() or 0},
                    "results": [r.as_dict() for r in results],
                },
                indent=2,
            ),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
