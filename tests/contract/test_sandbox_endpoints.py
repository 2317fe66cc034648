"""The sandbox-only endpoints: mailbox, TOTP and clock (contract, "Sandbox-only endpoints")."""

from __future__ import annotations

import base64

import pytest

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    NEWUSER_EMAIL,
    Api,
    advance_clock,
    envelope,
    initiate,
    mailbox,
    ok,
    parse_iso,
    send_code,
)
from .conftest import StartSandbox

pytestmark = pytest.mark.http

MAIL_FIELDS = {"id", "to", "subject", "body", "code", "token", "sessionId", "sentAt"}


def _check_mail(message: dict[str, object], to: str) -> None:
    assert set(message) == MAIL_FIELDS, sorted(message)
    assert message["to"] == to
    assert isinstance(message["subject"], str)
    assert isinstance(message["body"], str)
    for name in ("code", "token", "sessionId"):
        assert message[name] is None or isinstance(message[name], str), message
    parse_iso(message["sentAt"])


def test_newuser_has_password_init_session_in_mailbox(api: Api) -> None:
    messages = mailbox(api, NEWUSER_EMAIL)
    assert messages, "no mail for newuser"
    for message in messages:
        _check_mail(message, NEWUSER_EMAIL)
    assert any(m["sessionId"] for m in messages), messages


def test_mailbox_needs_no_access_code_or_token(api: Api) -> None:
    # The raw httpx client sends none of the portal headers.
    resp = api.client.get("/sandbox/mailbox", params={"to": NEWUSER_EMAIL})
    assert isinstance(ok(resp), list)
    resp = api.client.get("/sandbox/totp", params={"email": ADMIN_EMAIL})
    assert isinstance(ok(resp), dict)


def test_mailbox_lists_codes_newest_first(api: Api) -> None:
    first = initiate(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    send_code(api, first["sessionId"])
    second = initiate(api, ADMIN_EMAIL, ADMIN_PASSWORD)
    send_code(api, second["sessionId"])
    messages = mailbox(api, ADMIN_EMAIL)
    assert len(messages) >= 2
    for message in messages:
        _check_mail(message, ADMIN_EMAIL)
    with_code = [m for m in messages if m["code"]]
    assert len(with_code) >= 2
    times = [parse_iso(m["sentAt"]) for m in messages]
    assert times == sorted(times, reverse=True), "mailbox is not newest first"
    assert with_code[0]["token"] is None and with_code[0]["sessionId"] is None


def test_mailbox_of_unknown_address_is_empty(api: Api) -> None:
    assert mailbox(api, "nobody-at-all@example.test") == []


def test_totp_endpoint_fields(api: Api) -> None:
    data = ok(api.client.get("/sandbox/totp", params={"email": ADMIN_EMAIL}))
    assert set(data) == {"secret", "code"}, data
    secret = data["secret"]
    assert isinstance(secret, str) and secret
    base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    assert isinstance(data["code"], str) and data["code"].isdigit(), data
    assert 6 <= len(data["code"]) <= 8


def test_sandbox_endpoints_answer_the_envelope(api: Api) -> None:
    env = envelope(api.client.get("/sandbox/mailbox", params={"to": ADMIN_EMAIL}))
    assert env["success"] is True and env["code"] == "2000"
    env = envelope(api.client.get("/sandbox/totp", params={"email": ADMIN_EMAIL}))
    assert env["success"] is True and env["code"] == "2000"


def test_clock_advance_moves_the_clock(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        resp = api.client.post("/sandbox/clock/advance", json={"seconds": 60})
        data = ok(resp)
        assert set(data) == {"now"}, data
        first = parse_iso(data["now"])
        second = advance_clock(api, 3600)
        delta = (second - first).total_seconds()
        assert 3600 <= delta < 3660, delta
    finally:
        api.close()


@pytest.mark.parametrize(
    "body",
    [{}, {"seconds": "ten"}, {"seconds": None}, [1], "not json"],
    ids=["missing", "string", "null", "array", "malformed"],
)
def test_clock_advance_bad_body(api: Api, body: object) -> None:
    if body == "not json":
        resp = api.client.post(
            "/sandbox/clock/advance",
            content=b"{seconds:",
            headers={"Content-Type": "application/json"},
        )
    else:
        resp = api.client.post("/sandbox/clock/advance", json=body)
    assert 400 <= resp.status_code < 500, resp.text
    env = envelope(resp)
    assert env["success"] is False and env["data"] is None
    assert "Traceback" not in resp.text
