"""``portal-sandbox serve`` as a subprocess on a free loopback port."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path


class ServedSandbox:
    """``portal-sandbox serve`` as a subprocess on a free loopback port."""

    def __init__(self, *args: str) -> None:
        exe = Path(sys.executable).with_name("portal-sandbox")
        command = [str(exe)] if exe.exists() else [sys.executable, "-m", "portal_admin.sandbox.cli"]
        self.process = subprocess.Popen(
            [*command, "serve", "--port", "0", "--db", ":memory:", "--test-clock", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        #: What it printed after its listening line (uvicorn's access log among it).
        self.lines: list[str] = []
        self.base_url = self._wait_for_line()
        self._drain = threading.Thread(target=self._read_rest, daemon=True)
        self._drain.start()

    def _wait_for_line(self) -> str:
        assert self.process.stdout is not None
        timer = threading.Timer(90, self.process.kill)
        timer.start()
        try:
            for line in self.process.stdout:
                found = re.search(r"Sandbox listening on (http://\S+)", line)
                if found:
                    return found.group(1)
        finally:
            timer.cancel()
        raise RuntimeError("the sandbox exited before listening")

    def _read_rest(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            rc = self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            rc = self.process.wait()
        self._drain.join(timeout=5)
        assert self.process.stdout is not None
        self.process.stdout.close()
        return rc
