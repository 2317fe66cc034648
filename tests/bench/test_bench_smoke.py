"""The benchmarks run: ``python -m bench.run --smoke`` (every benchmark once, at toy scale)
finishes and writes its JSON. Reporting only: no figure is asserted, timings never fail."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_smoke_mode_runs_every_benchmark_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    table = tmp_path / "bench.md"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.run",
            "--smoke",
            "--json",
            str(out),
            "--markdown",
            str(table),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=280,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    report = json.loads(out.read_text())
    assert report["mode"] == "smoke"
    assert report["failed"] == []
    assert {"python", "cpu", "nproc"} <= set(report["machine"])
    names = [r["name"] for r in report["results"]]
    prefixes = (
        "start-up",
        "client overhead",
        "Secure Channel",
        "codec",
        "browse",
        "sandbox query",
        "memory",
    )
    for prefix in prefixes:
        assert any(n.startswith(prefix) for n in names), (prefix, names)
    for result in report["results"]:
        assert set(result) >= {"name", "measured", "baseline", "ratio", "goal", "met"}
    assert table.read_text().startswith("| benchmark |")
