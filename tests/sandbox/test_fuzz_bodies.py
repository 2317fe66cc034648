"""Arbitrary JSON thrown at every operation of the sandbox core: an envelope, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sandbox_flows import BASE_HEADERS, SC, SYSTEM, bearer

from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.state import SandboxState
from portal_admin.sandbox.tokens import sign_in

PATHS = [
    f"{SYSTEM}/auth/login/initiate",
    f"{SYSTEM}/auth/login/mfa/send",
    f"{SYSTEM}/auth/login/complete",
    f"{SYSTEM}/auth/token/refresh",
    f"{SYSTEM}/auth/password/forgot",
    f"{SYSTEM}/auth/password/reset",
    f"{SYSTEM}/auth/password/change",
    f"{SYSTEM}/auth/password/init",
    f"{SYSTEM}/accounts/admin/query",
    f"{SYSTEM}/accounts/admin/status",
    f"{SYSTEM}/accounts/admin/password/reset",
    f"{SYSTEM}/accounts/admin/update",
    f"{SC}/session",
    f"{SC}/session/close",
    "/sandbox/clock/advance",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "email",
                    "password",
                    "sessionId",
                    "method",
                    "code",
                    "page",
                    "size",
                    "sort",
                    "userBizId",
                    "action",
                    "v",
                    "p",
                    "seconds",
                    "refreshToken",
                    "token",
                    "newPassword",
                    "accountName",
                    "name",
                    "accountStatus",
                ]
            )
            | st.text(max_size=8),
            children,
            max_size=5,
        )
    ),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def fuzz_app() -> Iterator[tuple[FastAPI, str]]:
    app = create_app(SandboxConfig(seed_accounts=10, test_clock=True))
    state: SandboxState = app.state.sandbox
    admin = state.db.scalar("SELECT biz_id FROM accounts WHERE id = 1")
    yield app, sign_in(state, str(admin)).access_token
    state.db.close()


def check(resp: httpx.Response) -> None:
    assert resp.status_code < 500, resp.text
    body: Any = resp.json()
    assert (isinstance(body, dict) and {"code", "success", "message", "data"} <= set(body)) or (
        set(body) == {"v", "p"}
    ), body
    assert "Traceback" not in resp.text


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(path=st.sampled_from(PATHS), payload=json_values, with_sc=st.booleans())
async def test_any_json_body(
    fuzz_app: tuple[FastAPI, str], path: str, payload: Any, with_sc: bool
) -> None:
    app, token = fuzz_app
    headers = {**BASE_HEADERS, **bearer(token)}
    if with_sc:
        headers.update({"X-SC-Version": "2", "X-SC-Session-Id": "scs_x", "X-Challenge-Token": "c"})
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        check(await c.post(path, content=json.dumps(payload), headers=headers))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(path=st.sampled_from(PATHS), raw=st.binary(max_size=200))
async def test_any_bytes(fuzz_app: tuple[FastAPI, str], path: str, raw: bytes) -> None:
    app, token = fuzz_app
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        resp = await c.post(
            path,
            content=raw,
            headers={**BASE_HEADERS, **bearer(token), "Content-Type": "application/json"},
        )
        check(resp)


async def test_oversized_values(fuzz_app: tuple[FastAPI, str]) -> None:
    app, token = fuzz_app
    huge = "x" * 200_000
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://t",
        headers={**BASE_HEADERS, **bearer(token)},
    ) as c:
        for path in PATHS:
            resp = await c.post(
                path,
                json={
                    "email": huge,
                    "password": huge,
                    "sessionId": huge,
                    "userBizId": huge,
                    "name": huge,
                },
            )
            check(resp)
            if not path.endswith("/logout"):  # logout reads no body
                assert resp.status_code in (400, 401, 403, 404), (path, resp.status_code)
        resp = await c.post(PATHS[0], content=b"[" * 100_000)
        check(resp)
        resp = await c.post(PATHS[0], content=b'{"a":' * 50_000)
        check(resp)
        resp = await c.post(PATHS[0], content=b"x" * 2_000_000)
        check(resp)
