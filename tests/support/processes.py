"""Child processes the same way on POSIX and Windows: a hard kill, its exit status, a pipe read
line by line with a time limit (a thread: ``select()`` does not take pipes on Windows)."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
from typing import IO

WINDOWS = sys.platform == "win32"
#: The exit status of a process ended by ``Popen.kill()``/``terminate()`` on Windows
#: (``TerminateProcess(handle, 1)``); on POSIX the status is minus the signal.
WINDOWS_TERMINATED = 1


def hard_kill(child: subprocess.Popen[str] | subprocess.Popen[bytes]) -> int:
    """End ``child`` at once, as a crash would (SIGKILL on POSIX, TerminateProcess on Windows:
    no handler, no clean-up runs); returns its exit status."""
    child.kill()
    return child.wait(timeout=30)


def was_killed(returncode: int | None) -> bool:
    """Whether ``returncode`` is that of a process ended by :func:`hard_kill`."""
    return returncode == (WINDOWS_TERMINATED if WINDOWS else -signal.SIGKILL)


def was_terminated(returncode: int | None, *, clean: int = 0) -> bool:
    """Whether ``returncode`` is that of a process asked to stop by SIGTERM or Ctrl+C: on
    POSIX its handler ran and it exited with ``clean``; on Windows ``terminate()`` is
    TerminateProcess, no handler can run, and the status is always the termination one."""
    if WINDOWS:
        return returncode == WINDOWS_TERMINATED
    return returncode == clean


class LineReader:
    """Reads a child's pipe in a thread; :meth:`readline` waits at most ``timeout`` seconds."""

    def __init__(self, pipe: IO[str]) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._pump, args=(pipe,), daemon=True)
        self._thread.start()

    def _pump(self, pipe: IO[str]) -> None:
        try:
            for line in pipe:
                self._lines.put(line)
        except (OSError, ValueError):  # closed under us
            pass
        finally:
            self._lines.put(None)

    def readline(self, timeout: float) -> str | None:
        """The next line; None at the pipe's end; raises TimeoutError after ``timeout``."""
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no line within {timeout} s") from None
