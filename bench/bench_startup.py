"""Start-up: launch to a shown, responsive first window, against a minimal PySide6 program.

Each side is a fresh process timed from spawn to the marker it prints on the first event-loop
turn after its first top-level window is exposed (``portal_admin.ui.startup.probe``; the
program installs it when ``PORTAL_ADMIN_STARTUP_PROBE=1``). The sides: the minimal PySide6
program (one label), the same on our stack's floor (a qasync loop), and the program as a person
launches it: the venv's ``portal-admin`` launcher and the PyInstaller bundle's. One warm-up run
of each side (disk cache, bytecode) is not counted; the timed runs alternate the sides.

They run offscreen, and again on a real X server (Xvfb) when one can be started. The bundle is
``$PORTAL_ADMIN_BENCH_BUNDLE``, else ``dist/portal-admin`` when built, else built for the run
(``packaging/build.py``, bundle only; not in smoke mode).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from portal_admin.ui.startup.probe import MARKER
from portal_admin.ui.startup.qapp import PROBE_ENV

from . import harness
from .harness import ROOT, Result, at_most, bench_env, bench_home, informative, pick

PROGRAM = "portal-admin"


def launch(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Seconds from spawn to the marker line, and the window class the probe reported."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert proc.stdout is not None
    window = ""
    elapsed = float("nan")
    for line in proc.stdout:
        if line.startswith(MARKER):
            elapsed = time.perf_counter() - start
            window = line.split(maxsplit=1)[1].strip() if " " in line.strip() else "?"
            break
    proc.stdout.close()
    proc.wait(timeout=60)
    if elapsed != elapsed:  # NaN: no marker
        raise RuntimeError(f"{command} showed no window (exit {proc.returncode})")
    return elapsed, window


def venv_launcher() -> list[str]:
    """The venv's ``portal-admin`` script, as a person starts it (else the module)."""
    script = Path(sys.executable).with_name(PROGRAM)
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "portal_admin.ui.main"]


def bundle_launcher() -> tuple[list[str] | None, str]:
    """The bundle's launcher and where it came from (None: none, and why)."""
    given = os.environ.get("PORTAL_ADMIN_BENCH_BUNDLE")
    if given:
        return [given], "the given bundle"
    built = ROOT / "dist" / PROGRAM / PROGRAM
    if built.is_file():
        return [str(built)], "dist/portal-admin"
    if harness.SMOKE:
        return None, "not built (smoke mode builds none)"
    dist, work = bench_home() / "bundle", bench_home() / "bundle-work"
    shutil.rmtree(dist, ignore_errors=True)
    started = time.perf_counter()
    build = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "build.py"), "--skip-deb", "--skip-wheel",
         "--dist", str(dist), "--work", str(work)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    launcher = dist / PROGRAM / PROGRAM
    if build.returncode != 0 or not launcher.is_file():
        print(build.stdout[-2000:], build.stderr[-2000:], file=sys.stderr)
        return None, f"the build failed (exit {build.returncode})"
    return [str(launcher)], f"built for this run in {time.perf_counter() - started:.0f} s"


@contextlib.contextmanager
def x_server() -> Iterator[str | None]:
    """A private Xvfb display for the run (None when Xvfb is not installed or will not start)."""
    if shutil.which("Xvfb") is None or not sys.platform.startswith("linux"):
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="portal-admin-xvfb-") as tmp:
        ready_r, ready_w = os.pipe()
        server = subprocess.Popen(
            ["Xvfb", "-displayfd", str(ready_w), "-screen", "0", "1920x1080x24", "-nolisten",
             "tcp", "-auth", str(Path(tmp) / "auth")],
            pass_fds=(ready_w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        os.close(ready_w)
        with os.fdopen(ready_r) as ready:
            number = ready.readline().strip()
        try:
            yield f":{number}" if number else None
        finally:
            server.terminate()
            server.wait(timeout=10)


def measure(
    sides: dict[str, list[str]], env: dict[str, str], runs: int
) -> tuple[dict[str, float], str]:
    """Median seconds per side (alternating), and the window class the program showed."""
    for command in sides.values():  # warm-up: disk cache and bytecode
        launch(command, env)
    times: dict[str, list[float]] = {name: [] for name in sides}
    window = ""
    for _ in range(runs):
        for name, command in sides.items():
            elapsed, shown = launch(command, env)
            times[name].append(elapsed)
            if name == "venv":
                window = shown
    return {name: statistics.median(values) for name, values in times.items()}, window


def rows(
    medians: dict[str, float], where: str, runs: int, window: str, bundle: str
) -> list[Result]:
    """The rows of one display: the venv and the bundle against the minimal program (goal),
    the venv against our stack's floor (informative)."""
    base, suffix = medians["baseline"], "" if where == "offscreen" else f", {where}"
    found = [
        at_most(
            f"start-up to first window, venv (s){suffix}",
            medians["venv"],
            base,
            "s",
            1.3,
            f"median of {runs}; the venv's portal-admin launcher; first window: {window}; "
            "baseline: QApplication + one QLabel, same probe",
        ),
        informative(
            f"start-up, venv vs our stack's floor (s){suffix}",
            medians["venv"],
            medians["stack"],
            "s",
            "baseline: the one-label program on a qasync loop, Qt namespace used",
        ),
    ]
    if "bundle" in medians:
        found.insert(
            1,
            at_most(
                f"start-up to first window, bundle (s){suffix}",
                medians["bundle"],
                base,
                "s",
                1.3,
                f"median of {runs}; the PyInstaller bundle ({bundle}); baseline as above",
            ),
        )
    return found


def run(quick: bool) -> list[Result]:
    runs = pick(quick, 5, 11)
    module = [sys.executable, "-m", "bench.drivers.startup"]
    sides = {
        "baseline": [*module, "baseline"],
        "stack": [*module, "stack"],
        "venv": venv_launcher(),
    }
    bundle, origin = bundle_launcher()
    if bundle is not None:
        sides["bundle"] = bundle
    results: list[Result] = []
    env = bench_env(None, **{PROBE_ENV: "1", "QT_QPA_PLATFORM": "offscreen"})
    medians, window = measure(sides, env, runs)
    results += rows(medians, "offscreen", runs, window, origin)
    if harness.SMOKE:
        return results
    with x_server() as display:
        if display is not None:
            xenv = bench_env(None, **{PROBE_ENV: "1", "QT_QPA_PLATFORM": "xcb", "DISPLAY": display})
            xenv.pop("WAYLAND_DISPLAY", None)
            medians, window = measure(sides, xenv, runs)
            results += rows(medians, "Xvfb", runs, window, origin)
    if bundle is None:
        print(f"start-up: no bundle timed: {origin}", file=sys.stderr)
    return results
