"""Headers of section 4.0, request ids, events."""

from __future__ import annotations

import uuid

import pytest

from portal_admin.client import (
    ConfigurationError,
    RequestFinished,
    RequestStarted,
    SignedInChanged,
)
from portal_admin.client.options import ClientOptions, is_loopback

from .conftest import ClientFactory, sign_in
from .fake_server import FakePortal


async def test_headers_on_a_public_call(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client(language="zh-Hant", workspace_id="ws-9")
    await client.constants.user_account_statuses()
    request = fake.requests[-1]
    assert request.headers["Accept-Language"] == "zh-Hant"
    assert request.headers["X-Client-Hash"] == "hash-1"
    assert request.headers["X-PORTAL-ACCESS-CODE"] == "CODE"
    assert request.headers["Accept"] == "application/json"
    assert "Authorization" not in request.headers
    assert "X-Workspace-Id" not in request.headers  # public operation
    assert uuid.UUID(request.headers["X-Request-Id"])
    assert client.last_request_id == request.headers["X-Request-Id"]


async def test_fresh_request_id_and_bearer(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client(workspace_id="ws-9")
    await sign_in(client)
    await client.auth.profile()
    await client.auth.profile()
    first, second = fake.requests[-2:]
    assert first.headers["X-Request-Id"] != second.headers["X-Request-Id"]
    assert first.headers["Authorization"].startswith("Bearer at-")
    assert first.headers["X-Workspace-Id"] == "ws-9"


async def test_no_access_code_on_secure_channel_paths(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client()
    await client.secure_channel.public_key()
    request = fake.requests[-1]
    assert "X-PORTAL-ACCESS-CODE" not in request.headers
    assert request.headers["X-Client-Hash"] == "hash-1"


async def test_events(make_client: ClientFactory) -> None:
    client = make_client()
    seen: list[object] = []
    unsubscribe = client.events.subscribe(seen.append)
    requests: list[object] = []
    client.events.subscribe(requests.append, RequestFinished)
    await sign_in(client)
    started = [e for e in seen if isinstance(e, RequestStarted)]
    finished = [e for e in seen if isinstance(e, RequestFinished)]
    assert [e.operation_id for e in started] == [
        "auth.login_initiate",
        "auth.mfa_send",
        "auth.login_complete",
    ]
    assert all(e.status == 200 and e.code == "2000" for e in finished)
    assert requests == finished
    assert [e for e in seen if isinstance(e, SignedInChanged)] == [
        SignedInChanged(True, "admin@fake.test", "login")
    ]
    unsubscribe()
    await client.auth.profile()
    assert len(seen) == 7


async def test_failing_callback_is_ignored(make_client: ClientFactory) -> None:
    client = make_client()

    def boom(event: object) -> None:
        raise RuntimeError("callback bug")

    client.events.subscribe(boom)
    assert len(await client.constants.countries()) == 2


def test_plain_http_only_for_loopback() -> None:
    from portal_admin.client import PortalClient, TLSSettings

    with pytest.raises(ConfigurationError):
        PortalClient("http://portal.example.com", ClientOptions(client_hash="h"))
    PortalClient(
        "http://portal.example.com",
        ClientOptions(client_hash="h", tls=TLSSettings(allow_insecure_http=True)),
    )
    PortalClient("http://127.0.0.1:8765", ClientOptions(client_hash="h"))
    PortalClient("https://portal.example.com", ClientOptions(client_hash="h"))
    assert is_loopback("localhost") and is_loopback("::1") and is_loopback("127.0.0.2")
    assert not is_loopback("10.0.0.1")


def test_language_is_checked() -> None:
    with pytest.raises(ConfigurationError):
        ClientOptions(language="fr")  # type: ignore[arg-type]


def test_installation_fingerprint_is_stable(tmp_path: object) -> None:
    from pathlib import Path

    from portal_admin.client import installation_fingerprint

    path = Path(str(tmp_path)) / "sub" / "id"
    first = installation_fingerprint(path)
    assert first == installation_fingerprint(path)
    assert len(first) == 64
    assert installation_fingerprint(Path(str(tmp_path)) / "other") != first
