"""The real command line, served over loopback HTTP."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from sandbox_flows import (
    BASE_HEADERS,
    SC,
    SYSTEM,
    Served,
    advance,
    bearer,
    err,
    initiate,
    login,
    mailbox,
    ok,
    open_channel,
    sealed,
    start_cli,
    stop_cli,
)

from portal_admin.sandbox import SandboxConfig, create_app
from support.accounts import ADMIN
from support.processes import WINDOWS, was_terminated

pytestmark = pytest.mark.http


def test_listening_line_names_the_real_port(served: Served) -> None:
    assert served.base_url.startswith("http://127.0.0.1:")
    port = int(served.base_url.rsplit(":", 1)[1])
    assert port not in (0, 8765)


async def test_sign_in_refresh_and_logout_over_http(http_client: httpx.AsyncClient) -> None:
    tokens = await login(http_client, *ADMIN)
    profile = ok(await http_client.get(f"{SYSTEM}/profile", headers=bearer(tokens["accessToken"])))
    assert profile["accountEmail"] == ADMIN[0]
    wire = await open_channel(http_client)
    resp, env = await sealed(
        http_client, wire, f"{SYSTEM}/auth/token/refresh", {"refreshToken": tokens["refreshToken"]}
    )
    assert resp.status_code == 200 and env["success"] is True
    resp, env = await sealed(http_client, wire, f"{SC}/session/close", {})
    assert env["data"] is None
    data = ok(
        await http_client.post(f"{SYSTEM}/auth/logout", headers=bearer(tokens["accessToken"]))
    )
    assert data == {"success": True, "terminatedSessions": 1}


async def test_headers_over_http(http_client: httpx.AsyncClient) -> None:
    resp = await http_client.get(
        f"{SYSTEM}/profile", headers={"X-PORTAL-ACCESS-CODE": "nope", "X-Request-Id": "http-1"}
    )
    err(resp, 403, "ACCESS.PERMISSION_DENIED")
    assert resp.headers["X-Request-Id"] == "http-1"
    resp = await http_client.post(
        f"{SYSTEM}/auth/login/initiate", json={}, headers={"X-Client-Hash": ""}
    )
    err(resp, 400, "VALIDATION.INVALID_PARAMETER")
    resp = await http_client.post(
        f"{SYSTEM}/auth/login/initiate",
        content=b"{oops",
        headers={"Content-Type": "application/json"},
    )
    err(resp, 400, "VALIDATION.INVALID_PARAMETER")


async def test_lifetimes_with_the_clock_endpoint(http_client: httpx.AsyncClient) -> None:
    started = await initiate(http_client, *ADMIN)
    await advance(http_client, 301)
    resp = await http_client.post(
        f"{SYSTEM}/auth/login/complete",
        json={"sessionId": started["sessionId"], "method": 10011001, "code": "123456"},
    )
    err(resp, 404, "AUTH.SESSION_NOT_FOUND")


async def test_query_over_http(http_client: httpx.AsyncClient) -> None:
    tokens = await login(http_client, *ADMIN)
    data = ok(
        await http_client.post(
            f"{SYSTEM}/accounts/admin/query",
            json={"size": 5},
            headers=bearer(tokens["accessToken"]),
            params={"sort": "accountEmail,asc"},
        )
    )
    assert data["totalElements"] == 204 and len(data["accounts"]) == 5


async def test_file_database_survives_restarts_and_signals(tmp_path: Path) -> None:
    db = str(tmp_path / "sbx.sqlite3")
    first = start_cli(
        "--port", "0", "--db", db, "--seed-accounts", "10", "--account-query-shape", "content"
    )
    try:
        async with httpx.AsyncClient(base_url=first.base_url, headers=BASE_HEADERS) as c:
            err(
                await c.post("/sandbox/clock/advance", json={"seconds": 1}),
                404,
                "RESOURCE.NOT_FOUND",
            )
            key_id = ok(await c.get(f"{SC}/public-key"))["keyId"]
            tokens = await login(c, *ADMIN)
            data = ok(
                await c.post(
                    f"{SYSTEM}/accounts/admin/query", json={}, headers=bearer(tokens["accessToken"])
                )
            )
            assert "content" in data and data["totalElements"] == 14
            target = data["content"][0]["bizId"]
            ok(
                await c.post(
                    f"{SYSTEM}/accounts/admin/update",
                    json={"userBizId": target, "accountRemark": "kept"},
                    headers=bearer(tokens["accessToken"]),
                )
            )
    finally:
        first.process.send_signal(signal.SIGTERM if WINDOWS else signal.SIGINT)  # Ctrl+C on POSIX
        first.process.communicate(timeout=20)
    assert was_terminated(first.process.returncode)
    second = start_cli("--port", "0", "--db", db, "--seed-accounts", "50")
    try:
        async with httpx.AsyncClient(base_url=second.base_url, headers=BASE_HEADERS) as c:
            assert ok(await c.get(f"{SC}/public-key"))["keyId"] == key_id
            tokens = await login(c, *ADMIN)
            data = ok(
                await c.get(
                    f"{SYSTEM}/accounts/admin/{target}", headers=bearer(tokens["accessToken"])
                )
            )
            assert data["accountRemark"] == "kept"
            data = ok(
                await c.post(
                    f"{SYSTEM}/accounts/admin/query", json={}, headers=bearer(tokens["accessToken"])
                )
            )
            assert data["totalElements"] == 14  # not seeded again
    finally:
        rc, stderr = stop_cli(second)
    assert was_terminated(rc) and "Traceback" not in stderr


def test_remote_host_needs_allow_remote() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "portal_admin.sandbox.cli",
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--db",
            ":memory:",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--allow-remote" in result.stderr


def test_remote_host_warns_and_keeps_sign_in_codes_to_loopback() -> None:
    """``--allow-remote`` alone serves (the contract), says loudly what it exposes, and its
    sign-in codes answer callers on this machine only (``test_sign_in_codes_...`` below tries
    another address)."""
    server = start_cli(
        *("--host", "0.0.0.0", "--port", "0", "--db", ":memory:", "--seed-accounts", "5"),
        "--allow-remote",
    )
    try:
        url = server.base_url.replace("0.0.0.0", "127.0.0.1")
        answer = httpx.get(f"{url}/sandbox/totp", params={"email": ADMIN[0]}, timeout=10)
        assert answer.status_code == 200  # from loopback
    finally:
        rc, stderr = stop_cli(server)
    assert rc == 0
    said = " ".join(stderr.split())
    assert "WARNING: the sandbox is reachable from other machines; its sign-in codes" in said
    assert "answer callers on this machine only (add --expose-sign-in-codes" in said


def test_remote_host_served_with_a_loud_warning_and_codes_readable() -> None:
    server = start_cli(
        *("--host", "0.0.0.0", "--port", "0", "--db", ":memory:", "--seed-accounts", "5"),
        *("--allow-remote", "--expose-sign-in-codes"),
    )
    try:
        url = server.base_url.replace("0.0.0.0", "127.0.0.1")
        answer = httpx.get(f"{url}/sandbox/totp", params={"email": ADMIN[0]}, timeout=10)
        assert answer.status_code == 200  # what the warning is about
    finally:
        rc, stderr = stop_cli(server)
    assert rc == 0
    assert "WARNING: the sandbox gives anyone who reaches its port every account's sign-in" in (
        " ".join(stderr.split())
    )
    assert "/sandbox/totp" in stderr and "/sandbox/mailbox" in stderr


def test_a_loopback_sandbox_gives_no_warning() -> None:
    server = start_cli("--port", "0", "--db", ":memory:", "--seed-accounts", "5")
    rc, stderr = stop_cli(server)
    assert rc == 0 and "WARNING" not in stderr


def test_help_lists_the_contract_flags() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "portal_admin.sandbox.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    for flag in (
        "--host",
        "--port",
        "--db",
        "--seed-accounts",
        "--portal-access-code",
        "--sc-algorithm",
        "--test-clock",
        "--account-query-shape",
        "--allow-remote",
    ):
        assert flag in result.stdout


async def test_every_core_operation_over_http() -> None:
    """One success (and one stated error) per operation of the core, on a fresh server."""
    server = start_cli("--port", "0", "--db", ":memory:", "--test-clock", "--seed-accounts", "20")
    try:
        async with httpx.AsyncClient(base_url=server.base_url, headers=BASE_HEADERS) as c:
            await _walk_every_operation(c)
    finally:
        rc, stderr = stop_cli(server)
    assert was_terminated(rc) and "Traceback" not in stderr


async def _walk_every_operation(c: httpx.AsyncClient) -> None:
    s = SYSTEM
    err(
        await c.post(f"{s}/auth/login/initiate", json={"email": ADMIN[0], "password": "nope"}),
        401,
        "AUTH.INVALID_CREDENTIALS",
    )
    started = await initiate(c, *ADMIN)
    sent = ok(
        await c.post(
            f"{s}/auth/login/mfa/send", json={"sessionId": started["sessionId"], "method": 10011001}
        )
    )
    assert sent["sent"] is True
    err(
        await c.post(
            f"{s}/auth/login/mfa/send", json={"sessionId": started["sessionId"], "method": 10011001}
        ),
        429,
        "AUTH.MFA_SEND_COOLDOWN",
    )
    err(
        await c.post(
            f"{s}/auth/login/complete",
            json={"sessionId": started["sessionId"], "method": 10011001, "code": "x1"},
        ),
        400,
        "AUTH.MFA_CODE_INVALID",
    )
    totp = ok(await c.get("/sandbox/totp", params={"email": ADMIN[0]}))
    tokens = ok(
        await c.post(
            f"{s}/auth/login/complete",
            json={"sessionId": started["sessionId"], "method": 10011002, "code": totp["code"]},
        )
    )
    auth = bearer(tokens["accessToken"])
    err(await c.get(f"{s}/profile"), 401, "ACCESS.UNAUTHORIZED")
    assert ok(await c.get(f"{s}/profile", headers=auth))["accountEmail"] == ADMIN[0]
    page = ok(await c.post(f"{s}/accounts/admin/query", json={"size": 3}, headers=auth))
    target = page["accounts"][0]["bizId"]
    assert ok(await c.get(f"{s}/accounts/admin/{target}", headers=auth))["bizId"] == target
    err(await c.get(f"{s}/accounts/admin/NOPE", headers=auth), 404, "RESOURCE.NOT_FOUND")
    auditor = (
        await c.post(f"{s}/accounts/admin/query", json={"email": "auditor@"}, headers=auth)
    ).json()["data"]["accounts"][0]["bizId"]
    status = ok(
        await c.post(
            f"{s}/accounts/admin/status",
            json={"userBizId": auditor, "action": "SUSPEND"},
            headers=auth,
        )
    )
    assert status["status"] == "SUSPENDED"
    err(
        await c.post(f"{s}/accounts/admin/status", json={}, headers=auth),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )
    assert (
        ok(
            await c.post(
                f"{s}/accounts/admin/password/reset", json={"userBizId": auditor}, headers=auth
            )
        )["sent"]
        is True
    )
    updated = ok(
        await c.post(
            f"{s}/accounts/admin/update",
            json={"userBizId": auditor, "accountRemark": "over http"},
            headers=auth,
        )
    )
    assert updated["accountRemark"] == "over http"
    wire = await open_channel(c, tokens["accessToken"])
    resp, env = await sealed(
        c, wire, f"{s}/auth/token/refresh", {"refreshToken": tokens["refreshToken"]}
    )
    assert env["success"] is True
    resp, env = await sealed(
        c,
        wire,
        f"{s}/auth/password/change",
        {"currentPassword": ADMIN[1], "newPassword": "Http-Changed-1"},
        tokens["accessToken"],
    )
    assert resp.status_code == 200 and env["data"]["success"] is True
    forgot = await c.post(
        f"{s}/auth/password/forgot",
        json={"email": ADMIN[0], "challengeToken": "c"},
        headers={**wire.headers(), "X-Challenge-Token": "c"},
    )
    assert ok(forgot)["success"] is True
    reset_token = (await mailbox(c, ADMIN[0]))[0]["token"]
    resp, env = await sealed(
        c, wire, f"{s}/auth/password/reset", {"token": reset_token, "newPassword": "Http-Reset-1"}
    )
    assert env["data"]["success"] is True
    init_session = (await mailbox(c, "newuser@sandbox.test"))[0]["sessionId"]
    resp, env = await sealed(
        c, wire, f"{s}/auth/password/init", {"sessionId": init_session, "password": "Http-Init-1"}
    )
    assert env["data"]["status"] == 10010202
    resp, env = await sealed(c, wire, f"{SC}/session/close", {})
    assert env["success"] is True and env["data"] is None
    fresh = await login(c, ADMIN[0], "Http-Reset-1")
    out = ok(await c.post(f"{s}/auth/logout", headers=bearer(fresh["accessToken"])))
    assert out["terminatedSessions"] == 1
    err(await c.post(f"{s}/auth/logout"), 401, "ACCESS.TOKEN_MISSING")
    await advance(c, 10)


@pytest.mark.parametrize("exposed", [False, True])
async def test_sign_in_codes_kept_to_loopback_unless_exposed(exposed: bool) -> None:
    """A caller from another address (a forwarded-for header cannot pass for loopback) gets
    404 for the authenticator's code and the mailbox, unless the codes are exposed."""
    app = create_app(
        SandboxConfig(db=":memory:", seed_accounts=5, sign_in_codes_loopback_only=not exposed)
    )
    headers = {"X-Forwarded-For": "127.0.0.1", "CF-Connecting-IP": "127.0.0.1"}
    for peer, local in ((("203.0.113.7", 4000), False), (("127.0.0.1", 4000), True)):
        transport = httpx.ASGITransport(app=app, client=peer)
        async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as c:
            totp = await c.get("/sandbox/totp", params={"email": ADMIN[0]}, headers=headers)
            mail = await c.get("/sandbox/mailbox", params={"to": ADMIN[0]}, headers=headers)
        expected = 200 if exposed or local else 404
        assert (totp.status_code, mail.status_code) == (expected, expected), peer
        if expected == 404:
            assert "secret" not in totp.text and "body" not in mail.text
