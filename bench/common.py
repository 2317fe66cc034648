"""Helpers shared by the in-process benchmarks: sandbox apps, signed-in clients, a served
sandbox on loopback, and alternating async timing."""

from __future__ import annotations

import contextlib
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import httpx

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient

from .harness import ROOT, bench_env

ADMIN = ("admin@sandbox.test", "Sandbox-Admin-2026!")
ACCESS_CODE = "SANDBOX"
IN_PROCESS_URL = "http://sandbox.local"


def options() -> ClientOptions:
    """Client options of the benchmarks (a fixed client hash: no fingerprint file)."""
    return ClientOptions(access_code=ACCESS_CODE, language="en", client_hash="bench-client")


def in_process_app(accounts: int = 200, db: str = ":memory:") -> Any:
    """A sandbox app with a test clock."""
    from portal_admin.sandbox import SandboxConfig, create_app

    return create_app(
        SandboxConfig(
            db=db, seed_accounts=accounts, test_clock=True, portal_access_code=ACCESS_CODE
        )
    )


@contextlib.asynccontextmanager
async def portal_client(
    base_url: str, transport: httpx.AsyncBaseTransport | None = None
) -> AsyncIterator[PortalClient]:
    """A ``PortalClient`` with tokens in memory."""
    async with PortalClient(
        base_url, options(), transport=transport, token_store=MemoryTokenStore()
    ) as client:
        yield client


async def sign_in(client: PortalClient, who: tuple[str, str] = ADMIN) -> None:
    """Sign in with the authenticator code the sandbox shows."""
    await client.auth.start(*who)
    totp = await client.http.get("/sandbox/totp", params={"email": who[0]})
    await client.auth.complete("OTP", totp.json()["data"]["code"])


@contextlib.contextmanager
def served_sandbox(*args: str, module: str = "portal_admin.sandbox.cli") -> Iterator[str]:
    """``portal-sandbox serve --port 0 ARGS`` (or another server module printing the same
    "listening on URL" line) on loopback; yields its base URL, stops it after."""
    command = ["serve", "--port", "0", *args] if module == "portal_admin.sandbox.cli" else []
    proc = subprocess.Popen(
        [sys.executable, "-m", module, *command],
        cwd=ROOT,
        env=bench_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = ""
        for line in proc.stdout:
            if "listening on" in line:
                url = line.rsplit(" ", 1)[1].strip()
                break
        if not url:
            raise RuntimeError(f"portal-sandbox serve did not start (exit {proc.wait()})")
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


async def alternate(
    a: Callable[[], Awaitable[object]],
    b: Callable[[], Awaitable[object]],
    rounds: int,
    number: int,
) -> tuple[float, float]:
    """Median seconds per call of ``a`` and ``b``, measured in alternating blocks of ``number``."""
    ta: list[float] = []
    tb: list[float] = []
    for i in range(rounds):
        # Alternate which side goes first, so neither always follows the other.
        order = ((a, ta), (b, tb)) if i % 2 == 0 else ((b, tb), (a, ta))
        for fn, sink in order:
            start = time.perf_counter()
            for _ in range(number):
                await fn()
            sink.append((time.perf_counter() - start) / number)
    return statistics.median(ta), statistics.median(tb)


class RequestRecorder:
    """Keeps the last request an ``httpx.AsyncClient`` sent (an httpx event hook)."""

    def __init__(self) -> None:
        self.request: httpx.Request | None = None

    async def __call__(self, request: httpx.Request) -> None:
        self.request = request

    def replay_args(self) -> dict[str, Any]:
        """Method, path, headers and body of the recorded request, to send it again through a
        client with the same base URL."""
        req = self.request
        assert req is not None, "nothing recorded"
        return {
            "method": req.method,
            # The path and query alone: the replaying client has the same base URL, so httpx
            # merges it on both sides alike.
            "url": req.url.raw_path.decode("ascii"),
            "headers": dict(req.headers),
            "content": req.content,
        }
