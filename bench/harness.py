"""Shared pieces of the benchmarks: timing, results, the table, and running helpers."""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

#: The repository root (the benchmarks' subprocesses run from here).
ROOT = Path(__file__).resolve().parent.parent

#: Set by ``python -m bench.run --smoke``: one repetition at toy scale (the test of the bench).
SMOKE = False


@dataclass(frozen=True)
class Result:
    """One measured ratio against its same-run baseline."""

    name: str
    measured: float
    baseline: float
    unit: str
    ratio: float
    goal: str
    met: bool
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def at_most(
    name: str, measured: float, baseline: float, unit: str, limit: float, note: str = ""
) -> Result:
    """A result whose ratio measured/baseline must stay at or below ``limit``."""
    ratio = measured / baseline if baseline else float("inf")
    return Result(name, measured, baseline, unit, ratio, f"<= {limit:g}", ratio <= limit, note)


def at_least(
    name: str, measured: float, baseline: float, unit: str, limit: float, note: str = ""
) -> Result:
    """A result whose ratio measured/baseline must stay at or above ``limit``."""
    ratio = measured / baseline if baseline else 0.0
    return Result(name, measured, baseline, unit, ratio, f">= {limit:g}", ratio >= limit, note)


def within(name: str, measured: float, budget: float, unit: str, note: str = "") -> Result:
    """A result against a fixed budget (e.g. 16 ms of lag): the ratio measured/budget <= 1."""
    return at_most(name, measured, budget, unit, 1.0, note)


def informative(name: str, measured: float, baseline: float, unit: str, note: str = "") -> Result:
    """A ratio reported without a goal (an older baseline kept for comparison)."""
    ratio = measured / baseline if baseline else float("inf")
    return Result(name, measured, baseline, unit, ratio, "info", True, note)


def pick(quick: bool, quick_value: int, full_value: int, smoke_value: int = 1) -> int:
    """A repetition count or scale for the mode (``--smoke`` overrides both)."""
    if SMOKE:
        return smoke_value
    return quick_value if quick else full_value


def median_time(fn: Callable[[], object], repeat: int, number: int = 1) -> float:
    """Median wall time in seconds of ``number`` calls, over ``repeat`` rounds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def interleaved(
    a: Callable[[], object], b: Callable[[], object], repeat: int, number: int = 1
) -> tuple[float, float]:
    """Median times of ``a`` and ``b`` measured alternately, so drift hits both alike."""
    ta: list[float] = []
    tb: list[float] = []
    for _ in range(repeat):
        for fn, sink in ((a, ta), (b, tb)):
            start = time.perf_counter()
            for _ in range(number):
                fn()
            sink.append((time.perf_counter() - start) / number)
    return statistics.median(ta), statistics.median(tb)


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0..100) by the nearest-rank method; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def bench_home() -> Path:
    """The benchmarks' own user folders (config, data, cache, state) for subprocesses."""
    home = Path(tempfile.gettempdir()) / "portal-admin-bench" / "home"
    home.mkdir(parents=True, exist_ok=True)
    return home


def bench_env(home: Path | None = None, **extra: str) -> dict[str, str]:
    """Environment for a subprocess: offscreen Qt unless a display is set, isolated folders,
    no OS keyring (a benchmark must never touch the person's own keyring), bytecode cached."""
    home = home or bench_home()
    env = dict(os.environ)
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
    for var, sub in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        env[var] = str(home / sub)
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    # Bytecode cached as an installed program has it (pip and PyInstaller compile it), kept
    # under the benchmarks' folder rather than next to the sources.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(home.parent / "pycache")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env.update(extra)
    return env


def run_json(
    module: str, *args: str, env: dict[str, str] | None = None, timeout: float = 600
) -> dict[str, Any]:
    """Run ``python -m module args``; its last stdout line is a JSON object, returned."""
    proc = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=env or bench_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(
            f"{module} {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}"
        )
    data: dict[str, Any] = json.loads(lines[-1])
    return data


def table(results: list[Result]) -> str:
    """A plain-text table of results."""
    head = f"{'benchmark':<52} {'measured':>11} {'baseline':>11} {'ratio':>7} {'goal':>9}  met"
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r.name:<52} {r.measured:>11.4g} {r.baseline:>11.4g} {r.ratio:>7.3f} "
            f"{r.goal:>9}  {'yes' if r.met else 'NO'}"
        )
    return "\n".join(lines)


def markdown_table(results: list[Result]) -> str:
    """The results as a Markdown table (for docs/performance.md)."""
    lines = [
        "| benchmark | measured | baseline | unit | ratio | goal | met |",
        "|---|---:|---:|---|---:|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.name} | {r.measured:.4g} | {r.baseline:.4g} | {r.unit} | {r.ratio:.3f} "
            f"| {r.goal} | {'yes' if r.met else '**no**'} |"
        )
    return "\n".join(lines)
