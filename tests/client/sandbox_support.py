"""Helpers for testing the client against the real sandbox, in process or over HTTP."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from support import accounts
from support.portal import FAST_RETRY

#: This suite names each demo account by its address.
ADMIN, ADMIN_PASSWORD = accounts.ADMIN
AUDITOR, AUDITOR_PASSWORD = accounts.AUDITOR
APPROVAL, APPROVAL_PASSWORD = accounts.APPROVAL
NEWUSER = accounts.NEWUSER


def sandbox_available() -> bool:
    """True once the sandbox package can build an app."""
    try:
        from portal_admin.sandbox import SandboxConfig, create_app  # noqa: F401
    except Exception:
        return False
    return True


requires_sandbox = pytest.mark.skipif(not sandbox_available(), reason="sandbox not built yet")


def options(**overrides: Any) -> ClientOptions:
    base: dict[str, Any] = {
        "access_code": "SANDBOX",
        "client_hash": "client-tests",
        "retry": FAST_RETRY,
    }
    base.update(overrides)
    return ClientOptions(**base)


def in_process_client(app: Any, **overrides: Any) -> PortalClient:
    store = overrides.pop("token_store", None) or MemoryTokenStore()
    return PortalClient(
        "http://sandbox.local",
        options(**overrides),
        transport=httpx.ASGITransport(app=app),
        token_store=store,
    )


async def advance_clock(client: PortalClient, seconds: float) -> None:
    response = await client.http.post("/sandbox/clock/advance", json={"seconds": seconds})
    response.raise_for_status()


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
        for _ in self.process.stdout:
            pass

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
