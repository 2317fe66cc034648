"""bench/wine_startup.py (start-up under Wine, run by ``wine.sh bench``): it stays out of the
normal benchmark run, it waits for the probe's own marker, and it times spawn to that marker."""

from __future__ import annotations

import sys

import pytest

from bench import run, wine_startup
from portal_admin.ui.startup import probe, qapp


def test_it_speaks_the_probe_s_words() -> None:
    # The module cannot import the probe (the host running it may have no Qt): its copies must
    # be the program's, or the bundle's marker would never be recognised.
    assert wine_startup.MARKER == probe.MARKER
    assert wine_startup.PROBE_ENV == qapp.PROBE_ENV


def test_it_is_not_in_the_normal_benchmark_run() -> None:
    assert "wine_startup" not in run.BENCHMARKS
    assert all(name.startswith("bench_") for name in run.BENCHMARKS)


def test_launch_times_spawn_to_the_marker_and_reads_the_window() -> None:
    script = (
        "import sys, time; print('starting'); sys.stdout.flush(); time.sleep(0.3); "
        f"print('{probe.MARKER} MainWindow'); sys.stdout.flush()"
    )
    elapsed, window = wine_startup.launch([sys.executable, "-c", script], {})
    assert window == "MainWindow"
    assert 0.3 <= elapsed < 30


def test_launch_refuses_a_program_that_shows_no_window() -> None:
    with pytest.raises(RuntimeError, match="showed no window"):
        wine_startup.launch([sys.executable, "-c", "print('no marker here')"], {})
