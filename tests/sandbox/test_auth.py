"""Sign-in: initiate, MFA send, complete, logout, token refresh, profile."""

from __future__ import annotations

import httpx
import pytest
from sandbox_flows import (
    EMAIL,
    OTP,
    SYSTEM,
    advance,
    bearer,
    email_code,
    err,
    initiate,
    login,
    ok,
    open_channel,
    sealed,
)

from portal_admin.sandbox.ids import sha256_hex
from portal_admin.sandbox.state import SandboxState
from portal_admin.sandbox.totp import code_at, step_of
from support.accounts import ADMIN, APPROVAL, AUDITOR

INITIATE = f"{SYSTEM}/auth/login/initiate"
SEND = f"{SYSTEM}/auth/login/mfa/send"
COMPLETE = f"{SYSTEM}/auth/login/complete"
LOGOUT = f"{SYSTEM}/auth/logout"
REFRESH = f"{SYSTEM}/auth/token/refresh"
PROFILE = f"{SYSTEM}/profile"


async def test_initiate_shape(client: httpx.AsyncClient) -> None:
    data = await initiate(client, *ADMIN)
    assert set(data) == {"sessionId", "mfaMethods", "expiresIn", "accountStatus", "pendingApproval"}
    assert data["expiresIn"] == 300 and data["pendingApproval"] is False
    methods = {m["code"]: m for m in data["mfaMethods"]}
    assert methods["EMAIL"]["value"] == EMAIL and methods["OTP"]["value"] == OTP
    assert all({"code", "value", "label", "description"} <= set(m) for m in methods.values())
    assert data["accountStatus"]["code"] == "ACTIVE"


async def test_email_is_case_insensitive(client: httpx.AsyncClient) -> None:
    await initiate(client, "ADMIN@Sandbox.Test", ADMIN[1])


@pytest.mark.parametrize(
    ("email", "password"),
    [
        (ADMIN[0], "wrong-password"),
        ("nobody@sandbox.test", "whatever-password"),
        ("newuser@sandbox.test", "no-password-yet"),
        (ADMIN[0], ADMIN[1].lower()),
    ],
)
async def test_invalid_credentials_look_the_same(
    client: httpx.AsyncClient, email: str, password: str
) -> None:
    resp = await client.post(INITIATE, json={"email": email, "password": password})
    env = err(resp, 401, "AUTH.INVALID_CREDENTIALS")
    assert (
        env["message"]
        == err(
            await client.post(INITIATE, json={"email": "x@y.z", "password": "p"}),
            401,
            "AUTH.INVALID_CREDENTIALS",
        )["message"]
    )


async def test_repeated_failures_are_throttled(client: httpx.AsyncClient) -> None:
    for _ in range(5):
        resp = await client.post(INITIATE, json={"email": ADMIN[0], "password": "bad-one"})
        err(resp, 401, "AUTH.INVALID_CREDENTIALS")
    resp = await client.post(INITIATE, json={"email": ADMIN[0], "password": ADMIN[1]})
    err(resp, 429, "REQUEST.RATE_LIMITED")
    # an unknown email is throttled the same way: nothing tells the two apart
    for _ in range(5):
        await client.post(INITIATE, json={"email": "ghost@sandbox.test", "password": "x"})
    resp = await client.post(INITIATE, json={"email": "ghost@sandbox.test", "password": "x"})
    err(resp, 429, "REQUEST.RATE_LIMITED")
    # another client is not affected, and the window ends
    other = await client.post(
        INITIATE,
        json={"email": ADMIN[0], "password": ADMIN[1]},
        headers={"X-Client-Hash": "another-client"},
    )
    ok(other)
    await advance(client, 901)
    await initiate(client, *ADMIN)


async def test_email_flow_and_history(client: httpx.AsyncClient, state: SandboxState) -> None:
    biz = state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = ?", (ADMIN[0],))
    before = state.db.scalar("SELECT count(*) FROM login_history WHERE account_biz_id = ?", (biz,))
    await client.post(INITIATE, json={"email": ADMIN[0], "password": "bad-password"})
    data = await login(client, *ADMIN)
    assert set(data) == {
        "accessToken",
        "refreshToken",
        "expiresIn",
        "accountStatus",
        "pendingApproval",
    }
    assert data["expiresIn"] == 3600 and data["pendingApproval"] is False
    rows = state.db.query(
        "SELECT login_result FROM login_history WHERE account_biz_id = ? ORDER BY id DESC LIMIT 2",
        (biz,),
    )
    assert [r[0] for r in rows] == [1, 2]
    assert (
        state.db.scalar("SELECT count(*) FROM login_history WHERE account_biz_id = ?", (biz,))
        == before + 2
    )
    ok(await client.get(PROFILE, headers=bearer(data["accessToken"])))


async def test_mfa_send(client: httpx.AsyncClient) -> None:
    session = (await initiate(client, *ADMIN))["sessionId"]
    data = ok(await client.post(SEND, json={"sessionId": session, "method": EMAIL}))
    assert data == {"sent": True, "cooldownSeconds": 60, "codeExpiresIn": 300}
    resp = await client.post(SEND, json={"sessionId": session, "method": EMAIL})
    err(resp, 429, "AUTH.MFA_SEND_COOLDOWN")
    otp = ok(await client.post(SEND, json={"sessionId": session, "method": OTP}))
    assert otp["sent"] is False
    await advance(client, 61)
    ok(await client.post(SEND, json={"sessionId": session, "method": EMAIL}))
    for bad in (12345, 10011003):
        resp = await client.post(SEND, json={"sessionId": session, "method": bad})
        err(resp, 400, "VALIDATION.INVALID_PARAMETER")
    resp = await client.post(SEND, json={"sessionId": "lgs_unknown", "method": EMAIL})
    err(resp, 404, "AUTH.SESSION_NOT_FOUND")


async def test_method_not_enabled_for_account(client: httpx.AsyncClient) -> None:
    session = (await initiate(client, *APPROVAL))["sessionId"]
    resp = await client.post(SEND, json={"sessionId": session, "method": OTP})
    err(resp, 400, "VALIDATION.INVALID_PARAMETER")


async def test_wrong_code_keeps_the_session_usable(client: httpx.AsyncClient) -> None:
    session = (await initiate(client, *ADMIN))["sessionId"]
    code = await email_code(client, session, ADMIN[0])
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(3):
        resp = await client.post(
            COMPLETE, json={"sessionId": session, "method": EMAIL, "code": wrong}
        )
        err(resp, 400, "AUTH.MFA_CODE_INVALID")
    ok(await client.post(COMPLETE, json={"sessionId": session, "method": EMAIL, "code": code}))
    # a completed login session cannot be completed twice
    resp = await client.post(COMPLETE, json={"sessionId": session, "method": EMAIL, "code": code})
    err(resp, 404, "AUTH.SESSION_NOT_FOUND")


async def test_login_session_lifetime(client: httpx.AsyncClient) -> None:
    session = (await initiate(client, *ADMIN))["sessionId"]
    code = await email_code(client, session, ADMIN[0])
    await advance(client, 301)
    resp = await client.post(COMPLETE, json={"sessionId": session, "method": EMAIL, "code": code})
    err(resp, 404, "AUTH.SESSION_NOT_FOUND")
    resp = await client.post(SEND, json={"sessionId": session, "method": EMAIL})
    err(resp, 404, "AUTH.SESSION_NOT_FOUND")


async def test_no_code_sent_yet(client: httpx.AsyncClient) -> None:
    session = (await initiate(client, *ADMIN))["sessionId"]
    resp = await client.post(
        COMPLETE, json={"sessionId": session, "method": EMAIL, "code": "123456"}
    )
    err(resp, 400, "AUTH.MFA_CODE_INVALID")


async def test_otp_drift_and_reuse(client: httpx.AsyncClient, state: SandboxState) -> None:
    totp = ok(await client.get("/sandbox/totp", params={"email": ADMIN[0]}))
    secret = totp["secret"]
    now = state.clock.now()
    previous = code_at(secret, step_of(now) - 1)
    session = (await initiate(client, *ADMIN))["sessionId"]
    ok(await client.post(COMPLETE, json={"sessionId": session, "method": OTP, "code": previous}))
    # the same code is refused the second time
    session = (await initiate(client, *ADMIN))["sessionId"]
    resp = await client.post(COMPLETE, json={"sessionId": session, "method": OTP, "code": previous})
    err(resp, 400, "AUTH.MFA_CODE_INVALID")
    too_old = code_at(secret, step_of(now) - 3)
    resp = await client.post(COMPLETE, json={"sessionId": session, "method": OTP, "code": too_old})
    err(resp, 400, "AUTH.MFA_CODE_INVALID")
    nxt = code_at(secret, step_of(state.clock.now()) + 1)
    ok(await client.post(COMPLETE, json={"sessionId": session, "method": OTP, "code": nxt}))


async def test_backup_code(client: httpx.AsyncClient, state: SandboxState) -> None:
    biz = state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = ?", (AUDITOR[0],))
    state.db.execute(
        "INSERT INTO mfa_backup_codes VALUES (?, ?, 0, NULL)", (biz, sha256_hex("ABCD2345"))
    )
    session = (await initiate(client, *AUDITOR))["sessionId"]
    body = {"sessionId": session, "method": OTP, "code": "abcd-2345"}
    ok(await client.post(COMPLETE, json=body))
    session = (await initiate(client, *AUDITOR))["sessionId"]
    err(
        await client.post(COMPLETE, json={**body, "sessionId": session}),
        400,
        "AUTH.MFA_CODE_INVALID",
    )


async def test_pending_approval(client: httpx.AsyncClient) -> None:
    started = await initiate(client, *APPROVAL)
    assert started["pendingApproval"] is True
    assert [m["code"] for m in started["mfaMethods"]] == ["EMAIL"]
    data = await login(client, *APPROVAL)
    assert data["pendingApproval"] is True


async def test_logout(client: httpx.AsyncClient) -> None:
    tokens = await login(client, *ADMIN)
    err(await client.post(LOGOUT), 401, "ACCESS.TOKEN_MISSING")
    err(await client.post(LOGOUT, headers=bearer("garbage")), 401, "4010")
    data = ok(await client.post(LOGOUT, headers=bearer(tokens["accessToken"])))
    assert data == {"success": True, "terminatedSessions": 1}
    err(await client.get(PROFILE, headers=bearer(tokens["accessToken"])), 401, "4010")
    again = ok(await client.post(LOGOUT, headers=bearer(tokens["accessToken"])))
    assert again["terminatedSessions"] == 0
    wire = await open_channel(client)
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": tokens["refreshToken"]})
    assert resp.status_code == 404 and env["code"] == "AUTH.SESSION_NOT_FOUND"


async def test_logout_accepts_an_expired_token(client: httpx.AsyncClient) -> None:
    tokens = await login(client, *ADMIN)
    await advance(client, 4000)
    data = ok(await client.post(LOGOUT, headers=bearer(tokens["accessToken"])))
    assert data["terminatedSessions"] == 1


async def test_refresh_rotates_and_reuse_revokes_the_family(client: httpx.AsyncClient) -> None:
    tokens = await login(client, *ADMIN)
    bystander = await login(client, *AUDITOR)
    wire = await open_channel(client)
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": tokens["refreshToken"]})
    assert resp.status_code == 200 and env["success"] is True
    second = env["data"]
    assert set(second) == {"accessToken", "refreshToken", "expiresIn"}
    assert second["refreshToken"] != tokens["refreshToken"] and second["expiresIn"] == 3600
    ok(await client.get(PROFILE, headers=bearer(second["accessToken"])))
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": tokens["refreshToken"]})
    assert resp.status_code == 401 and env["code"] == "AUTH.REFRESH_TOKEN_INVALID"
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": second["refreshToken"]})
    assert resp.status_code == 401 and env["code"] == "AUTH.REFRESH_TOKEN_INVALID"
    err(await client.get(PROFILE, headers=bearer(second["accessToken"])), 401, "4010")
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": bystander["refreshToken"]})
    assert env["success"] is True


async def test_refresh_rate_limit(client: httpx.AsyncClient) -> None:
    current = (await login(client, *ADMIN))["refreshToken"]
    wire = await open_channel(client)
    for _ in range(10):
        resp, env = await sealed(client, wire, REFRESH, {"refreshToken": current})
        assert env["success"] is True, env
        current = env["data"]["refreshToken"]
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": current})
    assert resp.status_code == 429 and env["code"] == "REQUEST.RATE_LIMITED"
    await advance(client, 61)
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": current})
    assert env["success"] is True  # the refused attempt did not consume the token


@pytest.mark.parametrize(
    "plaintext",
    [{}, {"refreshToken": ""}, {"refreshToken": 5}, {"refreshToken": "x", "more": 1}, None, "x"],
)
async def test_refresh_bad_plaintext(client: httpx.AsyncClient, plaintext: object) -> None:
    wire = await open_channel(client)
    resp, env = await sealed(client, wire, REFRESH, plaintext)
    assert resp.status_code == 400 and env["code"] == "VALIDATION.INVALID_PARAMETER"


async def test_refresh_token_expiry(client: httpx.AsyncClient) -> None:
    tokens = await login(client, *ADMIN)
    await advance(client, 7 * 86400 + 1)
    wire = await open_channel(client)
    _resp, env = await sealed(client, wire, REFRESH, {"refreshToken": tokens["refreshToken"]})
    assert env["code"] == "AUTH.REFRESH_TOKEN_INVALID"


async def test_access_token_lifetime(client: httpx.AsyncClient) -> None:
    tokens = await login(client, *ADMIN)
    await advance(client, 3590)
    ok(await client.get(PROFILE, headers=bearer(tokens["accessToken"])))
    await advance(client, 11)
    err(await client.get(PROFILE, headers=bearer(tokens["accessToken"])), 401, "4010")


async def test_profile(client: httpx.AsyncClient, admin_headers: dict[str, str]) -> None:
    err(await client.get(PROFILE), 401, "ACCESS.UNAUTHORIZED")
    data = ok(await client.get(PROFILE, headers=admin_headers))
    assert data["accountEmail"] == ADMIN[0]
    assert {"bizId", "accountName"} <= set(data)
    assert {"code", "value", "label"} <= set(data["accountPortal"])
    assert data["accountPortal"]["code"] == "SYSTEM"
    assert "workspace:user:write" in data["permissionCodes"]
    assert {m["code"] for m in data["mfaMethods"]} == {"EMAIL", "OTP"}


async def test_profile_of_the_auditor(
    client: httpx.AsyncClient, auditor_headers: dict[str, str]
) -> None:
    data = ok(await client.get(PROFILE, headers=auditor_headers))
    assert all(p.endswith(":read") for p in data["permissionCodes"])
    assert data["roles"][0]["roleType"] == "CUSTOM"


@pytest.mark.parametrize(
    ("path", "payload"),
    [
        (INITIATE, {"email": "a@b.c"}),
        (INITIATE, {"email": 5, "password": "x"}),
        (INITIATE, {"email": "a" * 400, "password": "x"}),
        (INITIATE, {"email": "a@b.c", "password": ["x"]}),
        (INITIATE, []),
        (INITIATE, None),
        (SEND, {"sessionId": "x", "method": "10011001"}),
        (SEND, {"sessionId": "x", "method": True}),
        (SEND, {"sessionId": "x", "method": 1.5}),
        (SEND, {"method": EMAIL}),
        (COMPLETE, {"sessionId": "x", "method": EMAIL}),
        (COMPLETE, {"sessionId": "x", "method": EMAIL, "code": 123456}),
        (COMPLETE, {"sessionId": "x" * 300, "method": EMAIL, "code": "1"}),
    ],
)
async def test_bad_login_bodies(client: httpx.AsyncClient, path: str, payload: object) -> None:
    err(await client.post(path, json=payload), 400, "VALIDATION.INVALID_PARAMETER")


@pytest.mark.parametrize("raw", [b"{", b"not json", b"\xff\xfe", b'{"email": "a@b.c",}', b""])
async def test_malformed_json(client: httpx.AsyncClient, raw: bytes) -> None:
    resp = await client.post(INITIATE, content=raw, headers={"Content-Type": "application/json"})
    err(resp, 400, "VALIDATION.INVALID_PARAMETER")
