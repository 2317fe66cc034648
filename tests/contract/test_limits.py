"""Bad input of every kind: always the envelope with the right code, never a 500 or a trace."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import ADMIN_EMAIL, SYS, Api, envelope, error

pytestmark = pytest.mark.http

INVALID = "VALIDATION.INVALID_PARAMETER"
INITIATE = f"{SYS}/auth/login/initiate"
QUERY = f"{SYS}/accounts/admin/query"


def _raw(
    api: Api, path: str, content: bytes, token: str | None = None, ctype: str = "application/json"
) -> Any:
    return api.request("POST", path, content=content, token=token, headers={"Content-Type": ctype})


@pytest.mark.parametrize(
    "content",
    [
        b"{",
        b'{"email": "a@b.test", "password": }',
        b"{'email': 'single@quotes.test'}",
        b"\xff\xfe\x00garbage",
        b'{"email": "a@b.test", "password": "x"} trailing',
        b"NaN",
    ],
    ids=["open-brace", "missing-value", "single-quotes", "not-utf8", "trailing", "nan"],
)
def test_malformed_json_on_login(api: Api, content: bytes) -> None:
    error(_raw(api, INITIATE, content), 400, INVALID)


@pytest.mark.parametrize(
    "body",
    [
        [],
        ["a@b.test", "x"],
        "a string",
        42,
        None,
        {},
        {"email": ADMIN_EMAIL},
        {"password": "x"},
        {"email": 42, "password": "x"},
        {"email": ADMIN_EMAIL, "password": 12345},
        {"email": ["a"], "password": "x"},
        {"email": {"$ne": ""}, "password": {"$ne": ""}},
        {"email": None, "password": None},
    ],
    ids=[
        "empty-array",
        "array",
        "string",
        "number",
        "null",
        "empty-object",
        "no-password",
        "no-email",
        "email-number",
        "password-number",
        "email-array",
        "operator-injection",
        "nulls",
    ],
)
def test_wrong_shapes_on_login(api: Api, body: Any) -> None:
    content = b"null" if body is None else None
    resp = _raw(api, INITIATE, content) if content is not None else api.post(INITIATE, body)
    error(resp, 400, INVALID)


def test_empty_body_on_login(api: Api) -> None:
    error(_raw(api, INITIATE, b""), 400, INVALID)


@pytest.mark.parametrize("size", [10_000, 1_000_000], ids=["10k", "1M"])
def test_oversized_strings_on_login(api: Api, size: int) -> None:
    resp = api.post(INITIATE, {"email": "a" * size + "@example.test", "password": "p" * size})
    assert resp.status_code < 500, resp.status_code
    error(resp, None, {INVALID, "AUTH.INVALID_CREDENTIALS"})


def test_huge_body(api: Api, admin_token: str) -> None:
    body = b'{"page": 0, "size": 20, "name": "' + b"x" * 5_000_000 + b'"}'
    resp = _raw(api, QUERY, body, token=admin_token)
    assert resp.status_code < 500, resp.status_code
    if resp.status_code != 200:
        env = envelope(resp)
        assert env["success"] is False and env["data"] is None


def test_deeply_nested_json(api: Api) -> None:
    body = b'{"email": ' + b"[" * 5000 + b"]" * 5000 + b', "password": "x"}'
    resp = _raw(api, INITIATE, body)
    assert resp.status_code < 500, resp.text[:300]
    error(resp, 400, INVALID)


def test_wrong_content_type(api: Api) -> None:
    resp = _raw(api, INITIATE, b"email=a&password=b", ctype="application/x-www-form-urlencoded")
    assert resp.status_code < 500
    error(resp, None, None)


@pytest.mark.parametrize(
    "body",
    [
        {"page": 0, "size": 20, "email": "x" * 100_000},
        {"page": 2**63, "size": 20},
        {"page": 0, "size": 2**70},
        {"page": 1.5, "size": 20},
        {"page": True, "size": 20},
        {"page": 0, "size": 20, "accountStatus": 2**64},
    ],
    ids=["long-email", "huge-page", "huge-size", "float-page", "bool-page", "huge-status"],
)
def test_query_edge_values(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    resp = api.post(QUERY, body, token=admin_token)
    assert resp.status_code < 500, resp.text[:300]
    if resp.status_code != 200:
        error(resp, 400, INVALID)


def test_unknown_system_path(api: Api, admin_token: str) -> None:
    resp = api.get(f"{SYS}/no/such/operation", token=admin_token)
    env = error(resp, 404, None)
    assert env["code"] in {"RESOURCE.NOT_FOUND", "4040"}


def test_wrong_method(api: Api, admin_token: str) -> None:
    resp = api.get(QUERY, token=admin_token)
    assert 400 <= resp.status_code < 500
    error(resp, None, None)


def test_bad_query_string_on_constants(api: Api) -> None:
    resp = api.get(f"{SYS}/constants/countries", params={"x": "\x00" * 3})
    assert resp.status_code < 500


@pytest.mark.parametrize(
    "path",
    [
        f"{SYS}/auth/login/mfa/send",
        f"{SYS}/auth/login/complete",
        f"{SYS}/auth/password/forgot",
    ],
)
def test_malformed_json_on_other_pre_login_calls(api: Api, path: str) -> None:
    error(_raw(api, path, b'{"sessionId": '), 400, INVALID)


@pytest.mark.parametrize(
    "path",
    [
        f"{SYS}/accounts/admin/status",
        f"{SYS}/accounts/admin/update",
        f"{SYS}/accounts/admin/password/reset",
        f"{SYS}/invitations",
        f"{SYS}/invitations/cancel",
        f"{SYS}/roles/delete",
        f"{SYS}/institutions/portals",
        f"{SYS}/notifications/channels/query",
        f"{SYS}/security/ip-whitelist",
    ],
)
def test_malformed_json_on_admin_calls(api: Api, admin_token: str, path: str) -> None:
    resp = _raw(api, path, b'{"broken": ', token=admin_token)
    error(resp, 400, {INVALID, "4000"})


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "OPTIONS", "PATCH"])
def test_wrong_method_answers_a_readable_envelope(api: Api, admin_token: str, method: str) -> None:
    resp = api.request(method, QUERY, token=admin_token)
    error(resp, None, None)
