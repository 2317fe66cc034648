"""Async helpers shared by the sandbox tests: envelopes, sign-in, the Secure Channel."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

import httpx
from sc_wire import WireClient, body

from support.processes import LineReader

BASE_HEADERS = {
    "X-PORTAL-ACCESS-CODE": "SANDBOX",
    "X-Client-Hash": "test-client-hash",
    "Accept": "application/json",
}
SYSTEM = "/web/v1/system"
SC = "/web/v1/secure-channel"
EMAIL, OTP = 10011001, 10011002


def ok(response: httpx.Response, status: int = 200) -> Any:
    """Assert a success envelope; returns its data."""
    assert response.status_code == status, response.text
    env = response.json()
    assert env["success"] is True and env["code"] == "2000", env
    assert env["version"] == "2.0.0" and isinstance(env["timestamp"], int)
    return env["data"]


def err(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """Assert a plain error envelope; returns it."""
    assert response.status_code == status, response.text
    env: dict[str, Any] = response.json()
    assert env["success"] is False and env["code"] == code and env["data"] is None, env
    assert isinstance(env["message"], str) and env["message"]
    assert "Traceback" not in response.text
    return env


def bearer(token: str) -> dict[str, str]:
    """Authorization header."""
    return {"Authorization": f"Bearer {token}"}


async def mailbox(client: httpx.AsyncClient, to: str) -> list[dict[str, Any]]:
    """The mailbox of ``to``, newest first."""
    data: list[dict[str, Any]] = ok(await client.get("/sandbox/mailbox", params={"to": to}))
    return data


async def initiate(client: httpx.AsyncClient, email: str, password: str) -> dict[str, Any]:
    """login/initiate, asserting success."""
    resp = await client.post(
        f"{SYSTEM}/auth/login/initiate", json={"email": email, "password": password}
    )
    data: dict[str, Any] = ok(resp)
    return data


async def email_code(client: httpx.AsyncClient, session_id: str, email: str) -> str:
    """Send an EMAIL code and read it from the mailbox."""
    ok(
        await client.post(
            f"{SYSTEM}/auth/login/mfa/send", json={"sessionId": session_id, "method": EMAIL}
        )
    )
    code: str = (await mailbox(client, email))[0]["code"]
    return code


async def login(client: httpx.AsyncClient, email: str, password: str) -> dict[str, Any]:
    """The whole EMAIL sign-in; returns the login/complete data."""
    started = await initiate(client, email, password)
    code = await email_code(client, started["sessionId"], email)
    resp = await client.post(
        f"{SYSTEM}/auth/login/complete",
        json={"sessionId": started["sessionId"], "method": EMAIL, "code": code},
    )
    data: dict[str, Any] = ok(resp)
    return data


async def advance(client: httpx.AsyncClient, seconds: float) -> None:
    """Move the sandbox clock."""
    ok(await client.post("/sandbox/clock/advance", json={"seconds": seconds}))


async def new_wire(client: httpx.AsyncClient) -> WireClient:
    """A wire client for the current public key (no session yet)."""
    return WireClient.from_public_key(ok(await client.get(f"{SC}/public-key")))


async def open_channel(client: httpx.AsyncClient, token: str | None = None) -> WireClient:
    """A Secure Channel session (bound when ``token`` is given)."""
    wire = await new_wire(client)
    headers = {"X-SC-Version": "2", **(bearer(token) if token else {})}
    resp = await client.post(f"{SC}/session", json=body(wire.key_exchange()), headers=headers)
    assert resp.status_code == 200, resp.text
    env = wire.open(resp.json())
    assert env["success"] is True, env
    wire.session_id = env["data"]["sessionId"]
    return wire


async def sealed(
    client: httpx.AsyncClient,
    wire: WireClient,
    path: str,
    plaintext: Any,
    token: str | None = None,
) -> tuple[httpx.Response, dict[str, Any]]:
    """A sealed call; returns the response and its decrypted envelope."""
    headers = {**wire.headers(), **(bearer(token) if token else {})}
    resp = await client.post(path, json=body(wire.data(plaintext)), headers=headers)
    assert resp.status_code < 500, resp.text
    return resp, wire.open(resp.json())


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
    deadline = time.monotonic() + timeout
    lines = LineReader(process.stdout)  # a thread: select() takes no pipe on Windows
    while time.monotonic() < deadline:
        try:
            line = lines.readline(timeout=0.5)
        except TimeoutError:
            if process.poll() is not None:
                break
            continue
        if line is None:
            break
        match = _LISTENING.search(line)
        if match:
            return Served(match.group(1), process)
    process.kill()
    _, err = process.communicate(timeout=10)
    raise RuntimeError(f"the sandbox did not start: {err[-2000:]}")


def stop_cli(served: Served) -> tuple[int, str]:
    """Stop a served sandbox with SIGTERM (TerminateProcess on Windows: check the status with
    support.processes.was_terminated); returns its exit code and its stderr."""
    if served.process.poll() is None:
        served.process.send_signal(signal.SIGTERM)
    try:
        _, stderr = served.process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        served.process.kill()
        _, stderr = served.process.communicate()
    return served.process.returncode, stderr or ""
