"""Security operations (spec 4.3): IP whitelist, MFA, backup codes, sessions, login history."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SYS,
    Api,
    check_shape_a,
    error,
    is_enum_item,
    login,
    ok,
    parse_iso,
)
from .conftest import StartSandbox

pytestmark = pytest.mark.http

SEC = f"{SYS}/security"


@pytest.mark.parametrize(
    "path",
    [
        "ip-whitelist",
        "mfa",
        "mfa/backup-codes",
        "sessions",
        "sessions/config",
        "sessions/history",
    ],
)
def test_security_reads_without_token(api: Api, path: str) -> None:
    error(api.get(f"{SEC}/{path}"), 401, "ACCESS.TOKEN_MISSING")


@pytest.mark.parametrize(
    "path",
    [
        "ip-whitelist",
        "ip-whitelist/enable",
        "ip-whitelist/disable",
        "mfa/backup-codes/generate",
    ],
)
def test_security_writes_without_token(api: Api, path: str) -> None:
    body = {"ips": ["127.0.0.1"]} if path == "ip-whitelist" else None
    error(api.post(f"{SEC}/{path}", body), 401, "ACCESS.TOKEN_MISSING")


def test_ip_whitelist(api: Api, admin_token: str) -> None:
    data = ok(api.get(f"{SEC}/ip-whitelist", token=admin_token))
    assert isinstance(data["enabled"], bool)
    assert isinstance(data["entries"], list)


def test_ip_whitelist_set_enable_disable(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        token = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
        resp = api.post(
            f"{SEC}/ip-whitelist", {"ips": ["127.0.0.1", "::1", "10.0.0.1"]}, token=token
        )
        assert resp.status_code == 200, resp.text
        ok(resp)
        data = ok(api.get(f"{SEC}/ip-whitelist", token=token))
        assert len(data["entries"]) == 3
        ok(api.post(f"{SEC}/ip-whitelist/enable", token=token))
        assert ok(api.get(f"{SEC}/ip-whitelist", token=token))["enabled"] is True
        ok(api.post(f"{SEC}/ip-whitelist/disable", token=token))
        assert ok(api.get(f"{SEC}/ip-whitelist", token=token))["enabled"] is False
    finally:
        api.close()


@pytest.mark.parametrize(
    "body",
    [{}, {"ips": "127.0.0.1"}, {"ips": ["not-an-ip"]}, {"ips": [12]}, {"ips": ["300.1.1.1"]}],
    ids=["empty", "string", "bad-ip", "number", "out-of-range"],
)
def test_ip_whitelist_invalid(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    resp = api.post(f"{SEC}/ip-whitelist", body, token=admin_token)
    error(resp, 400, "VALIDATION.INVALID_PARAMETER")


def test_mfa_settings(api: Api, admin_token: str) -> None:
    data = ok(api.get(f"{SEC}/mfa", token=admin_token))
    assert isinstance(data, list) and data
    codes = set()
    for setting in data:
        assert {"mfaMethod", "isEnabled", "isPrimary", "verifiedAt"} <= set(setting), setting
        assert isinstance(setting["mfaMethod"], dict)
        assert isinstance(setting["mfaMethod"]["code"], str)
        codes.add(setting["mfaMethod"]["code"])
        assert isinstance(setting["isEnabled"], bool)
        assert isinstance(setting["isPrimary"], bool)
        if setting["verifiedAt"] is not None:
            parse_iso(setting["verifiedAt"])
    assert {"EMAIL", "OTP"} <= codes


def test_backup_codes(api: Api, admin_token: str) -> None:
    data = ok(api.get(f"{SEC}/mfa/backup-codes", token=admin_token))
    assert isinstance(data["remainingCount"], int)
    assert isinstance(data["totalGenerated"], int)


def test_backup_codes_generate(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        token = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
        resp = api.post(f"{SEC}/mfa/backup-codes/generate", token=token)
        assert resp.status_code == 200, resp.text
        ok(resp)
        data = ok(api.get(f"{SEC}/mfa/backup-codes", token=token))
        assert data["remainingCount"] > 0
        assert data["totalGenerated"] >= data["remainingCount"]
    finally:
        api.close()


def test_sessions(api: Api, admin_token: str) -> None:
    data = ok(api.get(f"{SEC}/sessions", token=admin_token))
    assert isinstance(data, list) and data
    for session in data:
        assert {
            "sessionId",
            "clientIp",
            "userAgent",
            "loginTime",
            "lastActivityTime",
            "isCurrent",
        } <= set(session), session
        assert isinstance(session["sessionId"], str)
        assert isinstance(session["isCurrent"], bool)
        parse_iso(session["loginTime"])
        parse_iso(session["lastActivityTime"])


def test_sessions_config(api: Api, admin_token: str) -> None:
    data = ok(api.get(f"{SEC}/sessions/config", token=admin_token))
    assert {
        "accountBizId",
        "ssoEnabled",
        "maxSessions",
        "passwordChangedAt",
        "lastLoginAt",
        "lastLoginIp",
    } <= set(data), data
    assert isinstance(data["accountBizId"], str)
    assert isinstance(data["ssoEnabled"], bool)
    assert isinstance(data["maxSessions"], int)
    assert data["lastLoginIp"] is None or isinstance(data["lastLoginIp"], str)


def test_login_history(api: Api, admin_token: str) -> None:
    # A failure of our own, so that the newest records hold both kinds.
    api.post(f"{SYS}/auth/login/initiate", {"email": ADMIN_EMAIL, "password": "wrong-once"})
    login(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    data = ok(api.get(f"{SEC}/sessions/history", token=admin_token))
    check_shape_a(data)
    assert data["pagination"]["pageSize"] == 20
    assert data["pagination"]["currentPage"] == 1
    assert data["items"]
    results = set()
    for item in data["items"]:
        assert {
            "bizId",
            "loginTime",
            "clientIp",
            "userAgent",
            "loginResult",
            "failureReason",
        } <= set(item), item
        assert isinstance(item["loginResult"], int)
        results.add(item["loginResult"])
        parse_iso(item["loginTime"])
        if item["loginResult"] == 1:
            assert item["failureReason"] is None
    assert 1 in results
    assert results - {1}, "no failed sign-in in the newest history page"


def test_mfa_settings_enum_items(api: Api, admin_token: str) -> None:
    for setting in ok(api.get(f"{SEC}/mfa", token=admin_token)):
        method = setting["mfaMethod"]
        assert method["value"] in (10011001, 10011002)
        if "label" in method:
            is_enum_item(method)


def test_seeded_sessions_and_history_for_the_administrator(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        token = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
        sessions = ok(api.get(f"{SEC}/sessions", token=token))
        assert len(sessions) >= 2, "no seeded sessions beside the one just opened"
        history = ok(api.get(f"{SEC}/sessions/history", token=token))
        check_shape_a(history)
        assert history["pagination"]["totalRecords"] >= 2
        results = {item["loginResult"] for item in history["items"]}
        assert 1 in results
        assert results - {1}, "no seeded failed sign-in on the first history page"
    finally:
        api.close()
