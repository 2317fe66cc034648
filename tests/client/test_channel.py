"""The Secure Channel session: lazy, reused, recovered, closed; tampering and replay refused."""

from __future__ import annotations

import json
from typing import Any

import pytest

from portal_admin.client import (
    SecureChannelChanged,
    SecureChannelError,
    UnsupportedAlgorithmError,
)
from portal_admin.protocol import secure_channel as sc

from .conftest import ClientFactory, sign_in
from .fake_server import FakePortal

SESSION = "/web/v1/secure-channel/session"
KEY = "/web/v1/secure-channel/public-key"
CHANGE = "/web/v1/system/auth/password/change"


async def test_lazy_open_reuse_and_close(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    states: list[object] = []
    client.events.subscribe(states.append, SecureChannelChanged)
    await sign_in(client)
    assert fake.hits[SESSION] == 0  # nothing needed it yet
    await client.auth.change_password("old", "new")
    await client.auth.change_password("new", "newer")
    await client.auth.refresh()
    assert fake.hits[KEY] == 1 and fake.hits[SESSION] == 1
    request = next(r for r in fake.requests if r.url.path == CHANGE)
    assert request.headers["X-SC-Version"] == "2"
    assert request.headers["Content-Type"] == sc.CONTENT_TYPE
    assert set(json.loads(request.content)) == {"v", "p"}
    assert b"newer" not in request.content
    await client.auth.logout()
    assert fake.hits[SESSION + "/close"] == 1
    assert not client.secure_channel.is_open
    assert states == [
        SecureChannelChanged("open", sc.OAEP_SHA256),
        SecureChannelChanged("closed", sc.OAEP_SHA256),
    ]


async def test_closed_on_exit(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    await client.auth.forgot_password("someone@fake.test", "challenge")
    forgot = fake.requests[-1]
    assert forgot.headers["X-SC-Session-Id"] in fake.sessions
    assert forgot.headers["X-Challenge-Token"] == "challenge"
    assert json.loads(forgot.content) == {
        "email": "someone@fake.test",
        "challengeToken": "challenge",
    }
    await client.aclose()
    assert fake.hits[SESSION + "/close"] == 1
    assert fake.sessions == {}


async def test_recovers_from_an_expired_session(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client()
    await sign_in(client)
    await client.auth.change_password("a", "b")
    fake.sessions.clear()  # the server forgot it (TTL, eviction)
    await client.auth.change_password("b", "c")
    assert fake.hits[SESSION] == 2
    assert fake.hits[CHANGE] == 3  # refused once, then sent again sealed afresh
    bodies = [r.content for r in fake.requests if r.url.path == CHANGE]
    assert bodies[1] != bodies[2]


async def test_recovers_from_a_rotated_key(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    await sign_in(client)
    await client.auth.change_password("a", "b")
    fake.sessions.clear()
    fake.key_id = "k2"  # rotated: the old key id is unknown now
    await client.auth.change_password("b", "c")
    assert fake.hits[KEY] == 2
    assert fake.hits[SESSION] == 3  # KEY_UNKNOWN, then a session under the new key


async def test_key_unknown_on_first_open(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    await client.secure_channel.public_key()
    fake.key_id = "k2"
    await client.secure_channel.open()
    assert fake.hits[KEY] == 2 and fake.hits[SESSION] == 2


def _flip_last_byte(path: str, body: dict[str, Any]) -> dict[str, Any]:
    if not path.endswith("/refresh"):
        return body
    raw = bytearray(sc.from_body(body))
    raw[-1] ^= 0x01
    return sc.to_body(bytes(raw))


async def test_tampered_response_rejected(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    await sign_in(client)
    fake.response_filter = _flip_last_byte
    with pytest.raises(SecureChannelError) as caught:
        await client.auth.refresh()
    assert caught.value.code == "SECURE_CHANNEL.DECRYPTION_FAILED"
    assert client.signed_in  # a channel failure is not a refused refresh


async def test_replayed_response_rejected(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    await sign_in(client)
    recorded: list[dict[str, Any]] = []

    def replay(path: str, body: dict[str, Any]) -> dict[str, Any]:
        if not path.endswith("/password/change"):
            return body
        recorded.append(body)
        return recorded[0]

    fake.response_filter = replay
    await client.auth.change_password("a", "b")
    with pytest.raises(SecureChannelError) as caught:
        await client.auth.change_password("b", "c")
    assert caught.value.code == "SECURE_CHANNEL.REPLAY_DETECTED"


@pytest.mark.parametrize("algorithm", sc.MODERN_ALGORITHMS)
async def test_each_modern_padding(
    make_client: ClientFactory, fake: FakePortal, algorithm: str
) -> None:
    fake.algorithm = algorithm
    client = make_client()
    await sign_in(client)
    await client.auth.refresh()
    assert fake.hits[SESSION] == 1


@pytest.mark.parametrize("algorithm", sc.LEGACY_ALGORITHMS)
async def test_legacy_padding_refused_unless_allowed(
    make_client: ClientFactory, fake: FakePortal, algorithm: str
) -> None:
    fake.algorithm = algorithm
    client = make_client()
    await sign_in(client)
    with pytest.raises(UnsupportedAlgorithmError):
        await client.auth.refresh()
    assert fake.hits[SESSION] == 0
    allowed = make_client(allow_legacy_padding=True)
    await sign_in(allowed)
    await allowed.auth.refresh()
    assert fake.hits[SESSION] == 1


async def test_unknown_algorithm_refused_before_sending(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    fake.algorithm = "RSA-OAEP-512-SOMETHING"
    client = make_client(allow_legacy_padding=True)
    with pytest.raises(UnsupportedAlgorithmError):
        await client.auth.reset_password("token", "Pw-123456!")
    assert fake.hits[SESSION] == 0
    assert fake.hits["/web/v1/system/auth/password/reset"] == 0
