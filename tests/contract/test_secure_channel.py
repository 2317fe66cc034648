"""Secure Channel v2 (secure-channel-profile.md), with a client written from that page alone."""

from __future__ import annotations

import base64
import os
import re
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    AUDITOR_EMAIL,
    AUDITOR_PASSWORD,
    SC,
    SYS,
    Api,
    ScClient,
    b64url_decode,
    login,
    ok,
    parse_json,
    sc_error,
)
from .conftest import StartSandbox

pytestmark = pytest.mark.http

# A harmless encrypted operation: a reset with a bogus token is a business error.
PROBE = f"{SYS}/auth/password/reset"
PROBE_BODY = {"token": "not-a-real-token", "newPassword": "Probe-Password-2026!"}

INVALID = "VALIDATION.INVALID_PARAMETER"
SESSION_INVALID = "SECURE_CHANNEL.SESSION_INVALID"
KEY_UNKNOWN = "SECURE_CHANNEL.KEY_UNKNOWN"
DECRYPTION_FAILED = "SECURE_CHANNEL.DECRYPTION_FAILED"
REPLAY = "SECURE_CHANNEL.REPLAY_DETECTED"


@pytest.fixture
def sc(api: Api) -> ScClient:
    client = ScClient(api)
    client.open_session()
    return client


def _probe_ok(sc: ScClient, resp: Any) -> dict[str, Any]:
    """The probe reached the operation: an encrypted business answer, not a channel error."""
    env = sc.open_response(resp)
    assert not env["code"].startswith("SECURE_CHANNEL."), env
    return env


# -- public key -------------------------------------------------------------------------------


def test_public_key_fields(api: Api) -> None:
    data = ok(api.get(f"{SC}/public-key"))
    assert set(data) >= {"keyId", "publicKey", "algorithm"}, data
    assert isinstance(data["keyId"], str)
    assert 1 <= len(data["keyId"].encode("utf-8")) <= 255
    text = data["publicKey"]
    assert re.fullmatch(r"[A-Za-z0-9+/]+={0,2}", text), "publicKey is not standard base64"
    assert len(text) % 4 == 0, "standard base64 with padding"
    key = serialization.load_der_public_key(base64.b64decode(text, validate=True))
    assert isinstance(key, rsa.RSAPublicKey)
    assert key.key_size == 3072
    assert data["algorithm"] == "RSA-OAEP-256"


def test_public_key_is_stable(api: Api) -> None:
    first = ok(api.get(f"{SC}/public-key"))
    second = ok(api.get(f"{SC}/public-key"))
    assert first["keyId"] == second["keyId"]
    assert first["publicKey"] == second["publicKey"]


# -- session lifecycle ------------------------------------------------------------------------


def test_create_session_answers_type_129(api: Api) -> None:
    client = ScClient(api)
    resp = client.create_session_raw()
    assert resp.status_code == 200, resp.text
    outer = parse_json(resp)
    assert set(outer) == {"v", "p"} and outer["v"] == 2
    assert "=" not in outer["p"] and "+" not in outer["p"] and "/" not in outer["p"]
    binary = b64url_decode(outer["p"])
    assert binary[:4] == b"SC\x02\x81"
    env = client.decrypt(outer["p"])
    assert env["success"] is True and env["code"] == "2000"
    assert set(env["data"]) >= {"sessionId", "expiresIn"}
    assert isinstance(env["data"]["sessionId"], str) and env["data"]["sessionId"]
    assert isinstance(env["data"]["expiresIn"], int) and not isinstance(
        env["data"]["expiresIn"], bool
    )
    assert env["data"]["expiresIn"] == 1800


def test_encrypted_answer_content_type(sc: ScClient) -> None:
    resp = sc.send(PROBE, PROBE_BODY)
    _probe_ok(sc, resp)
    media = resp.headers["content-type"].replace(" ", "").lower()
    assert media == "application/json;charset=utf-8", resp.headers["content-type"]


def test_sessions_are_distinct(api: Api) -> None:
    ids = {ScClient(api).open_session() for _ in range(3)}
    assert len(ids) == 3


def test_padded_base64_is_accepted(api: Api) -> None:
    client = ScClient(api)
    binary = client.key_exchange()
    # Pick a body whose length needs padding, so that the padded form really differs.
    resp = client.send_raw(
        f"{SC}/session",
        client.body(binary, pad=True),
        headers=client.headers(with_session=False),
    )
    assert resp.status_code == 200, resp.text
    client.session_id = client.open_response(resp)["data"]["sessionId"]
    for _ in range(3):
        resp = client.send(PROBE, PROBE_BODY, pad=True)
        _probe_ok(client, resp)


def test_business_error_is_encrypted_with_the_operations_status(sc: ScClient) -> None:
    resp = sc.send(PROBE, PROBE_BODY)
    env = sc.open_response(resp)
    assert env["success"] is False
    assert env["code"] == "AUTH.PASSWORD_RESET_TOKEN_INVALID"
    assert env["data"] is None
    assert 400 <= resp.status_code < 500


def test_close_answers_type_129_with_null_data(sc: ScClient) -> None:
    resp = sc.close()
    assert resp.status_code == 200, resp.text
    env = sc.open_response(resp)
    assert env["success"] is True and env["code"] == "2000"
    assert env["data"] is None


def test_closed_session_is_invalid(sc: ScClient) -> None:
    assert sc.close().status_code == 200
    sc_error(sc.send(PROBE, PROBE_BODY), 401, SESSION_INVALID)
    sc_error(sc.close(), 401, SESSION_INVALID)


# -- errors raised before decryption ----------------------------------------------------------


def test_session_creation_without_sc_version(api: Api) -> None:
    client = ScClient(api)
    binary = client.key_exchange()
    resp = client.send_raw(
        f"{SC}/session",
        client.body(binary),
        headers={"Content-Type": "application/json;charset=UTF-8"},
    )
    sc_error(resp, 400, INVALID)


def test_data_call_without_sc_version(sc: ScClient) -> None:
    binary = sc.data_envelope(PROBE_BODY)
    resp = sc.send_raw(
        PROBE,
        sc.body(binary),
        headers={
            "Content-Type": "application/json;charset=UTF-8",
            "X-SC-Session-Id": sc.session_id or "",
        },
    )
    sc_error(resp, 400, INVALID)


def test_data_call_without_session_id(sc: ScClient) -> None:
    binary = sc.data_envelope(PROBE_BODY)
    resp = sc.send_raw(
        PROBE,
        sc.body(binary),
        headers={"Content-Type": "application/json;charset=UTF-8", "X-SC-Version": "2"},
    )
    sc_error(resp, 400, INVALID)


def test_close_without_session_id(sc: ScClient) -> None:
    binary = sc.data_envelope({})
    resp = sc.send_raw(
        f"{SC}/session/close",
        sc.body(binary),
        headers={"Content-Type": "application/json;charset=UTF-8", "X-SC-Version": "2"},
    )
    sc_error(resp, 400, INVALID)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"v": 2},
        {"p": "U0MCAg"},
        {"x": 1, "y": 2},
        {"v": 2, "p": 12345},
        {"v": 2, "p": None},
        [2, "U0MCAg"],
        "just a string",
        {"refreshToken": "plain-json-not-encrypted"},
    ],
    ids=[
        "empty",
        "no-p",
        "no-v",
        "other-keys",
        "p-number",
        "p-null",
        "array",
        "string",
        "plain-body",
    ],
)
def test_body_not_v_p(sc: ScClient, body: Any) -> None:
    sc_error(sc.send_raw(PROBE, body, headers=sc.headers()), 400, INVALID)


def test_malformed_json_body(sc: ScClient) -> None:
    sc_error(sc.send_raw(PROBE, b'{"v": 2, "p": ', headers=sc.headers()), 400, INVALID)


@pytest.mark.parametrize("v", [1, 3, 0, -2, 258], ids=str)
def test_v_not_2(sc: ScClient, v: int) -> None:
    binary = sc.data_envelope(PROBE_BODY)
    sc_error(sc.send_raw(PROBE, sc.body(binary, v=v), headers=sc.headers()), 400, INVALID)


@pytest.mark.parametrize("v", [1, 3], ids=str)
def test_v_not_2_on_session_creation(api: Api, v: int) -> None:
    client = ScClient(api)
    binary = client.key_exchange()
    resp = client.send_raw(
        f"{SC}/session", client.body(binary, v=v), headers=client.headers(with_session=False)
    )
    sc_error(resp, 400, INVALID)


def test_header_sc_version_not_2(sc: ScClient) -> None:
    binary = sc.data_envelope(PROBE_BODY)
    headers = sc.headers()
    headers["X-SC-Version"] = "1"
    resp = sc.send_raw(PROBE, sc.body(binary), headers=headers)
    sc_error(resp, 400, {INVALID, DECRYPTION_FAILED})


def test_unknown_session(sc: ScClient) -> None:
    resp = sc.send(PROBE, PROBE_BODY, session_id="no-such-session-0000")
    sc_error(resp, 401, SESSION_INVALID)


def test_unknown_session_on_close(sc: ScClient) -> None:
    sc_error(sc.close(session_id="no-such-session-0001"), 401, SESSION_INVALID)


def test_wrong_key_id(api: Api) -> None:
    client = ScClient(api)
    client.fetch_public_key()
    resp = client.create_session_raw(key_id=client.key_id + "-rotated")
    sc_error(resp, 400, KEY_UNKNOWN)


def test_empty_key_id(api: Api) -> None:
    client = ScClient(api)
    client.fetch_public_key()
    resp = client.create_session_raw(key_id="")
    sc_error(resp, 400, {KEY_UNKNOWN, DECRYPTION_FAILED})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"magic": b"XC"},
        {"magic": b"CS"},
        {"version": 1},
        {"version": 3},
        {"msg_type": 2},
        {"msg_type": 129},
    ],
    ids=["magic-XC", "magic-CS", "version-1", "version-3", "type-2", "type-129"],
)
def test_bad_header_on_session_creation(api: Api, kwargs: dict[str, Any]) -> None:
    client = ScClient(api)
    if "msg_type" in kwargs:
        # A type-2 or type-129 binary header where type 1 is due.
        client.fetch_public_key()
        binary = client.data_envelope({}, msg_type=kwargs["msg_type"])
    else:
        binary = client.key_exchange(**kwargs)
    resp = client.send_raw(
        f"{SC}/session", client.body(binary), headers=client.headers(with_session=False)
    )
    sc_error(resp, 400, DECRYPTION_FAILED)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"magic": b"XC"},
        {"version": 1},
        {"version": 0x82},
        {"msg_type": 1},
        {"msg_type": 129},
        {"msg_type": 3},
    ],
    ids=["magic", "version-1", "version-130", "type-1", "type-129", "type-3"],
)
def test_bad_header_on_data_call(sc: ScClient, kwargs: dict[str, Any]) -> None:
    binary = sc.data_envelope(PROBE_BODY, **kwargs)
    resp = sc.send_raw(PROBE, sc.body(binary), headers=sc.headers())
    sc_error(resp, 400, DECRYPTION_FAILED)


def test_tampered_ciphertext(sc: ScClient) -> None:
    binary = bytearray(sc.data_envelope(PROBE_BODY))
    binary[4 + 12 + 3] ^= 0x01
    resp = sc.send_raw(PROBE, sc.body(bytes(binary)), headers=sc.headers())
    sc_error(resp, 400, DECRYPTION_FAILED)


def test_tampered_tag(sc: ScClient) -> None:
    binary = bytearray(sc.data_envelope(PROBE_BODY))
    binary[-1] ^= 0x80
    resp = sc.send_raw(PROBE, sc.body(bytes(binary)), headers=sc.headers())
    sc_error(resp, 400, DECRYPTION_FAILED)


def test_tampered_iv(sc: ScClient) -> None:
    binary = bytearray(sc.data_envelope(PROBE_BODY))
    binary[5] ^= 0x10
    resp = sc.send_raw(PROBE, sc.body(bytes(binary)), headers=sc.headers())
    sc_error(resp, 400, DECRYPTION_FAILED)


def test_sealed_with_the_response_key(sc: ScClient) -> None:
    binary = sc.data_envelope(PROBE_BODY, key=sc.response_key)
    resp = sc.send_raw(PROBE, sc.body(binary), headers=sc.headers())
    sc_error(resp, 400, DECRYPTION_FAILED)


def test_sealed_with_another_sessions_key(api: Api, sc: ScClient) -> None:
    other = ScClient(api)
    other.open_session()
    binary = other.data_envelope(PROBE_BODY)
    resp = sc.send_raw(PROBE, sc.body(binary), headers=sc.headers())
    sc_error(resp, 400, DECRYPTION_FAILED)


def test_truncated_payload(sc: ScClient) -> None:
    binary = b"SC\x02\x02" + os.urandom(20)
    resp = sc.send_raw(PROBE, sc.body(binary), headers=sc.headers())
    sc_error(resp, 400, DECRYPTION_FAILED)


@pytest.mark.parametrize("binary", [b"", b"S", b"SC", b"SC\x02"], ids=["0", "1", "2", "3"])
def test_too_short_envelope(sc: ScClient, binary: bytes) -> None:
    resp = sc.send_raw(PROBE, sc.body(binary), headers=sc.headers())
    sc_error(resp, 400, {DECRYPTION_FAILED, INVALID})


def test_p_not_base64(sc: ScClient) -> None:
    resp = sc.send_raw(PROBE, {"v": 2, "p": "!!!not*base64$$$"}, headers=sc.headers())
    sc_error(resp, 400, {DECRYPTION_FAILED, INVALID})


def test_garbage_wrapped_keys(api: Api) -> None:
    client = ScClient(api)
    client.fetch_public_key()
    assert client.public_key is not None
    size = client.public_key.key_size // 8
    resp = client.create_session_raw(
        wrapped_request=os.urandom(size), wrapped_response=os.urandom(size)
    )
    sc_error(resp, 400, DECRYPTION_FAILED)


def test_wrapped_key_length_beyond_the_body(api: Api) -> None:
    client = ScClient(api)
    client.fetch_public_key()
    kid = client.key_id.encode()
    binary = b"SC\x02\x01" + bytes([len(kid)]) + kid + (60000).to_bytes(2, "big") + b"\x00" * 10
    resp = client.send_raw(
        f"{SC}/session", client.body(binary), headers=client.headers(with_session=False)
    )
    sc_error(resp, 400, {DECRYPTION_FAILED, INVALID})


def test_wrapped_keys_of_wrong_length(api: Api) -> None:
    client = ScClient(api)
    client.fetch_public_key()
    client.request_key = os.urandom(16)
    resp = client.create_session_raw()
    sc_error(resp, 400, {DECRYPTION_FAILED, INVALID})


def test_session_plaintext_not_json(api: Api) -> None:
    client = ScClient(api)
    resp = client.create_session_raw(plaintext=b"\xff\xfe not json")
    assert 400 <= resp.status_code < 500, resp.text
    env = client.answer(resp)
    assert env["success"] is False and env["data"] is None


# -- replay -----------------------------------------------------------------------------------


def test_replayed_body_is_detected(sc: ScClient) -> None:
    binary = sc.data_envelope(PROBE_BODY)
    body = sc.body(binary)
    _probe_ok(sc, sc.send_raw(PROBE, body, headers=sc.headers()))
    sc_error(sc.send_raw(PROBE, body, headers=sc.headers()), 400, REPLAY)


def test_reused_iv_with_new_plaintext_is_detected(sc: ScClient) -> None:
    iv = os.urandom(12)
    _probe_ok(sc, sc.send(PROBE, PROBE_BODY, iv=iv))
    other = {"token": "another-bogus-token", "newPassword": "Other-Password-2026!"}
    sc_error(sc.send(PROBE, other, iv=iv), 400, REPLAY)


def test_iv_of_the_key_exchange_cannot_be_reused(api: Api) -> None:
    client = ScClient(api)
    iv = os.urandom(12)
    resp = client.create_session_raw(iv=iv)
    assert resp.status_code == 200, resp.text
    client.session_id = client.open_response(resp)["data"]["sessionId"]
    sc_error(client.send(PROBE, PROBE_BODY, iv=iv), 400, REPLAY)


def test_same_iv_in_another_session_is_fine(api: Api) -> None:
    iv = os.urandom(12)
    first, second = ScClient(api), ScClient(api)
    first.open_session()
    second.open_session()
    _probe_ok(first, first.send(PROBE, PROBE_BODY, iv=iv))
    _probe_ok(second, second.send(PROBE, PROBE_BODY, iv=iv))


def test_replayed_session_creation_body(api: Api) -> None:
    client = ScClient(api)
    binary = client.key_exchange()
    body = client.body(binary)
    headers = client.headers(with_session=False)
    first = client.send_raw(f"{SC}/session", body, headers=headers)
    assert first.status_code == 200, first.text
    second = client.send_raw(f"{SC}/session", body, headers=headers)
    # A replayed key exchange must not be refused with a 5xx; whether it opens a second
    # session is left open by the profile.
    assert second.status_code < 500, second.text


# -- binding and the per-account limit --------------------------------------------------------

CHANGE = f"{SYS}/auth/password/change"


def _wrong_change(sc: ScClient, token: str) -> Any:
    return sc.send(
        CHANGE,
        {"currentPassword": "Not-The-Password-1!", "newPassword": "Never-Applied-2026!"},
        token=token,
    )


def test_session_bound_to_another_account(api: Api, admin_token: str, auditor_token: str) -> None:
    sc = ScClient(api)
    sc.open_session()
    env = sc.open_response(_wrong_change(sc, admin_token))
    assert env["code"] == "AUTH.CURRENT_PASSWORD_INCORRECT", env
    # The same account keeps using it.
    env = sc.open_response(_wrong_change(sc, admin_token))
    assert env["code"] == "AUTH.CURRENT_PASSWORD_INCORRECT", env
    sc_error(_wrong_change(sc, auditor_token), 401, SESSION_INVALID)


def test_session_created_with_a_token_is_bound(
    api: Api, admin_token: str, auditor_token: str
) -> None:
    sc = ScClient(api)
    sc.open_session(token=admin_token)
    env = sc.open_response(_wrong_change(sc, admin_token))
    assert env["code"] == "AUTH.CURRENT_PASSWORD_INCORRECT", env
    sc_error(_wrong_change(sc, auditor_token), 401, SESSION_INVALID)


def test_per_account_limit_evicts_the_oldest(start_sandbox: StartSandbox) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        token = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
        clients = []
        for _ in range(6):
            client = ScClient(api)
            client.open_session(token=token)
            env = client.open_response(_wrong_change(client, token))
            assert env["code"] == "AUTH.CURRENT_PASSWORD_INCORRECT", env
            clients.append(client)
        sc_error(_wrong_change(clients[0], token), 401, SESSION_INVALID)
        for client in clients[1:]:
            env = client.open_response(_wrong_change(client, token))
            assert env["code"] == "AUTH.CURRENT_PASSWORD_INCORRECT", env
        # Another account is not affected by this account's limit.
        other_token = login(api, AUDITOR_EMAIL, AUDITOR_PASSWORD).access
        other = ScClient(api)
        other.open_session()
        env = other.open_response(_wrong_change(other, other_token))
        assert env["code"] != SESSION_INVALID, env
    finally:
        api.close()


# -- every algorithm name ---------------------------------------------------------------------

ALGORITHMS = [
    "RSA-OAEP-256",
    "RSA/ECB/OAEPWithSHA-256AndMGF1Padding",
    "RSA-OAEP",
    "RSA1_5",
    "RSA/ECB/PKCS1Padding",
]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_sc_algorithm_flag(start_sandbox: StartSandbox, algorithm: str) -> None:
    server = start_sandbox("--sc-algorithm", algorithm, seed=5)
    api = server.api()
    try:
        client = ScClient(api)
        data = client.fetch_public_key()
        assert data["algorithm"] == algorithm
        client.open_session()
        env = client.open_response(client.send(PROBE, PROBE_BODY))
        assert env["code"] == "AUTH.PASSWORD_RESET_TOKEN_INVALID", env
        close = client.close()
        assert close.status_code == 200 and client.open_response(close)["data"] is None
        # Keys wrapped with another padding than the advertised one do not unwrap.
        others = {
            "RSA-OAEP-256": "RSA/ECB/OAEPWithSHA-256AndMGF1Padding",
            "RSA/ECB/OAEPWithSHA-256AndMGF1Padding": "RSA-OAEP-256",
            "RSA-OAEP": "RSA-OAEP-256",
        }
        if algorithm in others:
            wrong = ScClient(api)
            wrong.fetch_public_key()
            resp = wrong.create_session_raw(algorithm=others[algorithm])
            sc_error(resp, 400, DECRYPTION_FAILED)
    finally:
        api.close()


def test_key_exchange_plaintext_must_be_sealed_with_request_key(api: Api) -> None:
    client = ScClient(api)
    client.fetch_public_key()
    wreq = client.wrap(client.request_key)
    wresp = client.wrap(client.response_key)
    kid = client.key_id.encode()
    payload = client.seal_payload(client.response_key, b"{}")
    binary = (
        b"SC\x02\x01"
        + bytes([len(kid)])
        + kid
        + len(wreq).to_bytes(2, "big")
        + wreq
        + len(wresp).to_bytes(2, "big")
        + wresp
        + payload
    )
    resp = client.send_raw(
        f"{SC}/session", client.body(binary), headers=client.headers(with_session=False)
    )
    sc_error(resp, 400, DECRYPTION_FAILED)
