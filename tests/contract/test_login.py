"""The login sequence (spec 3, 4.1) with the seeded demo accounts (contract)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    APPROVAL_EMAIL,
    APPROVAL_PASSWORD,
    AUDITOR_EMAIL,
    AUDITOR_PASSWORD,
    EMAIL_METHOD,
    NEWUSER_EMAIL,
    OTP_METHOD,
    SYS,
    Api,
    complete,
    error,
    initiate,
    is_enum_item,
    latest_code,
    login,
    ok,
    send_code,
    totp_code,
)

pytestmark = pytest.mark.http


def _methods(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    methods = data["mfaMethods"]
    assert isinstance(methods, list)
    for method in methods:
        is_enum_item(method, with_description=True)
    return {m["code"]: m for m in methods}


def test_initiate_answers_the_stated_fields(api: Api) -> None:
    data = initiate(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    assert {"sessionId", "mfaMethods", "expiresIn", "accountStatus", "pendingApproval"} <= set(
        data
    ), data
    assert isinstance(data["sessionId"], str) and data["sessionId"]
    assert data["expiresIn"] == 300
    assert data["pendingApproval"] is False
    assert data["accountStatus"] is None or isinstance(data["accountStatus"], dict | int | str)


@pytest.mark.parametrize(
    ("email", "password", "expected"),
    [
        (ADMIN_EMAIL, ADMIN_PASSWORD, {"EMAIL", "OTP"}),
        (AUDITOR_EMAIL, AUDITOR_PASSWORD, {"EMAIL", "OTP"}),
        (APPROVAL_EMAIL, APPROVAL_PASSWORD, {"EMAIL"}),
    ],
    ids=["admin", "auditor", "approval"],
)
def test_demo_accounts_mfa_methods(api: Api, email: str, password: str, expected: set[str]) -> None:
    methods = _methods(initiate(api, email, password))
    assert set(methods) == expected
    assert methods["EMAIL"]["value"] == EMAIL_METHOD
    if "OTP" in methods:
        assert methods["OTP"]["value"] == OTP_METHOD


@pytest.mark.parametrize(
    ("email", "password"),
    [
        (ADMIN_EMAIL, "Sandbox-Admin-2025!"),
        (ADMIN_EMAIL, ""),
        ("nobody@sandbox.test", "Sandbox-Admin-2026!"),
        (AUDITOR_EMAIL, ADMIN_PASSWORD),
    ],
    ids=["wrong-password", "empty-password", "unknown-email", "other-accounts-password"],
)
def test_bad_credentials(api: Api, email: str, password: str) -> None:
    resp = api.post(f"{SYS}/auth/login/initiate", {"email": email, "password": password})
    if password == "":
        error(resp, None, {"AUTH.INVALID_CREDENTIALS", "VALIDATION.INVALID_PARAMETER"})
    else:
        error(resp, 401, "AUTH.INVALID_CREDENTIALS")


def test_newuser_cannot_sign_in_before_password_init(api: Api) -> None:
    resp = api.post(f"{SYS}/auth/login/initiate", {"email": NEWUSER_EMAIL, "password": "x" * 12})
    error(resp, None, None)


def test_send_email_code(api: Api) -> None:
    started = initiate(api, AUDITOR_EMAIL, AUDITOR_PASSWORD)
    data = send_code(api, started["sessionId"])
    assert data["sent"] is True, data
    assert data["cooldownSeconds"] == 60, data
    assert data["codeExpiresIn"] == 300, data
    assert latest_code(api, AUDITOR_EMAIL)


def test_resend_inside_cooldown_is_refused(api: Api) -> None:
    started = initiate(api, AUDITOR_EMAIL, AUDITOR_PASSWORD)
    send_code(api, started["sessionId"])
    resp = api.post(
        f"{SYS}/auth/login/mfa/send", {"sessionId": started["sessionId"], "method": EMAIL_METHOD}
    )
    error(resp, None, "AUTH.MFA_SEND_COOLDOWN")


@pytest.mark.parametrize(
    "body",
    [
        {"method": EMAIL_METHOD},
        {"sessionId": None, "method": EMAIL_METHOD},
        {"sessionId": 12345, "method": EMAIL_METHOD},
    ],
    ids=["missing-session", "null-session", "number-session"],
)
def test_send_with_invalid_parameters(api: Api, body: dict[str, Any]) -> None:
    error(api.post(f"{SYS}/auth/login/mfa/send", body), 400, "VALIDATION.INVALID_PARAMETER")


@pytest.mark.parametrize("method", [None, "EMAIL", 12345678, -1])
def test_send_with_invalid_method(api: Api, method: Any) -> None:
    started = initiate(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    body: dict[str, Any] = {"sessionId": started["sessionId"]}
    if method is not None:
        body["method"] = method
    error(api.post(f"{SYS}/auth/login/mfa/send", body), 400, "VALIDATION.INVALID_PARAMETER")


def test_send_for_unknown_session(api: Api) -> None:
    resp = api.post(
        f"{SYS}/auth/login/mfa/send", {"sessionId": "no-such-session", "method": EMAIL_METHOD}
    )
    error(resp, None, None)


def test_complete_with_email_code(api: Api) -> None:
    started = initiate(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    send_code(api, started["sessionId"])
    data = ok(complete(api, started["sessionId"], EMAIL_METHOD, latest_code(api, ADMIN_EMAIL)))
    assert {"accessToken", "refreshToken", "expiresIn", "accountStatus", "pendingApproval"} <= set(
        data
    ), data
    assert isinstance(data["accessToken"], str) and data["accessToken"]
    assert isinstance(data["refreshToken"], str) and data["refreshToken"]
    assert data["accessToken"] != data["refreshToken"]
    assert data["expiresIn"] == 3600
    assert data["pendingApproval"] is False
    profile = ok(api.get(f"{SYS}/profile", token=data["accessToken"]))
    assert profile["accountEmail"] == ADMIN_EMAIL


def test_complete_with_authenticator_code(api: Api) -> None:
    started = initiate(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    code = totp_code(api, ADMIN_EMAIL)
    data = ok(complete(api, started["sessionId"], OTP_METHOD, code))
    assert data["expiresIn"] == 3600
    assert data["pendingApproval"] is False
    assert ok(api.get(f"{SYS}/profile", token=data["accessToken"]))["accountEmail"] == ADMIN_EMAIL


def test_authenticator_code_cannot_be_used_twice(api: Api) -> None:
    code = totp_code(api, AUDITOR_EMAIL)
    first = initiate(api, AUDITOR_EMAIL, AUDITOR_PASSWORD)
    ok(complete(api, first["sessionId"], OTP_METHOD, code))
    second = initiate(api, AUDITOR_EMAIL, AUDITOR_PASSWORD)
    error(complete(api, second["sessionId"], OTP_METHOD, code), None, "AUTH.MFA_CODE_INVALID")


def test_wrong_code_leaves_the_login_session_usable(api: Api) -> None:
    started = initiate(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    send_code(api, started["sessionId"])
    code = latest_code(api, ADMIN_EMAIL)
    wrong = "000000" if code != "000000" else "111111"
    error(complete(api, started["sessionId"], EMAIL_METHOD, wrong), None, "AUTH.MFA_CODE_INVALID")
    error(complete(api, started["sessionId"], EMAIL_METHOD, "x"), None, None)
    ok(complete(api, started["sessionId"], EMAIL_METHOD, code))


def test_wrong_authenticator_code_is_mfa_code_invalid(api: Api) -> None:
    started = initiate(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    current = totp_code(api, ADMIN_EMAIL)
    wrong = f"{(int(current) + 500000) % 1000000:06d}"
    error(complete(api, started["sessionId"], OTP_METHOD, wrong), None, "AUTH.MFA_CODE_INVALID")


def test_login_session_is_single_use(api: Api) -> None:
    started = initiate(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    send_code(api, started["sessionId"])
    code = latest_code(api, ADMIN_EMAIL)
    ok(complete(api, started["sessionId"], EMAIL_METHOD, code))
    error(complete(api, started["sessionId"], EMAIL_METHOD, code), None, None)


def test_complete_unknown_session_is_404(api: Api) -> None:
    resp = complete(api, "unknown-login-session", EMAIL_METHOD, "123456")
    error(resp, 404, "AUTH.SESSION_NOT_FOUND")


@pytest.mark.parametrize(
    "body",
    [{}, {"sessionId": "s", "method": EMAIL_METHOD}, {"sessionId": "s", "code": "1"}],
    ids=["empty", "no-code", "no-method"],
)
def test_complete_with_missing_fields(api: Api, body: dict[str, Any]) -> None:
    error(api.post(f"{SYS}/auth/login/complete", body), 400, "VALIDATION.INVALID_PARAMETER")


def test_approval_account_ends_pending_approval(api: Api) -> None:
    tokens = login(api, APPROVAL_EMAIL, APPROVAL_PASSWORD)
    assert tokens.data["pendingApproval"] is True


def test_auditor_signs_in(api: Api) -> None:
    tokens = login(api, AUDITOR_EMAIL, AUDITOR_PASSWORD)
    profile = ok(api.get(f"{SYS}/profile", token=tokens.access))
    assert profile["accountEmail"] == AUDITOR_EMAIL


def test_profile_fields(api: Api, admin_token: str) -> None:
    profile = ok(api.get(f"{SYS}/profile", token=admin_token))
    assert {"bizId", "accountEmail", "accountName", "accountPortal"} <= set(profile), profile
    assert profile["accountEmail"] == ADMIN_EMAIL
    assert isinstance(profile["bizId"], str) and profile["bizId"]
    assert isinstance(profile["accountName"], str)
    portal = profile["accountPortal"]
    assert {"code", "value", "label"} <= set(portal), portal
    assert isinstance(portal["value"], int)


def test_profile_without_token(api: Api) -> None:
    error(api.get(f"{SYS}/profile"), None, "ACCESS.UNAUTHORIZED")


@pytest.mark.parametrize(
    "token", ["garbage", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"], ids=["junk", "jwt"]
)
def test_profile_with_invalid_token_is_4010(api: Api, token: str) -> None:
    error(api.get(f"{SYS}/profile", token=token), 401, "4010")


def test_tampered_access_token_is_4010(api: Api, admin_token: str) -> None:
    head, body, sig = admin_token.split(".")
    flipped = sig[:-2] + ("A" if sig[-2] != "A" else "B") + sig[-1]
    error(api.get(f"{SYS}/profile", token=f"{head}.{body}.{flipped}"), 401, "4010")


def test_refresh_token_is_not_an_access_token(api: Api, admin: Any) -> None:
    resp = api.get(f"{SYS}/profile", token=admin.refresh)
    error(resp, 401, "4010")


def test_unsigned_token_is_4010(api: Api, admin_token: str) -> None:
    _, body, _ = admin_token.split(".")
    header = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
    error(api.get(f"{SYS}/profile", token=f"{header}.{body}."), 401, "4010")


def test_token_with_longer_lifetime_claim_is_4010(api: Api, admin_token: str) -> None:
    head, body, sig = admin_token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    if "exp" in claims:
        claims["exp"] = int(claims["exp"]) + 10**6
    else:
        claims["extra"] = True
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    error(api.get(f"{SYS}/profile", token=f"{head}.{forged}.{sig}"), 401, "4010")
