"""Secure Channel v2, checked with the independent client of sc_wire (not the project codec)."""

from __future__ import annotations

import base64
import os

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from sandbox_flows import SC, SYSTEM, bearer, err, new_wire, ok, open_channel, sealed
from sc_wire import body

from portal_admin.sandbox import SandboxConfig
from portal_admin.sandbox.state import SandboxState

CLOSE = f"{SC}/session/close"
REFRESH = f"{SYSTEM}/auth/token/refresh"
CHANGE = f"{SYSTEM}/auth/password/change"
INVALID = "VALIDATION.INVALID_PARAMETER"


async def test_public_key(client: httpx.AsyncClient) -> None:
    data = ok(await client.get(f"{SC}/public-key"))
    assert set(data) == {"keyId", "publicKey", "algorithm"}
    assert data["algorithm"] == "RSA-OAEP-256"
    assert 1 <= len(data["keyId"].encode()) <= 255
    key = serialization.load_der_public_key(base64.b64decode(data["publicKey"], validate=True))
    assert isinstance(key, RSAPublicKey) and key.key_size == 3072
    again = ok(await client.get(f"{SC}/public-key"))
    assert again["keyId"] == data["keyId"]


async def test_session_create_and_close(client: httpx.AsyncClient) -> None:
    wire = await new_wire(client)
    resp = await client.post(
        f"{SC}/session", json=body(wire.key_exchange()), headers={"X-SC-Version": "2"}
    )
    assert resp.status_code == 200
    env = wire.open(resp.json())
    assert env["success"] is True and env["code"] == "2000"
    assert isinstance(env["data"]["sessionId"], str) and env["data"]["expiresIn"] == 1800
    wire.session_id = env["data"]["sessionId"]
    resp, env = await sealed(client, wire, CLOSE, {})
    assert resp.status_code == 200 and env["success"] is True and env["data"] is None
    resp = await client.post(CLOSE, json=body(wire.data({})), headers=wire.headers())
    err(resp, 401, "SECURE_CHANNEL.SESSION_INVALID")


async def test_padded_base64_is_accepted(client: httpx.AsyncClient) -> None:
    wire = await new_wire(client)
    frame = wire.key_exchange()
    padded = base64.urlsafe_b64encode(frame).decode()
    resp = await client.post(
        f"{SC}/session", json={"v": 2, "p": padded}, headers={"X-SC-Version": "2"}
    )
    assert resp.status_code == 200, resp.text


@pytest.mark.parametrize(
    "algorithm", ["RSA/ECB/OAEPWithSHA-256AndMGF1Padding", "RSA-OAEP", "RSA1_5"]
)
async def test_other_algorithms(algorithm: str) -> None:
    from portal_admin.sandbox import create_app

    application = create_app(SandboxConfig(seed_accounts=0, sc_algorithm=algorithm))
    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://t", headers={"X-Client-Hash": "h"}
    ) as c:
        wire = await open_channel(c)
        assert wire.algorithm == algorithm
        _resp, env = await sealed(c, wire, CLOSE, {})
        assert env["success"] is True
    application.state.sandbox.db.close()


# -- errors raised before a body is decrypted ---------------------------------------------------


async def test_missing_headers_and_bad_bodies(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    good = body(wire.data({}))
    no_version = {"X-SC-Session-Id": wire.session_id or ""}
    no_session = {"X-SC-Version": "2"}
    err(await client.post(CLOSE, json=good, headers=no_version), 400, INVALID)
    err(await client.post(CLOSE, json=good, headers=no_session), 400, INVALID)
    bad_version = {**wire.headers(), "X-SC-Version": "3"}
    err(await client.post(CLOSE, json=good, headers=bad_version), 400, INVALID)
    for bad in (
        {"v": 3, "p": good["p"]},
        {"v": "2", "p": good["p"]},
        {"v": True, "p": good["p"]},
        {"p": good["p"]},
        {"v": 2},
        {"v": 2, "p": ""},
        {"v": 2, "p": 42},
        {"v": 2, "p": "!!!not base64!!!"},
        {"v": 2, "p": good["p"], "extra": 1},
        [good],
        "text",
    ):
        err(await client.post(CLOSE, json=bad, headers=wire.headers()), 400, INVALID)
    resp = await client.post(CLOSE, content=b"{not json", headers=wire.headers())
    err(resp, 400, INVALID)
    err(await client.post(CLOSE, headers=wire.headers()), 400, INVALID)
    # create needs the version header too
    err(await client.post(f"{SC}/session", json=body(wire.key_exchange())), 400, INVALID)


async def test_unknown_session(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    wire.session_id = "scs_unknown"
    resp = await client.post(CLOSE, json=body(wire.data({})), headers=wire.headers())
    err(resp, 401, "SECURE_CHANNEL.SESSION_INVALID")


async def test_idle_expiry(client: httpx.AsyncClient, state: SandboxState) -> None:
    wire = await open_channel(client)
    assert state.test_clock is not None
    state.test_clock.advance(1700)
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": "x"})
    assert env["code"] == "AUTH.REFRESH_TOKEN_INVALID"  # still alive: the idle time restarted
    state.test_clock.advance(1700)
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": "x"})
    assert env["code"] == "AUTH.REFRESH_TOKEN_INVALID"
    state.test_clock.advance(1801)
    resp = await client.post(CLOSE, json=body(wire.data({})), headers=wire.headers())
    err(resp, 401, "SECURE_CHANNEL.SESSION_INVALID")


async def test_key_rotation(client: httpx.AsyncClient, state: SandboxState) -> None:
    old = await open_channel(client)
    stale = await new_wire(client)
    ok(await client.post("/sandbox/secure-channel/rotate-key"))
    resp = await client.post(
        f"{SC}/session", json=body(stale.key_exchange()), headers={"X-SC-Version": "2"}
    )
    err(resp, 400, "SECURE_CHANNEL.KEY_UNKNOWN")
    fresh = await new_wire(client)
    assert fresh.key_id != stale.key_id
    await open_channel(client)
    # Sessions opened before the rotation keep working.
    _, env = await sealed(client, old, CLOSE, {})
    assert env["success"] is True


@pytest.mark.parametrize(
    "head", [b"XC\x02\x01", b"SC\x01\x01", b"SC\x02\x02", b"SC\x02\x81", b"SC\x02\x07"]
)
async def test_key_exchange_wrong_header(client: httpx.AsyncClient, head: bytes) -> None:
    wire = await new_wire(client)
    frame = wire.key_exchange(head=head)
    resp = await client.post(f"{SC}/session", json=body(frame), headers={"X-SC-Version": "2"})
    err(resp, 400, "SECURE_CHANNEL.DECRYPTION_FAILED")


async def test_key_exchange_garbage(client: httpx.AsyncClient) -> None:
    wire = await new_wire(client)
    headers = {"X-SC-Version": "2"}
    wrapped = (os.urandom(384), os.urandom(384))
    for frame in (
        wire.key_exchange(wrapped=wrapped),  # RSA unwrap fails
        wire.key_exchange()[:60],  # truncated
        b"SC",
        wire.key_exchange()[:-1] + bytes([wire.key_exchange()[-1] ^ 1]),  # tag broken
    ):
        resp = await client.post(f"{SC}/session", json=body(frame), headers=headers)
        err(resp, 400, "SECURE_CHANNEL.DECRYPTION_FAILED")
    # a key wrapped for another key pair
    other = await new_wire(client)
    kx = wire.key_exchange()
    tampered = kx[:-40] + other.key_exchange()[-40:]
    resp = await client.post(f"{SC}/session", json=body(tampered), headers=headers)
    err(resp, 400, "SECURE_CHANNEL.DECRYPTION_FAILED")


async def test_tampered_session_data(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    frame = bytearray(wire.data({"refreshToken": "x"}))
    frame[20] ^= 0x01
    resp = await client.post(REFRESH, json=body(bytes(frame)), headers=wire.headers())
    err(resp, 400, "SECURE_CHANNEL.DECRYPTION_FAILED")
    wrong_key = wire.data({"refreshToken": "x"}, key=os.urandom(32))
    resp = await client.post(REFRESH, json=body(wrong_key), headers=wire.headers())
    err(resp, 400, "SECURE_CHANNEL.DECRYPTION_FAILED")
    for head in (b"SC\x02\x01", b"SC\x02\x81", b"SC\x03\x02", b"AB\x02\x02"):
        frame2 = wire.data({}, head=head)
        resp = await client.post(REFRESH, json=body(frame2), headers=wire.headers())
        err(resp, 400, "SECURE_CHANNEL.DECRYPTION_FAILED")
    short = body(b"SC\x02\x02" + os.urandom(10))
    err(
        await client.post(REFRESH, json=short, headers=wire.headers()),
        400,
        "SECURE_CHANNEL.DECRYPTION_FAILED",
    )
    # the session survives tampering
    resp, env = await sealed(client, wire, CLOSE, {})
    assert env["success"] is True


async def test_replay_detected(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    replayed = body(wire.data({"refreshToken": "x"}))
    first = await client.post(REFRESH, json=replayed, headers=wire.headers())
    assert wire.open(first.json())["code"] == "AUTH.REFRESH_TOKEN_INVALID"
    again = await client.post(REFRESH, json=replayed, headers=wire.headers())
    err(again, 400, "SECURE_CHANNEL.REPLAY_DETECTED")
    iv = os.urandom(12)
    await client.post(REFRESH, json=body(wire.data({"a": 1}, iv=iv)), headers=wire.headers())
    same_iv = body(wire.data({"refreshToken": "other"}, iv=iv))
    err(
        await client.post(REFRESH, json=same_iv, headers=wire.headers()),
        400,
        "SECURE_CHANNEL.REPLAY_DETECTED",
    )


async def test_binding_to_the_first_bearer(
    client: httpx.AsyncClient, admin_token: str, auditor_token: str
) -> None:
    wire = await open_channel(client)
    payload = {"currentPassword": "wrong-password", "newPassword": "Another-Pass-1"}
    resp, env = await sealed(client, wire, CHANGE, payload, token=admin_token)
    assert env["code"] == "AUTH.CURRENT_PASSWORD_INCORRECT"
    resp = await client.post(
        CHANGE, json=body(wire.data(payload)), headers={**wire.headers(), **bearer(auditor_token)}
    )
    err(resp, 401, "SECURE_CHANNEL.SESSION_INVALID")
    # bound at creation when created with a token
    bound = await open_channel(client, auditor_token)
    resp = await client.post(
        CHANGE, json=body(bound.data(payload)), headers={**bound.headers(), **bearer(admin_token)}
    )
    err(resp, 401, "SECURE_CHANNEL.SESSION_INVALID")


async def test_per_account_limit_evicts_the_oldest(
    client: httpx.AsyncClient, admin_token: str, state: SandboxState
) -> None:
    wires = [await open_channel(client, admin_token) for _ in range(6)]
    resp = await client.post(CLOSE, json=body(wires[0].data({})), headers=wires[0].headers())
    err(resp, 401, "SECURE_CHANNEL.SESSION_INVALID")
    for wire in wires[1:]:
        _, env = await sealed(client, wire, CLOSE, {})
        assert env["success"] is True


async def test_sealed_business_errors_keep_their_status(client: httpx.AsyncClient) -> None:
    wire = await open_channel(client)
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": "nope"})
    assert resp.status_code == 401
    assert resp.headers["content-type"].startswith("application/json")
    assert env["success"] is False and env["data"] is None
    assert env["code"] == "AUTH.REFRESH_TOKEN_INVALID"
    resp, env = await sealed(client, wire, REFRESH, {"refreshToken": "x", "extra": True})
    assert resp.status_code == 400 and env["code"] == INVALID
    resp, env = await sealed(client, wire, REFRESH, [1, 2])
    assert resp.status_code == 400 and env["code"] == INVALID


async def test_sealed_operations_refuse_plain_bodies(client: httpx.AsyncClient) -> None:
    for op in (
        "auth/token/refresh",
        "auth/password/reset",
        "auth/password/init",
        "auth/password/change",
    ):
        resp = await client.post(f"{SYSTEM}/{op}", json={"refreshToken": "x"})
        err(resp, 400, INVALID)
