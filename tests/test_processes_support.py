"""tests/support/processes.py: the portable kill, its exit status, the pipe reader."""

from __future__ import annotations

import subprocess
import sys

import pytest

from support.processes import LineReader, hard_kill, was_killed, was_terminated

SLEEPER = "import sys, time; print('ready', flush=True); time.sleep(60)"


def test_a_hard_kill_is_recognised_and_a_normal_exit_is_not() -> None:
    child = subprocess.Popen([sys.executable, "-c", SLEEPER], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    lines = LineReader(child.stdout)
    assert lines.readline(timeout=30) == "ready\n"
    assert was_killed(hard_kill(child))
    assert lines.readline(timeout=30) is None  # the pipe's end
    child.stdout.close()
    done = subprocess.run([sys.executable, "-c", "pass"], check=False)
    assert not was_killed(done.returncode)


def test_the_reader_times_out_without_a_line() -> None:
    child = subprocess.Popen([sys.executable, "-c", SLEEPER], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    try:
        lines = LineReader(child.stdout)
        assert lines.readline(timeout=30) == "ready\n"
        with pytest.raises(TimeoutError):
            lines.readline(timeout=0.2)
    finally:
        hard_kill(child)
        child.stdout.close()


@pytest.mark.skipif(sys.platform != "win32", reason="Windows' termination status")
def test_terminate_on_windows_gives_the_termination_status() -> None:
    child = subprocess.Popen([sys.executable, "-c", SLEEPER], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert LineReader(child.stdout).readline(timeout=30) == "ready\n"
    child.terminate()
    assert was_terminated(child.wait(timeout=30))
    child.stdout.close()
