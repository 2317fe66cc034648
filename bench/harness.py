"""Shared pieces of the benchmarks: timing, results and the table."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any


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


def at_most(name: str, measured: float, baseline: float, unit: str, limit: float,
            note: str = "") -> Result:
    """A result whose ratio measured/baseline must stay at or below ``limit``."""
    ratio = measured / baseline if baseline else float("inf")
    return Result(name, measured, baseline, unit, ratio, f"<= {limit:g}", ratio <= limit, note)


def at_least(name: str, measured: float, baseline: float, unit: str, limit: float,
             note: str = "") -> Result:
    """A result whose ratio measured/baseline must stay at or above ``limit``."""
    ratio = measured / baseline if baseline else 0.0
    return Result(name, measured, baseline, unit, ratio, f">= {limit:g}", ratio >= limit, note)


def median_time(fn: Callable[[], object], repeat: int, number: int = 1) -> float:
    """Median wall time in seconds of ``number`` calls, over ``repeat`` rounds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def interleaved(a: Callable[[], object], b: Callable[[], object], repeat: int,
                number: int = 1) -> tuple[float, float]:
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


def table(results: list[Result]) -> str:
    """A plain-text table of results."""
    head = f"{'benchmark':<46} {'measured':>12} {'baseline':>12} {'ratio':>7} {'goal':>7}  met"
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r.name:<46} {r.measured:>12.4g} {r.baseline:>12.4g} {r.ratio:>7.3f} "
            f"{r.goal:>7}  {'yes' if r.met else 'NO'}"
        )
    return "\n".join(lines)
