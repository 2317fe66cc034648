"""Forgot, reset, init and change of passwords (spec 4.1; the channel of the profile page)."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    APPROVAL_EMAIL,
    AUDITOR_EMAIL,
    AUDITOR_PASSWORD,
    NEWUSER_EMAIL,
    SYS,
    Api,
    ScClient,
    error,
    forgot,
    initiate,
    latest_token,
    login,
    mailbox,
    ok,
    sc_result_error,
)
from .conftest import StartSandbox

pytestmark = pytest.mark.http

RESET = f"{SYS}/auth/password/reset"
INIT = f"{SYS}/auth/password/init"
CHANGE = f"{SYS}/auth/password/change"
INVALID = "VALIDATION.INVALID_PARAMETER"


def _success_message(data: Any) -> None:
    assert isinstance(data, dict), data
    assert data["success"] is True, data
    assert isinstance(data["message"], str) and data["message"], data


def _sc_ok(sc: ScClient, path: str, body: Any, token: str | None = None) -> Any:
    resp = sc.send(path, body, token=token)
    assert resp.status_code == 200, f"{path}: HTTP {resp.status_code} {resp.text[:300]}"
    env = sc.open_response(resp)
    assert env["success"] is True and env["code"] == "2000", env
    return env["data"]


# -- forgot -----------------------------------------------------------------------------------


def test_forgot_same_message_for_existing_and_unknown_email(start_sandbox: StartSandbox) -> None:
    # Two servers, so that no rate limit of either kind can interfere.
    messages = []
    for email in (ADMIN_EMAIL, "nobody-forgot@example.test"):
        server = start_sandbox()
        api = server.api()
        try:
            data = ok(forgot(api, email))
            _success_message(data)
            messages.append(data["message"])
        finally:
            api.close()
    assert messages[0] == messages[1]


def test_forgot_mails_a_reset_token(api: Api) -> None:
    ok(forgot(api, AUDITOR_EMAIL))
    mail = [m for m in mailbox(api, AUDITOR_EMAIL) if m["token"]]
    assert mail, "no reset token mailed"
    assert mail[0]["code"] is None and mail[0]["sessionId"] is None


def test_forgot_retry_is_rate_limited(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        first = ok(forgot(api, APPROVAL_EMAIL))
        _success_message(first)
        error(forgot(api, APPROVAL_EMAIL), None, "REQUEST.RATE_LIMITED")
    finally:
        api.close()


@pytest.mark.parametrize(
    "body",
    [{}, {"challengeToken": "c"}, {"email": None, "challengeToken": "c"}, {"email": 42}],
    ids=["empty", "no-email", "null-email", "number-email"],
)
def test_forgot_invalid_parameters(api: Api, body: dict[str, Any]) -> None:
    sc = ScClient(api)
    sc.open_session()
    resp = api.post(
        f"{SYS}/auth/password/forgot",
        body,
        headers={"X-SC-Version": "2", "X-SC-Session-Id": sc.session_id or ""},
    )
    error(resp, 400, INVALID)


# -- reset ------------------------------------------------------------------------------------


def test_reset_with_mailed_token_is_single_use(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        ok(forgot(api, ADMIN_EMAIL))
        token = latest_token(api, ADMIN_EMAIL)
        sc = ScClient(api)
        sc.open_session()
        new_password = "Reset-Admin-2026!x"
        _success_message(_sc_ok(sc, RESET, {"token": token, "newPassword": new_password}))
        error(
            api.post(
                f"{SYS}/auth/login/initiate", {"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}
            ),
            401,
            "AUTH.INVALID_CREDENTIALS",
        )
        login(api, ADMIN_EMAIL, new_password)
        resp = sc.send(RESET, {"token": token, "newPassword": "Another-Admin-2026!y"})
        sc_result_error(sc, resp, None, "AUTH.PASSWORD_RESET_TOKEN_INVALID")
    finally:
        api.close()


def test_reset_with_wrong_token(api: Api) -> None:
    sc = ScClient(api)
    sc.open_session()
    resp = sc.send(RESET, {"token": "wrong-token", "newPassword": "Whatever-2026!z"})
    sc_result_error(sc, resp, None, "AUTH.PASSWORD_RESET_TOKEN_INVALID")


@pytest.mark.parametrize(
    "body",
    [{}, {"token": "t"}, {"newPassword": "Whatever-2026!z"}, {"token": 5, "newPassword": 6}],
    ids=["empty", "no-password", "no-token", "numbers"],
)
def test_reset_invalid_parameters(api: Api, body: dict[str, Any]) -> None:
    sc = ScClient(api)
    sc.open_session()
    sc_result_error(sc, sc.send(RESET, body), 400, INVALID)


def test_reset_requires_the_channel(api: Api) -> None:
    resp = api.post(RESET, {"token": "t", "newPassword": "Whatever-2026!z"})
    error(resp, 400, INVALID)


# -- admin password reset mails a token -------------------------------------------------------


def test_admin_password_reset_mails_a_usable_token(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        admin = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
        found = ok(
            api.post(
                f"{SYS}/accounts/admin/query",
                {"email": AUDITOR_EMAIL, "page": 0, "size": 20},
                token=admin,
            )
        )
        auditor = next(a for a in found["accounts"] if a["accountEmail"] == AUDITOR_EMAIL)
        before = len([m for m in mailbox(api, AUDITOR_EMAIL) if m["token"]])
        resp = api.post(
            f"{SYS}/accounts/admin/password/reset", {"userBizId": auditor["bizId"]}, token=admin
        )
        assert resp.status_code == 200, resp.text
        ok(resp)
        with_token = [m for m in mailbox(api, AUDITOR_EMAIL) if m["token"]]
        assert len(with_token) == before + 1
        sc = ScClient(api)
        sc.open_session()
        _success_message(
            _sc_ok(sc, RESET, {"token": with_token[0]["token"], "newPassword": "Audit-Reset-2026!"})
        )
        login(api, AUDITOR_EMAIL, "Audit-Reset-2026!")
    finally:
        api.close()


# -- init -------------------------------------------------------------------------------------


def _init_session(api: Api) -> str:
    for message in mailbox(api, NEWUSER_EMAIL):
        if message["sessionId"]:
            return str(message["sessionId"])
    raise AssertionError("no password-init session mailed to newuser")


def test_password_init_for_newuser(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        session_id = _init_session(api)
        sc = ScClient(api)
        sc.open_session()
        password = "Newuser-Init-2026!"
        data = _sc_ok(sc, INIT, {"sessionId": session_id, "password": password})
        assert set(data) >= {"bizId", "email", "status"}, data
        assert data["email"] == NEWUSER_EMAIL
        assert isinstance(data["bizId"], str) and data["bizId"]
        assert data["status"] == 10010202
        started = initiate(api, NEWUSER_EMAIL, password)
        assert started["sessionId"]
        # The init session is used up.
        resp = sc.send(INIT, {"sessionId": session_id, "password": "Second-Init-2026!"})
        sc_result_error(sc, resp, None, None)
    finally:
        api.close()


def test_password_init_unknown_session(api: Api) -> None:
    sc = ScClient(api)
    sc.open_session()
    resp = sc.send(INIT, {"sessionId": "no-such-init-session", "password": "Newuser-Init-2026!"})
    sc_result_error(sc, resp, None, None)


@pytest.mark.parametrize(
    "body",
    [{}, {"sessionId": "s"}, {"password": "Newuser-Init-2026!"}, {"sessionId": 1, "password": 2}],
    ids=["empty", "no-password", "no-session", "numbers"],
)
def test_password_init_invalid_parameters(api: Api, body: dict[str, Any]) -> None:
    sc = ScClient(api)
    sc.open_session()
    sc_result_error(sc, sc.send(INIT, body), 400, INVALID)


# -- change -----------------------------------------------------------------------------------


def test_password_change(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        token = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
        sc = ScClient(api)
        sc.open_session()
        new_password = "Changed-Admin-2026!"
        data = _sc_ok(
            sc,
            CHANGE,
            {"currentPassword": ADMIN_PASSWORD, "newPassword": new_password},
            token=token,
        )
        _success_message(data)
        error(
            api.post(
                f"{SYS}/auth/login/initiate", {"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}
            ),
            401,
            "AUTH.INVALID_CREDENTIALS",
        )
        login(api, ADMIN_EMAIL, new_password)
    finally:
        api.close()


def test_password_change_wrong_current(api: Api, auditor_token: str) -> None:
    sc = ScClient(api)
    sc.open_session()
    resp = sc.send(
        CHANGE,
        {"currentPassword": "Not-It-2026!", "newPassword": "Unused-Audit-2026!"},
        token=auditor_token,
    )
    sc_result_error(sc, resp, None, "AUTH.CURRENT_PASSWORD_INCORRECT")
    # Unchanged: the real password still works.
    initiate(api, AUDITOR_EMAIL, AUDITOR_PASSWORD)


def test_password_change_without_token(api: Api) -> None:
    sc = ScClient(api)
    sc.open_session()
    resp = sc.send(CHANGE, {"currentPassword": ADMIN_PASSWORD, "newPassword": "Nope-2026!aa"})
    sc_result_error(sc, resp, 401, "ACCESS.TOKEN_MISSING")


@pytest.mark.parametrize(
    "body",
    [{}, {"currentPassword": AUDITOR_PASSWORD}, {"newPassword": "New-Audit-2026!"}],
    ids=["empty", "no-new", "no-current"],
)
def test_password_change_invalid_parameters(
    api: Api, auditor_token: str, body: dict[str, Any]
) -> None:
    sc = ScClient(api)
    sc.open_session()
    sc_result_error(sc, sc.send(CHANGE, body, token=auditor_token), 400, INVALID)


def test_password_change_requires_the_channel(api: Api, auditor_token: str) -> None:
    resp = api.post(
        CHANGE,
        {"currentPassword": AUDITOR_PASSWORD, "newPassword": "New-Audit-2026!"},
        token=auditor_token,
    )
    error(resp, 400, INVALID)
