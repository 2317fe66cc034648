"""Read-only mode and the retry policy."""

from __future__ import annotations

import httpx
import pytest

from portal_admin.client import (
    METHOD_OPERATIONS,
    APIConnectionError,
    ReadOnlyError,
    ServerError,
    operation_id,
)
from portal_admin.client.invoker import RETRIED
from portal_admin.protocol.operations import OPERATIONS, READ_ONLY_ALLOWED

from .conftest import ClientFactory, sign_in
from .fake_server import FakePortal, envelope, error


async def test_read_only_sends_nothing_for_mutating_calls(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client(read_only=True)
    await sign_in(client)  # sign-in steps are allowed
    before = len(fake.requests)
    refusals = [
        client.accounts.change_status("acc-1", "SUSPEND"),
        client.roles.delete("role-1"),
        client.auth.change_password("a", "b"),
        client.auth.forgot_password("a@b.c", "challenge"),
        client.security.set_ip_whitelist(["1.2.3.4"]),
        client.notifications.create_channel("x", "WEBHOOK", {"url": "https://x.test"}),
        client.portals.create("TENANT", "x.example.com"),
    ]
    for call in refusals:
        with pytest.raises(ReadOnlyError) as caught:
            await call
        assert caught.value.operation_id in OPERATIONS
    assert len(fake.requests) == before
    assert not client.is_allowed("accounts.status")
    assert client.is_allowed("accounts.query")
    await client.accounts.query()
    assert len(fake.requests) == before + 1


async def test_read_only_refuses_before_a_token_refresh(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    now = [0.0]
    client = make_client(read_only=True, clock=lambda: now[0])
    await sign_in(client)
    now[0] = 10_000.0  # the access token is long expired
    before = len(fake.requests)
    with pytest.raises(ReadOnlyError):
        await client.accounts.update("acc-1", account_name="x")
    assert len(fake.requests) == before


def test_allowlist_and_method_lookup() -> None:
    for method, op in METHOD_OPERATIONS.items():
        assert op in OPERATIONS, method
    assert set(METHOD_OPERATIONS.values()) == set(OPERATIONS)
    assert len(OPERATIONS) == 67
    from portal_admin.client.areas import AccountsArea

    assert operation_id(AccountsArea.change_status) == "accounts.status"
    assert "accounts.status" not in READ_ONLY_ALLOWED


async def test_reads_retried_on_gateway_errors(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client()
    path = "/web/v1/system/constants/countries"
    fake.once(path, lambda r: httpx.Response(503, text="Service Unavailable"))
    fake.once(path, lambda r: error("5000", 502))
    assert len(await client.constants.countries()) == 2
    assert fake.hits[path] == 3


async def test_reads_retried_on_connection_errors(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client()
    path = "/web/v1/system/constants/timezones"

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    fake.once(path, refuse)
    assert len(await client.constants.timezones()) == 2
    for _ in range(3):
        fake.once(path, refuse)
    with pytest.raises(APIConnectionError):
        await client.constants.timezones()
    assert fake.hits[path] == 5


async def test_500_and_writes_are_not_retried(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    await sign_in(client)
    path = "/web/v1/system/roles/delete"
    fake.once(path, lambda r: error("5000", 503))
    with pytest.raises(ServerError):
        await client.roles.delete("role-1")
    assert fake.hits[path] == 1
    fake.once("/web/v1/system/constants/countries", lambda r: error("5000", 500))
    with pytest.raises(ServerError):
        await client.constants.countries()
    assert fake.hits["/web/v1/system/constants/countries"] == 1


async def test_sign_in_steps_are_not_retried(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    path = "/web/v1/system/auth/login/initiate"
    fake.once(path, lambda r: httpx.Response(503, json=envelope(None, "5000")))
    with pytest.raises(ServerError):
        await client.auth.start("a@b.c", "pw")
    assert fake.hits[path] == 1
    assert "auth.login_initiate" not in RETRIED
    assert "auth.token_refresh" not in RETRIED
    assert all(not OPERATIONS[op].mutating for op in RETRIED)
