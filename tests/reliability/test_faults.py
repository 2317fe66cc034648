"""Fault injection in the sandbox (``sandbox/faults.py``): each fault, as the client sees it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from typing import Any

import httpx
import pytest

from portal_admin.client import (
    APIConnectionError,
    ClientOptions,
    GatewayError,
    MalformedResponseError,
    MemoryTokenStore,
    PortalClient,
    ServerError,
)
from portal_admin.client.options import RetryPolicy
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.faults import (
    FaultConfig,
    FaultConfigError,
    FaultInjector,
    SkewedTestClock,
)
from support.accounts import ADMIN
from support.portal import sign_in

HEADERS = {"X-PORTAL-ACCESS-CODE": "SANDBOX", "X-Client-Hash": "faults-test"}
PUBLIC_KEY = "/web/v1/secure-channel/public-key"
NO_RETRY = RetryPolicy(attempts=1)


def faulty(**settings: Any) -> Any:
    """An in-memory sandbox with these fault settings."""
    specs = FaultConfig(**settings).specs()
    return create_app(SandboxConfig(seed_accounts=5, test_clock=True, faults=specs))


def injector(app: Any) -> FaultInjector:
    found: FaultInjector = app.state.faults
    return found


def raw(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://sandbox.test", headers=HEADERS
    )


async def signed_in(app: Any, retry: RetryPolicy = NO_RETRY) -> PortalClient:
    client = PortalClient(
        "http://sandbox.test",
        ClientOptions(access_code="SANDBOX", retry=retry),
        transport=httpx.ASGITransport(app=app),
        token_store=MemoryTokenStore(),
    )
    await client.__aenter__()
    faults = injector(app)
    faults.enabled = False
    await sign_in(client, *ADMIN, method="OTP")
    faults.enabled = True
    return client


def test_specs_round_trip_and_refusals() -> None:
    config = FaultConfig(latency_ms=5, drop_rate=0.1, seed=3)
    assert FaultConfig.from_specs(config.specs()) == config
    assert FaultConfig.from_specs(["drop-rate=0.1", "latency_ms=5", "seed=3"]) == config
    for bad in (["nonsense=1"], ["drop_rate"], ["drop_rate=x"], ["drop_rate=2"]):
        with pytest.raises(FaultConfigError):
            FaultConfig.from_specs(bad)
    with pytest.raises(FaultConfigError):
        FaultConfig(drop_rate=0.6, error_5xx_rate=0.6)
    assert create_app(SandboxConfig(seed_accounts=0)).state.faults is None


async def test_5xx_html_and_malformed_reach_the_client_as_typed_errors() -> None:
    app = faulty(error_5xx_rate=1.0)
    client = await signed_in(app)
    with pytest.raises(ServerError) as server_error:
        await client.accounts.query(size=5)
    assert server_error.value.http_status in (500, 502, 503, 504)
    assert server_error.value.request_id and server_error.value.code == "5000"

    injector(app).update(error_5xx_rate=0.0, html_rate=1.0)
    with pytest.raises(GatewayError) as html:  # a gateway's page, named as such
        await client.accounts.query(size=5)
    assert html.value.http_status == 502 and html.value.request_id
    assert html.value.title == "502 Bad Gateway"

    injector(app).update(html_rate=0.0, malformed_rate=1.0)
    for _ in range(12):  # every variant of a spoiled answer
        with pytest.raises(MalformedResponseError):
            await client.accounts.query(size=5)
    injector(app).update(malformed_rate=0.0)
    page = await client.accounts.query(size=5)  # and it works again
    assert page.items
    assert injector(app).counts["malformed"] == 12
    await client.aclose()


async def test_every_malformed_answer_error_carries_its_code_and_request_id() -> None:
    app = faulty(malformed_rate=1.0, seed=2)
    client = await signed_in(app)
    missing = []
    try:
        for _ in range(12):
            with pytest.raises(MalformedResponseError) as bad:
                await client.accounts.query(size=5)
            error = bad.value
            if not (error.code and error.request_id) or error.http_status is None:
                missing.append(str(bad.value))
    finally:
        await client.aclose()
    assert not missing, missing


async def test_drop_surfaces_as_a_connection_error_in_process() -> None:
    app = faulty(drop_rate=1.0)
    client = await signed_in(app)
    for _ in range(4):  # before and after the app ran
        with pytest.raises(APIConnectionError) as dropped:
            await client.accounts.query(size=5)
        assert dropped.value.code == "CLIENT.CONNECTION" and dropped.value.request_id
    injector(app).enabled = False
    await client.aclose()


async def test_reads_are_retried_through_gateway_errors() -> None:
    app = faulty(error_5xx_rate=0.5, seed=11)
    client = await signed_in(
        app, RetryPolicy(attempts=8, wait_initial=0.001, wait_max=0.01, wait_jitter=0.0)
    )
    failures = 0
    for _ in range(20):
        try:
            assert (await client.accounts.query(size=2)).items
        except ServerError as exc:  # 500 is not a gateway error: not retried
            assert exc.http_status == 500
            failures += 1
    assert injector(app).counts["5xx"] > failures  # the 502/503/504 were retried away
    await client.aclose()


async def test_latency_and_sandbox_endpoints_are_exempt() -> None:
    # A latency far above any scheduling delay: an exempt call cannot be mistaken for a
    # delayed one on a loaded machine (the counts below say the same without timing).
    app = faulty(latency_ms=1500, drop_rate=1.0)
    async with raw(app) as http:
        started = time.perf_counter()
        totp = await http.get("/sandbox/totp", params={"email": ADMIN[0]})
        assert totp.status_code == 200 and time.perf_counter() - started < 1.0
        with pytest.raises(httpx.ReadError):
            await http.get(PUBLIC_KEY)
        assert time.perf_counter() - started >= 1.5
        report = (await http.get("/sandbox/faults")).json()["data"]
        assert report["counts"] == {"latency": 1, "drop": 1}


async def test_the_same_seed_gives_the_same_faults() -> None:
    async def sequence(seed: int) -> list[int | str]:
        app = faulty(error_5xx_rate=0.3, html_rate=0.2, drop_rate=0.1, seed=seed)
        seen: list[int | str] = []
        async with raw(app) as http:
            for _ in range(40):
                try:
                    seen.append((await http.get(PUBLIC_KEY)).status_code)
                except httpx.ReadError:
                    seen.append("drop")
        return seen

    first = await sequence(5)
    assert first == await sequence(5)
    assert first != await sequence(6)
    assert {200, "drop"} <= set(first) and Counter(first)[200] < 40


async def test_expired_sessions_and_rotated_key_are_recovered_by_the_client() -> None:
    app = faulty(seed=1)
    client = await signed_in(app)
    await client.auth.refresh()  # opens the Secure Channel
    faults = injector(app)
    assert faults.expire_sessions() >= 1
    await client.auth.refresh()  # SESSION_INVALID: a new session, the call sent again
    faults.expire_sessions()
    old = app.state.sandbox.channel.key_id
    assert faults.rotate_key() != old
    await client.auth.refresh()  # SESSION_INVALID then KEY_UNKNOWN: key fetched again
    assert faults.counts == Counter({"sc_expired": 2, "key_rotated": 1})
    async with raw(app) as http:
        assert (await http.post("/sandbox/faults/expire-sessions")).json()["data"]["expired"] == 1
    await client.aclose()


def test_clock_skew_moves_the_sandbox_clock() -> None:
    app = faulty(clock_skew_s=-600)
    clock = app.state.sandbox.clock
    assert isinstance(clock, SkewedTestClock)
    assert abs(clock.now() - (time.time() - 600)) < 5
    clock.advance(60)  # still the movable test clock
    assert abs(clock.now() - (time.time() - 540)) < 5


@pytest.mark.http
def test_serve_options_drop_closes_the_connection_over_http() -> None:
    command = [
        sys.executable, "-m", "portal_admin.sandbox.cli", "serve", "--port", "0",
        "--db", ":memory:", "--seed-accounts", "0",
        "--fault-drop-rate", "0.5", "--fault-html-rate", "0.5", "--fault-seed", "4",
    ]  # fmt: skip
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("Sandbox listening on "), line
        base = line.split()[-1]
        outcomes: Counter[str] = Counter()
        with httpx.Client(base_url=base, headers=HEADERS, timeout=10) as http:
            for _ in range(20):
                try:
                    answer = http.get(PUBLIC_KEY)
                    outcomes[answer.headers["content-type"].split(";")[0]] += 1
                except httpx.TransportError:
                    outcomes["dropped"] += 1
            report = http.get("/sandbox/faults").json()["data"]
        assert outcomes["dropped"] == report["counts"]["drop"] > 0
        assert outcomes["text/html"] == report["counts"]["html"] > 0
        assert report["dropMode"] == "abort"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "Traceback" not in err and "DroppedConnection" not in err
