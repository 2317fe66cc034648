"""Fixtures for the client tests: a fake portal over MockTransport, clients built on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from support.portal import FAST_RETRY

from .fake_server import ADMIN, CODE, PASSWORD, FakePortal

ClientFactory = Callable[..., PortalClient]


@pytest.fixture
def fake() -> FakePortal:
    return FakePortal()


@pytest.fixture
async def make_client(fake: FakePortal) -> AsyncIterator[ClientFactory]:
    made: list[PortalClient] = []

    def factory(**overrides: Any) -> PortalClient:
        store = overrides.pop("token_store", None) or MemoryTokenStore()
        clock = overrides.pop("clock", None)
        options = ClientOptions(
            **{
                "access_code": "CODE",
                "client_hash": "hash-1",
                "retry": FAST_RETRY,
                **overrides,
            }
        )
        kwargs: dict[str, Any] = {"transport": fake.transport(), "token_store": store}
        if clock is not None:
            kwargs["clock"] = clock
        client = PortalClient("http://fake.test", options, **kwargs)
        made.append(client)
        return client

    yield factory
    for client in made:
        await client.aclose()


async def sign_in(client: PortalClient) -> None:
    """Walk the fake portal's sign-in sequence."""
    await client.auth.start(ADMIN, PASSWORD)
    await client.auth.send_code("EMAIL")
    await client.auth.complete("EMAIL", CODE)


@pytest.fixture
async def client(make_client: ClientFactory) -> PortalClient:
    client = make_client()
    await sign_in(client)
    return client
