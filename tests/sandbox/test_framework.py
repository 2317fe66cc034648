"""The framework: headers, language, request ids, error envelopes, paging and sort helpers."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sandbox_flows import SC, SYSTEM, bearer, err, ok

from portal_admin.sandbox.clock import TestClock, iso
from portal_admin.sandbox.db import Database
from portal_admin.sandbox.errors import ApiError
from portal_admin.sandbox.paging import order_by, paging
from portal_admin.sandbox.state import SandboxState
from portal_admin.sandbox.tokens import access_token

PRE_LOGIN = [
    ("POST", f"{SYSTEM}/auth/login/initiate"),
    ("POST", f"{SYSTEM}/auth/login/mfa/send"),
    ("POST", f"{SYSTEM}/auth/login/complete"),
    ("POST", f"{SYSTEM}/auth/password/forgot"),
    ("POST", f"{SYSTEM}/auth/password/reset"),
    ("POST", f"{SYSTEM}/auth/password/init"),
    ("POST", f"{SYSTEM}/auth/token/refresh"),
    ("GET", f"{SC}/public-key"),
    ("POST", f"{SC}/session"),
    ("POST", f"{SC}/session/close"),
]


@pytest.mark.parametrize("code", [None, "", "WRONG", "sandbox"])
async def test_access_code_is_required_on_system_paths(
    client: httpx.AsyncClient, admin_headers: dict[str, str], code: str | None
) -> None:
    headers = {**admin_headers}
    client.headers.pop("X-PORTAL-ACCESS-CODE")
    if code is not None:
        headers["X-PORTAL-ACCESS-CODE"] = code
    for path in (f"{SYSTEM}/profile", f"{SYSTEM}/constants/countries", f"{SYSTEM}/nowhere"):
        err(await client.get(path, headers=headers), 403, "ACCESS.PERMISSION_DENIED")


async def test_access_code_not_needed_outside_system(client: httpx.AsyncClient) -> None:
    client.headers.pop("X-PORTAL-ACCESS-CODE")
    ok(await client.get(f"{SC}/public-key"))
    ok(await client.get("/sandbox/mailbox", params={"to": "admin@sandbox.test"}))


@pytest.mark.parametrize(("method", "path"), PRE_LOGIN)
async def test_client_hash_required_on_pre_login_calls(
    client: httpx.AsyncClient, method: str, path: str
) -> None:
    client.headers.pop("X-Client-Hash")
    resp = await client.request(method, path, json={})
    err(resp, 400, "VALIDATION.INVALID_PARAMETER")
    resp = await client.request(method, path, json={}, headers={"X-Client-Hash": "  "})
    err(resp, 400, "VALIDATION.INVALID_PARAMETER")


async def test_client_hash_not_needed_after_login(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    client.headers.pop("X-Client-Hash")
    ok(await client.get(f"{SYSTEM}/profile", headers=admin_headers))


async def test_request_id_echoed_or_made_up(client: httpx.AsyncClient) -> None:
    resp = await client.get(f"{SC}/public-key", headers={"X-Request-Id": "req-123"})
    assert resp.headers["X-Request-Id"] == "req-123"
    made = await client.get(f"{SC}/public-key")
    assert len(made.headers["X-Request-Id"]) == 36
    for resp in (
        await client.get("/nowhere", headers={"X-Request-Id": "r-404"}),
        await client.get(f"{SYSTEM}/profile", headers={"X-Request-Id": "r-401"}),
        await client.get(
            f"{SYSTEM}/profile", headers={"X-Request-Id": "r-403", "X-PORTAL-ACCESS-CODE": "x"}
        ),
    ):
        assert resp.headers["X-Request-Id"].startswith("r-4")
    oversized = await client.get(f"{SC}/public-key", headers={"X-Request-Id": "x" * 500})
    assert len(oversized.headers["X-Request-Id"]) == 36


async def test_unknown_route_and_wrong_method(client: httpx.AsyncClient) -> None:
    err(await client.get("/nowhere"), 404, "RESOURCE.NOT_FOUND")
    err(await client.get(f"{SYSTEM}/no/such/operation"), 404, "RESOURCE.NOT_FOUND")
    resp = await client.get(f"{SYSTEM}/auth/login/initiate")
    err(resp, 405, "REQUEST.METHOD_NOT_ALLOWED")
    assert "POST" in resp.headers.get("Allow", "")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("zh-CN,zh;q=0.9", "zh"),
        ("zh-TW", "zh-Hant"),
        ("ZH-hant", "zh-Hant"),
        ("fr;q=1, ja;q=0.5", "ja"),
        ("vi-VN", "vi"),
        ("de", "en"),
        ("", "en"),
    ],
)
async def test_errors_are_localized(
    app: FastAPI, client: httpx.AsyncClient, header: str, expected: str
) -> None:
    from portal_admin.sandbox.i18n import error_message

    resp = await client.get("/nowhere", headers={"Accept-Language": header})
    assert resp.json()["message"] == error_message("RESOURCE.NOT_FOUND", expected)


async def test_unexpected_exception_is_a_clean_500(app: FastAPI) -> None:
    async def boom() -> None:
        raise RuntimeError("secret internal detail")

    app.router.add_api_route("/sandbox/boom", boom, methods=["GET"])
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        resp = await c.get("/sandbox/boom", headers={"X-Request-Id": "boom-1"})
    err(resp, 500, "5000")
    assert "secret internal detail" not in resp.text
    assert resp.headers["X-Request-Id"] == "boom-1"


async def test_api_error_raised_in_a_route(app: FastAPI) -> None:
    async def conflict() -> None:
        raise ApiError("WORKSPACE.ROLE_IN_USE")

    app.router.add_api_route("/sandbox/conflict", conflict, methods=["GET"])
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        err(await c.get("/sandbox/conflict"), 409, "WORKSPACE.ROLE_IN_USE")


@pytest.mark.parametrize("authorization", ["", "Bearer", "Bearer   ", "Basic abc", "Token x"])
async def test_missing_token(client: httpx.AsyncClient, authorization: str) -> None:
    resp = await client.post(
        f"{SYSTEM}/accounts/admin/query", json={}, headers={"Authorization": authorization}
    )
    err(resp, 401, "ACCESS.TOKEN_MISSING")


async def test_invalid_and_expired_tokens(
    client: httpx.AsyncClient, state: SandboxState, admin_token: str
) -> None:
    for token in ("garbage", admin_token[:-4] + "AAAA", admin_token + "x"):
        err(await client.get(f"{SYSTEM}/profile", headers=bearer(token)), 401, "4010")
    ok(await client.get(f"{SYSTEM}/profile", headers=bearer(admin_token)))
    assert state.test_clock is not None
    state.test_clock.advance(3601)
    err(await client.get(f"{SYSTEM}/profile", headers=bearer(admin_token)), 401, "4010")


async def test_token_of_an_ended_session_is_refused(
    client: httpx.AsyncClient, state: SandboxState
) -> None:
    sid = "SES-NOT-OPEN"
    biz = state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = 'admin@sandbox.test'")
    token = access_token(state, str(biz), sid)
    err(await client.get(f"{SYSTEM}/profile", headers=bearer(token)), 401, "4010")


async def test_workspace_header(
    client: httpx.AsyncClient,
    state: SandboxState,
    admin_headers: dict[str, str],
    auditor_headers: dict[str, str],
) -> None:
    workspaces = [r[0] for r in state.db.query("SELECT biz_id FROM workspaces ORDER BY name")]
    query = f"{SYSTEM}/accounts/admin/query"
    for ws in workspaces:
        ok(await client.post(query, json={}, headers={**admin_headers, "X-Workspace-Id": ws}))
    resp = await client.post(
        query, json={}, headers={**admin_headers, "X-Workspace-Id": "WSP-UNKNOWN"}
    )
    err(resp, 403, "ACCESS.PERMISSION_DENIED")
    other = state.db.scalar("SELECT biz_id FROM workspaces WHERE name = 'Tenant Review'")
    resp = await client.post(
        query, json={}, headers={**auditor_headers, "X-Workspace-Id": str(other)}
    )
    err(resp, 403, "ACCESS.PERMISSION_DENIED")


def test_paging_rules() -> None:
    assert paging(None, None) == paging(0, 20)
    assert paging("2", "500").size == 100
    assert paging(3, 10).offset == 30
    for page, size in ((-1, 20), (0, -5), (0, 0), ("x", 20), (True, 20), (1.5, 20), (0, "9" * 20)):
        with pytest.raises(ApiError) as info:
            paging(page, size)
        assert info.value.code == "VALIDATION.INVALID_PARAMETER"


def test_order_by() -> None:
    allowed = {"accountEmail": "email_key", "createdAt": "created_at"}
    assert order_by([], allowed, default="id") == "ORDER BY id"
    clause = order_by(["accountEmail,DESC", "createdAt"], allowed, default="id", tiebreak="id")
    assert clause == "ORDER BY email_key DESC, created_at ASC, id ASC"
    for bad in ("password,asc", "accountEmail,sideways", "accountEmail;drop,asc"):
        with pytest.raises(ApiError):
            order_by([bad], allowed, default="id")


def test_database_transactions_roll_back() -> None:
    db = Database()
    db.execute("CREATE TABLE t (x INTEGER)")
    with pytest.raises(RuntimeError), db.transaction():
        db.execute("INSERT INTO t VALUES (1)")
        with db.transaction():
            db.execute("INSERT INTO t VALUES (2)")
        raise RuntimeError
    assert db.scalar("SELECT count(*) FROM t") == 0
    with db.transaction():
        db.execute("INSERT INTO t VALUES (3)")
    assert db.scalar("SELECT count(*) FROM t") == 1
    db.close()


def test_clocks() -> None:
    clock = TestClock()
    before = clock.now()
    assert clock.advance(100) >= before + 100
    with pytest.raises(ValueError):
        clock.advance(-1)
    assert iso(0) == "1970-01-01T00:00:00Z"
    assert iso(None) is None
