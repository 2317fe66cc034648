"""Brute force: the sandbox throttles repeated failed sign-ins without telling which part was
wrong, and authenticator (TOTP) codes are single-use."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from portal_admin.sandbox import SandboxConfig, create_app

SYSTEM = "/web/v1/system"
HEADERS = {"X-PORTAL-ACCESS-CODE": "SANDBOX", "X-Client-Hash": "brute-force"}
ADMIN = ("admin@sandbox.test", "Sandbox-Admin-2026!")
OTP = 10011002


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(SandboxConfig(seed_accounts=3, test_clock=True))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://sandbox.test", headers=HEADERS
    ) as client:
        yield client


async def initiate(http: httpx.AsyncClient, email: str, password: str) -> httpx.Response:
    return await http.post(
        f"{SYSTEM}/auth/login/initiate", json={"email": email, "password": password}
    )


def shape(response: httpx.Response) -> tuple[int, str, str, Any]:
    """What a caller can learn from an answer (the request id and time aside)."""
    body = response.json()
    return response.status_code, body["code"], body["message"], body["data"]


async def test_wrong_email_and_wrong_password_answer_alike(http: httpx.AsyncClient) -> None:
    unknown = await initiate(http, "nobody-here@sandbox.test", ADMIN[1])
    wrong = await initiate(http, ADMIN[0], "Wrong-Password-1!")
    assert shape(unknown) == shape(wrong)
    assert shape(wrong)[:2] == (401, "AUTH.INVALID_CREDENTIALS")
    assert set(unknown.headers) - {"x-request-id"} == set(wrong.headers) - {"x-request-id"}


async def test_repeated_failures_are_throttled_then_even_the_right_password(
    http: httpx.AsyncClient,
) -> None:
    answers = [shape(await initiate(http, ADMIN[0], f"Wrong-{n}-Password!")) for n in range(5)]
    assert {a[:2] for a in answers} == {(401, "AUTH.INVALID_CREDENTIALS")}
    throttled = await initiate(http, ADMIN[0], ADMIN[1])  # the right password, too late
    assert shape(throttled)[:2] == (429, "REQUEST.RATE_LIMITED")
    # an unknown email is throttled the same way: no account enumeration by the limit either
    for n in range(5):
        await initiate(http, "ghost@sandbox.test", f"Wrong-{n}-Password!")
    ghost = await initiate(http, "ghost@sandbox.test", "Another-1!")
    assert shape(ghost)[:3] == shape(await initiate(http, ADMIN[0], "x" * 9))[:3]
    # after the window the right password works again
    await http.post("/sandbox/clock/advance", json={"seconds": 16 * 60})
    assert (await initiate(http, ADMIN[0], ADMIN[1])).status_code == 200


async def test_totp_codes_are_single_use(http: httpx.AsyncClient) -> None:
    async def start() -> str:
        response = await initiate(http, ADMIN[0], ADMIN[1])
        assert response.status_code == 200, response.text
        session: str = response.json()["data"]["sessionId"]
        return session

    code = (await http.get("/sandbox/totp", params={"email": ADMIN[0]})).json()["data"]["code"]
    first = await http.post(
        f"{SYSTEM}/auth/login/complete",
        json={"sessionId": await start(), "method": OTP, "code": code},
    )
    assert first.status_code == 200 and first.json()["data"]["accessToken"]
    again = await http.post(
        f"{SYSTEM}/auth/login/complete",
        json={"sessionId": await start(), "method": OTP, "code": code},
    )
    assert shape(again)[:2] == (400, "AUTH.MFA_CODE_INVALID")
    assert "accessToken" not in again.text
