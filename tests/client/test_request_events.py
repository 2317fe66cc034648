"""RequestFinished says why a request got no answer: connection, timeout or cancellation."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from portal_admin.client import (
    APIConnectionError,
    APITimeoutError,
    ClientOptions,
    MemoryTokenStore,
    PortalClient,
    RequestFinished,
    RetryPolicy,
)


def _client(handler: object) -> tuple[PortalClient, list[RequestFinished]]:
    client = PortalClient(
        "http://127.0.0.1:9",
        ClientOptions(access_code="X", retry=RetryPolicy(attempts=1)),
        transport=httpx.MockTransport(handler),  # type: ignore[arg-type]
        token_store=MemoryTokenStore(),
    )
    seen: list[RequestFinished] = []
    client.events.subscribe(seen.append, RequestFinished)
    return client, seen


@pytest.mark.parametrize(
    ("error", "expected", "code"),
    [
        (httpx.ConnectError("refused"), APIConnectionError, "CLIENT.CONNECTION"),
        (httpx.ReadTimeout("slow"), APITimeoutError, "CLIENT.TIMEOUT"),
    ],
)
async def test_failure_codes(error: Exception, expected: type[Exception], code: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise error

    client, seen = _client(handler)
    async with client:
        with pytest.raises(expected):
            await client.constants.countries()
    assert seen and all(e.status is None and e.code == code for e in seen)


async def test_cancelled_request_says_so() -> None:
    started = asyncio.Event()

    async def handler(request: httpx.Request) -> httpx.Response:
        started.set()
        await asyncio.sleep(10)
        raise AssertionError("not reached")

    client, seen = _client(handler)
    async with client:
        task = asyncio.create_task(client.constants.countries())
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert [e.code for e in seen] == ["CLIENT.CANCELLED"]
