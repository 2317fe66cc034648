"""Headers the sandbox enforces (contract, "Headers it enforces") and the envelope (spec 2.1)."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SC,
    SYS,
    Api,
    ScClient,
    envelope,
    error,
    ok,
)

pytestmark = pytest.mark.http

# (method, path, body) of /web/v1/system/ calls, public and authenticated.
SYSTEM_CALLS: list[tuple[str, str, Any]] = [
    ("GET", f"{SYS}/constants/user-account-statuses", None),
    ("GET", f"{SYS}/constants/countries", None),
    ("POST", f"{SYS}/auth/login/initiate", {"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}),
    ("POST", f"{SYS}/auth/password/forgot", {"email": "x@example.test", "challengeToken": "t"}),
    ("GET", f"{SYS}/profile", None),
    ("GET", f"{SYS}/roles", None),
    ("POST", f"{SYS}/accounts/admin/query", {"page": 0, "size": 5}),
    ("GET", f"{SYS}/security/mfa", None),
]

PRE_LOGIN_PLAIN: list[tuple[str, Any]] = [
    (f"{SYS}/auth/login/initiate", {"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}),
    (f"{SYS}/auth/login/mfa/send", {"sessionId": "whatever", "method": 10011001}),
    (f"{SYS}/auth/login/complete", {"sessionId": "whatever", "method": 10011001, "code": "1"}),
    (
        f"{SYS}/auth/password/forgot",
        {"email": "nobody-hash@example.test", "challengeToken": "challenge"},
    ),
]


def _call(api: Api, method: str, path: str, body: Any, **kwargs: Any) -> Any:
    if method == "GET":
        return api.get(path, **kwargs)
    return api.post(path, body, **kwargs)


@pytest.mark.parametrize(("method", "path", "body"), SYSTEM_CALLS, ids=lambda v: str(v)[:40])
def test_missing_access_code_is_403(
    api: Api, admin_token: str, method: str, path: str, body: Any
) -> None:
    resp = _call(api, method, path, body, token=admin_token, drop=["X-PORTAL-ACCESS-CODE"])
    error(resp, 403, "ACCESS.PERMISSION_DENIED")


@pytest.mark.parametrize(("method", "path", "body"), SYSTEM_CALLS, ids=lambda v: str(v)[:40])
def test_wrong_access_code_is_403(
    api: Api, admin_token: str, method: str, path: str, body: Any
) -> None:
    resp = _call(
        api, method, path, body, token=admin_token, headers={"X-PORTAL-ACCESS-CODE": "WRONG"}
    )
    error(resp, 403, "ACCESS.PERMISSION_DENIED")


def test_access_code_is_case_sensitive_value(api: Api) -> None:
    resp = api.get(f"{SYS}/constants/order-statuses", headers={"X-PORTAL-ACCESS-CODE": "sandbox"})
    error(resp, 403, "ACCESS.PERMISSION_DENIED")


@pytest.mark.parametrize(("path", "body"), PRE_LOGIN_PLAIN, ids=lambda v: str(v)[:45])
def test_missing_client_hash_on_pre_login_call_is_400(api: Api, path: str, body: Any) -> None:
    resp = api.post(path, body, drop=["X-Client-Hash"])
    error(resp, 400, "VALIDATION.INVALID_PARAMETER")


@pytest.mark.parametrize(
    "path",
    [
        f"{SYS}/auth/password/reset",
        f"{SYS}/auth/password/init",
        f"{SYS}/auth/token/refresh",
        f"{SC}/session/close",
    ],
)
def test_missing_client_hash_on_encrypted_pre_login_call_is_400(api: Api, path: str) -> None:
    sc = ScClient(api)
    sc.open_session()
    binary = sc.data_envelope({})
    resp = sc.send_raw(path, sc.body(binary), headers=sc.headers(), drop=["X-Client-Hash"])
    error(resp, 400, "VALIDATION.INVALID_PARAMETER")


def test_missing_client_hash_on_public_key_is_400(api: Api) -> None:
    error(api.get(f"{SC}/public-key", drop=["X-Client-Hash"]), 400, "VALIDATION.INVALID_PARAMETER")


def test_missing_client_hash_on_session_creation_is_400(api: Api) -> None:
    sc = ScClient(api)
    sc.fetch_public_key()
    binary = sc.key_exchange()
    resp = sc.send_raw(
        f"{SC}/session",
        sc.body(binary),
        headers=sc.headers(with_session=False),
        drop=["X-Client-Hash"],
    )
    error(resp, 400, "VALIDATION.INVALID_PARAMETER")


def test_request_id_is_echoed(api: Api) -> None:
    rid = "3f1e2d3c-4b5a-4978-8a9b-0c1d2e3f4a5b"
    resp = api.get(f"{SYS}/constants/order-statuses", headers={"X-Request-Id": rid})
    ok(resp)
    assert resp.headers.get("X-Request-Id") == rid


def test_request_id_is_echoed_on_errors(api: Api) -> None:
    rid = "req-on-error-0001"
    resp = api.get(
        f"{SYS}/constants/order-statuses",
        headers={"X-Request-Id": rid},
        drop=["X-PORTAL-ACCESS-CODE"],
    )
    error(resp, 403, "ACCESS.PERMISSION_DENIED")
    assert resp.headers.get("X-Request-Id") == rid
    resp = api.post(
        f"{SYS}/auth/login/initiate",
        {"email": ADMIN_EMAIL, "password": "wrong"},
        headers={"X-Request-Id": rid},
    )
    error(resp, 401, "AUTH.INVALID_CREDENTIALS")
    assert resp.headers.get("X-Request-Id") == rid


def test_request_id_is_made_up_when_absent(api: Api) -> None:
    first = api.get(f"{SYS}/constants/order-statuses")
    second = api.get(f"{SYS}/constants/order-statuses")
    for resp in (first, second):
        ok(resp)
        assert resp.headers.get("X-Request-Id"), "no X-Request-Id made up"
    assert first.headers["X-Request-Id"] != second.headers["X-Request-Id"]


def test_request_id_on_sandbox_endpoints(api: Api) -> None:
    resp = api.client.get(
        "/sandbox/mailbox", params={"to": ADMIN_EMAIL}, headers={"X-Request-Id": "mbx-1"}
    )
    ok(resp)
    assert resp.headers.get("X-Request-Id") == "mbx-1"


def test_request_id_on_secure_channel(api: Api) -> None:
    resp = api.get(f"{SC}/public-key", headers={"X-Request-Id": "sc-rid-1"})
    ok(resp)
    assert resp.headers.get("X-Request-Id") == "sc-rid-1"


def _labels(api: Api, path: str, language: str | None) -> dict[str, str]:
    headers = {"Accept-Language": language} if language else None
    drop = [] if language else ["Accept-Language"]
    data = ok(api.get(f"{SYS}/constants/{path}", headers=headers, drop=drop))
    return {item["code"]: item["label"] for item in data}


@pytest.mark.parametrize("language", ["zh", "zh-Hant", "ja", "vi"])
def test_accept_language_localizes_labels(api: Api, language: str) -> None:
    english = _labels(api, "user-account-statuses", "en")
    other = _labels(api, "user-account-statuses", language)
    assert other.keys() == english.keys()
    assert any(other[c] != english[c] for c in english), f"{language} labels equal English"


def test_languages_are_distinct(api: Api) -> None:
    seen = {
        lang: tuple(sorted(_labels(api, "user-invitation-statuses", lang).items()))
        for lang in ("en", "zh", "zh-Hant", "ja", "vi")
    }
    assert len(set(seen.values())) == 5, seen


def test_accept_language_defaults_to_english(api: Api) -> None:
    assert _labels(api, "user-account-statuses", None) == _labels(
        api, "user-account-statuses", "en"
    )


def test_accept_language_localizes_error_messages(api: Api) -> None:
    messages = {}
    for language in ("en", "ja", "zh"):
        resp = api.post(
            f"{SYS}/auth/login/initiate",
            {"email": "nobody-i18n@example.test", "password": "x"},
            headers={"Accept-Language": language},
        )
        messages[language] = error(resp, 401, "AUTH.INVALID_CREDENTIALS")["message"]
    assert messages["en"] != messages["ja"]
    assert messages["en"] != messages["zh"]
    assert messages["ja"] != messages["zh"]


def test_workspace_header_is_optional(api: Api, admin_token: str) -> None:
    without = ok(api.get(f"{SYS}/roles", token=admin_token))
    assert isinstance(without, list) and without
    workspace = without[0]["workspaceBizId"]
    with_header = ok(
        api.get(f"{SYS}/roles", token=admin_token, headers={"X-Workspace-Id": workspace})
    )
    assert {r["bizId"] for r in with_header} == {r["bizId"] for r in without}


def test_success_envelope_fields(api: Api) -> None:
    resp = api.get(f"{SYS}/constants/order-statuses")
    env = envelope(resp)
    assert resp.status_code == 200
    assert env["version"] == "2.0.0"
    assert env["success"] is True
    assert env["code"] == "2000"
    assert isinstance(env["timestamp"], int)
    assert resp.headers["content-type"].startswith("application/json")


def test_error_envelope_fields(api: Api) -> None:
    resp = api.get(f"{SYS}/profile")
    env = error(resp, None, "ACCESS.UNAUTHORIZED")
    assert env["data"] is None
    assert env["message"]
    assert resp.headers["content-type"].startswith("application/json")
