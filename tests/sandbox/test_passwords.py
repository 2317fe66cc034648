"""Passwords: forgot, reset, change, init."""

from __future__ import annotations

import httpx
import pytest
from sandbox_flows import (
    SYSTEM,
    advance,
    bearer,
    err,
    initiate,
    login,
    mailbox,
    ok,
    open_channel,
    sealed,
)
from sc_wire import WireClient

from support.accounts import ADMIN, AUDITOR, NEWUSER

FORGOT = f"{SYSTEM}/auth/password/forgot"
RESET = f"{SYSTEM}/auth/password/reset"
CHANGE = f"{SYSTEM}/auth/password/change"
INIT = f"{SYSTEM}/auth/password/init"
INVALID = "VALIDATION.INVALID_PARAMETER"


async def forgot(
    client: httpx.AsyncClient, wire: WireClient, email: str, challenge: str = "ok-challenge"
) -> httpx.Response:
    return await client.post(
        FORGOT,
        json={"email": email, "challengeToken": challenge},
        headers={**wire.headers(), "X-Challenge-Token": challenge},
    )


async def test_forgot_same_answer_and_reset(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    known = ok(await forgot(client, wire, ADMIN[0]))
    unknown = ok(await forgot(client, wire, "nobody@sandbox.test"))
    assert known == unknown and known["success"] is True and known["message"]
    assert await mailbox(client, "nobody@sandbox.test") == []
    mail = (await mailbox(client, ADMIN[0]))[0]
    assert mail["token"] and mail["token"] in mail["body"] and mail["code"] is None
    resp, env = await sealed(
        client, wire, RESET, {"token": mail["token"], "newPassword": "Brand-New-Pass-1"}
    )
    assert resp.status_code == 200 and env["data"]["success"] is True
    resp, env = await sealed(
        client, wire, RESET, {"token": mail["token"], "newPassword": "Brand-New-Pass-2"}
    )
    assert resp.status_code == 400 and env["code"] == "AUTH.PASSWORD_RESET_TOKEN_INVALID"
    err(
        await client.post(
            f"{SYSTEM}/auth/login/initiate", json={"email": ADMIN[0], "password": ADMIN[1]}
        ),
        401,
        "AUTH.INVALID_CREDENTIALS",
    )
    await initiate(client, ADMIN[0], "Brand-New-Pass-1")


async def test_forgot_rate_limited(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    for email in (AUDITOR[0], "ghost@sandbox.test"):
        ok(await forgot(client, wire, email))
        err(await forgot(client, wire, email), 429, "REQUEST.RATE_LIMITED")
    await advance(client, 61)
    ok(await forgot(client, wire, AUDITOR[0]))


async def test_forgot_needs_channel_and_challenge(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    good = {"email": ADMIN[0], "challengeToken": "c"}
    resp = await client.post(FORGOT, json=good, headers={"X-Challenge-Token": "c"})
    err(resp, 400, INVALID)
    resp = await client.post(
        FORGOT,
        json=good,
        headers={"X-SC-Version": "2", "X-SC-Session-Id": "scs_nope", "X-Challenge-Token": "c"},
    )
    err(resp, 401, "SECURE_CHANNEL.SESSION_INVALID")
    resp = await client.post(FORGOT, json=good, headers=wire.headers())
    err(resp, 400, INVALID)
    for body in (
        {"email": ADMIN[0]},
        {"email": ADMIN[0], "challengeToken": ""},
        {"email": "not-an-email", "challengeToken": "c"},
        {"email": 7, "challengeToken": "c"},
        None,
    ):
        resp = await client.post(
            FORGOT, json=body, headers={**wire.headers(), "X-Challenge-Token": "c"}
        )
        err(resp, 400, INVALID)
    err(await forgot(client, wire, ADMIN[0], "sandbox-challenge-fail"), 400, INVALID)


async def test_reset_token_expiry_and_bad_input(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    ok(await forgot(client, wire, AUDITOR[0]))
    token = (await mailbox(client, AUDITOR[0]))[0]["token"]
    resp, env = await sealed(client, wire, RESET, {"token": token, "newPassword": "short"})
    assert resp.status_code == 400 and env["code"] == INVALID
    resp, env = await sealed(
        client, wire, RESET, {"token": "prt_wrong", "newPassword": "Long-Enough-1"}
    )
    assert env["code"] == "AUTH.PASSWORD_RESET_TOKEN_INVALID"
    await advance(client, 1801)
    wire = await open_channel(client)
    resp, env = await sealed(client, wire, RESET, {"token": token, "newPassword": "Long-Enough-1"})
    assert env["code"] == "AUTH.PASSWORD_RESET_TOKEN_INVALID"
    resp, env = await sealed(client, wire, RESET, {"token": token})
    assert env["code"] == INVALID


async def test_reset_ends_sessions(client: httpx.AsyncClient) -> None:
    tokens = await login(client, *AUDITOR)
    wire = await open_channel(client)
    ok(await forgot(client, wire, AUDITOR[0]))
    token = (await mailbox(client, AUDITOR[0]))[0]["token"]
    await sealed(client, wire, RESET, {"token": token, "newPassword": "Long-Enough-1"})
    err(await client.get(f"{SYSTEM}/profile", headers=bearer(tokens["accessToken"])), 401, "4010")


async def test_change(client: httpx.AsyncClient, admin_token: str) -> None:
    wire = await open_channel(client)
    resp, env = await sealed(
        client,
        wire,
        CHANGE,
        {"currentPassword": "wrong-one", "newPassword": "Changed-Pass-1"},
        admin_token,
    )
    assert resp.status_code == 400 and env["code"] == "AUTH.CURRENT_PASSWORD_INCORRECT"
    resp, env = await sealed(
        client, wire, CHANGE, {"currentPassword": ADMIN[1], "newPassword": "x"}, admin_token
    )
    assert resp.status_code == 400 and env["code"] == INVALID
    resp, env = await sealed(
        client,
        wire,
        CHANGE,
        {"currentPassword": ADMIN[1], "newPassword": "Changed-Pass-1"},
        admin_token,
    )
    assert resp.status_code == 200 and env["data"]["success"] is True
    await initiate(client, ADMIN[0], "Changed-Pass-1")
    # still signed in after a change
    ok(await client.get(f"{SYSTEM}/profile", headers=bearer(admin_token)))


async def test_change_needs_a_token(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    body = {"currentPassword": ADMIN[1], "newPassword": "Changed-Pass-1"}
    resp, env = await sealed(client, wire, CHANGE, body)
    assert resp.status_code == 401 and env["code"] == "ACCESS.TOKEN_MISSING"
    resp, env = await sealed(client, wire, CHANGE, body, token="garbage")
    assert resp.status_code == 401 and env["code"] == "4010"


async def test_init_newuser(client: httpx.AsyncClient) -> None:
    mail = (await mailbox(client, NEWUSER))[0]
    assert mail["sessionId"] and mail["token"] is None and mail["code"] is None
    wire = await open_channel(client)
    resp, env = await sealed(
        client, wire, INIT, {"sessionId": mail["sessionId"], "password": "short"}
    )
    assert resp.status_code == 400 and env["code"] == INVALID
    resp, env = await sealed(
        client, wire, INIT, {"sessionId": mail["sessionId"], "password": "First-Pass-2026"}
    )
    assert resp.status_code == 200
    assert env["data"]["email"] == NEWUSER and env["data"]["status"] == 10010202
    assert isinstance(env["data"]["bizId"], str)
    resp, env = await sealed(
        client, wire, INIT, {"sessionId": mail["sessionId"], "password": "First-Pass-2027"}
    )
    assert resp.status_code == 400 and env["code"] == INVALID
    data = await login(client, NEWUSER, "First-Pass-2026")
    assert data["accountStatus"]["code"] == "ACTIVE"


@pytest.mark.parametrize(
    "plaintext",
    [
        {},
        {"sessionId": "PISnope", "password": "Long-Enough-1"},
        {"sessionId": 1, "password": "Long-Enough-1"},
        {"sessionId": "x", "password": "y", "z": 1},
    ],
)
async def test_init_bad_input(client: httpx.AsyncClient, plaintext: object) -> None:
    wire = await open_channel(client)
    resp, env = await sealed(client, wire, INIT, plaintext)
    assert resp.status_code == 400 and env["code"] == INVALID
