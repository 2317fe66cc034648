"""Token refresh (spec 3 step 4, 4.1, 8) and logout, over the Secure Channel."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    AUDITOR_EMAIL,
    AUDITOR_PASSWORD,
    SYS,
    Api,
    SandboxProcess,
    ScClient,
    Tokens,
    error,
    login,
    ok,
    sc_result_error,
)
from .conftest import StartSandbox

pytestmark = pytest.mark.http

REFRESH = f"{SYS}/auth/token/refresh"
REFRESH_FAILED = {"AUTH.REFRESH_TOKEN_INVALID", "AUTH.SESSION_NOT_FOUND"}


@pytest.fixture
def mod_api(module_sandbox: SandboxProcess) -> Iterator[Api]:
    api = module_sandbox.api()
    yield api
    api.close()


def _refresh(sc: ScClient, token: str, **extra: Any) -> tuple[Any, dict[str, Any]]:
    return sc.call(REFRESH, {"refreshToken": token, **extra})


def _refresh_ok(sc: ScClient, token: str) -> Tokens:
    resp, env = _refresh(sc, token)
    assert resp.status_code == 200, f"HTTP {resp.status_code}: {env}"
    assert env["success"] is True and env["code"] == "2000", env
    data = env["data"]
    assert {"accessToken", "refreshToken", "expiresIn"} <= set(data), data
    return Tokens(data["accessToken"], data["refreshToken"], data)


def _channel(api: Api) -> ScClient:
    sc = ScClient(api)
    sc.open_session()
    return sc


def test_refresh_gives_a_new_pair(mod_api: Api) -> None:
    tokens = login(mod_api, ADMIN_EMAIL, ADMIN_PASSWORD)
    sc = _channel(mod_api)
    resp = sc.send(REFRESH, {"refreshToken": tokens.refresh})
    # The answer is a type-129 body.
    env = sc.open_response(resp)
    assert env["success"] is True, env
    new = Tokens(env["data"]["accessToken"], env["data"]["refreshToken"], env["data"])
    assert new.data["expiresIn"] == 3600
    assert new.refresh != tokens.refresh
    assert new.access != tokens.access
    profile = ok(mod_api.get(f"{SYS}/profile", token=new.access))
    assert profile["accountEmail"] == ADMIN_EMAIL


def test_refresh_rejects_unknown_fields(mod_api: Api) -> None:
    tokens = login(mod_api, AUDITOR_EMAIL, AUDITOR_PASSWORD)
    sc = _channel(mod_api)
    resp, env = _refresh(sc, tokens.refresh, deviceName="extra")
    assert resp.status_code == 400, (resp.status_code, env)
    assert env["success"] is False and env["data"] is None


@pytest.mark.parametrize(
    "body",
    [{}, {"refreshToken": None}, {"refreshToken": 7}, {"refreshToken": ""}],
    ids=["empty", "null", "number", "empty-string"],
)
def test_refresh_invalid_body(mod_api: Api, body: dict[str, Any]) -> None:
    sc = _channel(mod_api)
    resp = sc.send(REFRESH, body)
    sc_result_error(sc, resp, None, {"VALIDATION.INVALID_PARAMETER", *REFRESH_FAILED})


def test_refresh_unknown_token(mod_api: Api) -> None:
    sc = _channel(mod_api)
    resp = sc.send(REFRESH, {"refreshToken": "never-issued-refresh-token"})
    sc_result_error(sc, resp, None, REFRESH_FAILED)


def test_refresh_requires_the_channel(mod_api: Api) -> None:
    resp = mod_api.post(REFRESH, {"refreshToken": "whatever"})
    error(resp, 400, "VALIDATION.INVALID_PARAMETER")


def test_refresh_token_is_single_use_and_reuse_revokes_the_family(
    start_sandbox: StartSandbox,
) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        family = login(api, ADMIN_EMAIL, ADMIN_PASSWORD)
        bystander = login(api, AUDITOR_EMAIL, AUDITOR_PASSWORD)
        sc = _channel(api)
        second = _refresh_ok(sc, family.refresh)
        # Reusing the consumed token fails...
        resp, _ = _refresh(sc, family.refresh)
        sc_result_error(sc, resp, None, REFRESH_FAILED)
        # ...and revokes the whole family: the rotated token is dead too.
        resp, _ = _refresh(sc, second.refresh)
        sc_result_error(sc, resp, None, REFRESH_FAILED)
        # Another account's family is untouched.
        _refresh_ok(sc, bystander.refresh)
    finally:
        api.close()


def test_refresh_rate_limit_is_10_per_window(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        tokens = login(api, ADMIN_EMAIL, ADMIN_PASSWORD)
        sc = _channel(api)
        current = tokens.refresh
        for attempt in range(10):
            resp, env = _refresh(sc, current)
            assert env["success"] is True, f"refresh {attempt + 1} of 10 refused: {env}"
            current = env["data"]["refreshToken"]
        resp, env = _refresh(sc, current)
        assert 400 <= resp.status_code < 500, (resp.status_code, env)
        assert env["success"] is False and env["data"] is None, env
    finally:
        api.close()


def test_logout_terminates_sessions(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        tokens = login(api, ADMIN_EMAIL, ADMIN_PASSWORD)
        ok(api.get(f"{SYS}/profile", token=tokens.access))
        resp = api.request("POST", f"{SYS}/auth/logout", token=tokens.access)
        data = ok(resp)
        assert data["success"] is True, data
        assert isinstance(data["terminatedSessions"], int) and data["terminatedSessions"] >= 1
        sc = _channel(api)
        resp, _ = _refresh(sc, tokens.refresh)
        sc_result_error(sc, resp, None, REFRESH_FAILED)
        error(api.get(f"{SYS}/profile", token=tokens.access), 401, None)
    finally:
        api.close()


def test_logout_with_null_body(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        tokens = login(api, AUDITOR_EMAIL, AUDITOR_PASSWORD)
        resp = api.request(
            "POST",
            f"{SYS}/auth/logout",
            token=tokens.access,
            content=b"null",
            headers={"Content-Type": "application/json"},
        )
        data = ok(resp)
        assert data["success"] is True
    finally:
        api.close()


def test_logout_without_token(api: Api) -> None:
    # Authorization is optional; when the sandbox refuses, it is 401 ACCESS.TOKEN_MISSING.
    resp = api.request("POST", f"{SYS}/auth/logout")
    if resp.status_code == 200:
        data = ok(resp)
        assert isinstance(data["terminatedSessions"], int)
    else:
        error(resp, 401, "ACCESS.TOKEN_MISSING")
