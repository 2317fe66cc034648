"""Start-up: launch to a shown, responsive first window, against a minimal PySide6 program.

Each side is a fresh process (``bench.drivers.startup``) timed from spawn to the marker it
prints on the first event-loop turn after its first top-level window is exposed. One warm-up
run of each side (disk cache, bytecode) is not counted; the timed runs alternate the two sides.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from .drivers.firstwindow import MARKER
from .harness import ROOT, Result, at_most, bench_env, pick


def launch(mode: str, env: dict[str, str]) -> tuple[float, str]:
    """Seconds from spawn to the marker line, and the window class the driver reported."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.drivers.startup", mode],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
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
        raise RuntimeError(f"startup driver {mode!r} showed no window (exit {proc.returncode})")
    return elapsed, window


def run(quick: bool) -> list[Result]:
    runs = pick(quick, 5, 11)
    env = bench_env()
    for mode in ("baseline", "stack", "app"):  # warm-up: disk cache and bytecode
        launch(mode, env)
    base: list[float] = []
    stack: list[float] = []
    app: list[float] = []
    window = ""
    for _ in range(runs):
        base.append(launch("baseline", env)[0])
        stack.append(launch("stack", env)[0])
        elapsed, window = launch("app", env)
        app.append(elapsed)
    return [
        at_most(
            "start-up to first window responsive (s)",
            statistics.median(app),
            statistics.median(base),
            "s",
            1.3,
            f"median of {runs}; first window: {window}; baseline: QApplication + one QLabel",
        ),
        at_most(
            "start-up vs our stack's floor (s)",
            statistics.median(app),
            statistics.median(stack),
            "s",
            1.3,
            "baseline: the same one-label program on a qasync loop, Qt namespace used",
        ),
    ]
