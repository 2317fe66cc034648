"""Fixtures for sandbox tests: an in-process app and client, tokens, and a served CLI.

- ``app`` / ``state`` / ``client``: a fresh in-memory sandbox with a test clock and a few
  generated accounts, reached through ``httpx.ASGITransport``; ``client`` sends the portal
  access code and a client hash by default.
- ``admin_token`` / ``auditor_token`` (and ``admin_headers`` / ``auditor_headers``): access
  tokens minted directly (no MFA round trip).
- ``served`` (marked tests only: ``@pytest.mark.http``): ``portal-sandbox serve --port 0
  --db :memory: --test-clock`` started as a subprocess once per session; ``http_client``
  talks to it over loopback.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.state import SandboxState
from portal_admin.sandbox.tokens import sign_in

ACCESS_CODE = "SANDBOX"
CLIENT_HASH = "test-client-hash"
BASE_HEADERS = {
    "X-PORTAL-ACCESS-CODE": ACCESS_CODE,
    "X-Client-Hash": CLIENT_HASH,
    "Accept": "application/json",
}
ADMIN_EMAIL = "admin@sandbox.test"
ADMIN_PASSWORD = "Sandbox-Admin-2026!"
AUDITOR_EMAIL = "auditor@sandbox.test"
AUDITOR_PASSWORD = "Sandbox-Audit-2026!"
APPROVAL_EMAIL = "approval@sandbox.test"
APPROVAL_PASSWORD = "Sandbox-Approval-2026!"
NEWUSER_EMAIL = "newuser@sandbox.test"
SYSTEM = "/web/v1/system"
SC = "/web/v1/secure-channel"


@pytest.fixture
def sandbox_config() -> SandboxConfig:
    """The configuration of ``app``; override this fixture to change it."""
    return SandboxConfig(seed_accounts=40, test_clock=True)


@pytest.fixture
def app(sandbox_config: SandboxConfig) -> Iterator[FastAPI]:
    """A fresh in-process sandbox."""
    application = create_app(sandbox_config)
    yield application
    application.state.sandbox.db.close()


@pytest.fixture
def state(app: FastAPI) -> SandboxState:
    """The sandbox state behind ``app``."""
    result: SandboxState = app.state.sandbox
    return result


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client bound to ``app`` in-process, with the default portal headers."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://sandbox.test", headers=BASE_HEADERS
    ) as c:
        yield c


def account_biz_id(state: SandboxState, email: str) -> str:
    """The biz id of an account."""
    return str(state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = ?", (email,)))


def bearer(token: str) -> dict[str, str]:
    """The Authorization header for a token."""
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def admin_token(state: SandboxState) -> str:
    """An access token of admin@sandbox.test (OWNER of the primary workspace)."""
    return sign_in(state, account_biz_id(state, ADMIN_EMAIL), client_hash=CLIENT_HASH).access_token


@pytest.fixture
def auditor_token(state: SandboxState) -> str:
    """An access token of auditor@sandbox.test (read permissions only)."""
    return sign_in(
        state, account_biz_id(state, AUDITOR_EMAIL), client_hash=CLIENT_HASH
    ).access_token


@pytest.fixture
def admin_headers(admin_token: str) -> dict[str, str]:
    """Authorization header of the admin."""
    return bearer(admin_token)


@pytest.fixture
def auditor_headers(auditor_token: str) -> dict[str, str]:
    """Authorization header of the auditor."""
    return bearer(auditor_token)


def ok_data(response: httpx.Response, status: int = 200) -> Any:
    """Assert a success envelope and return its data."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["success"] is True, body
    assert body["code"] == "2000"
    assert body["version"] == "2.0.0"
    assert isinstance(body["timestamp"], int)
    return body["data"]


def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """Assert an error envelope with ``status`` and ``code``; returns the body."""
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["success"] is False, body
    assert body["code"] == code, body
    assert body["data"] is None
    assert isinstance(body["message"], str) and body["message"]
    assert "Traceback" not in response.text
    return body


# -- the served CLI ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Served:
    """A sandbox served by the real command line."""

    base_url: str
    process: subprocess.Popen[str]


_LISTENING = re.compile(r"Sandbox listening on (http://\S+)")


def start_cli(*args: str, timeout: float = 60.0) -> Served:
    """Start ``portal-sandbox serve ARGS`` and wait for its listening line."""
    cmd = [sys.executable, "-m", "portal_admin.sandbox.cli", "serve", *args]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None
    import selectors
    import time

    deadline = time.monotonic() + timeout
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    while time.monotonic() < deadline:
        if not selector.select(timeout=0.5):
            if process.poll() is not None:
                break
            continue
        line = process.stdout.readline()
        if not line:
            break
        match = _LISTENING.search(line)
        if match:
            selector.close()
            return Served(match.group(1), process)
    selector.close()
    process.kill()
    _, err = process.communicate(timeout=10)
    raise RuntimeError(f"the sandbox did not start: {err[-2000:]}")


def stop_cli(served: Served) -> int:
    """Stop a served sandbox with SIGTERM; returns its exit code."""
    if served.process.poll() is None:
        served.process.send_signal(signal.SIGTERM)
    try:
        served.process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        served.process.kill()
        served.process.communicate()
    return served.process.returncode


@pytest.fixture(scope="session")
def served() -> Iterator[Served]:
    """``portal-sandbox serve --port 0 --db :memory: --test-clock`` for the whole session."""
    server = start_cli("--port", "0", "--db", ":memory:", "--test-clock", "--seed-accounts", "200")
    yield server
    stop_cli(server)


@pytest.fixture
async def http_client(served: Served) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client talking to the served sandbox over loopback."""
    async with httpx.AsyncClient(base_url=served.base_url, headers=BASE_HEADERS) as c:
        yield c
