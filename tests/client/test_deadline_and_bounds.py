"""A call ends within its timeout whatever the server does, and reads a bounded answer.

Each case is a tiny raw HTTP/1.1 server on loopback that misbehaves in one way: trickling its
answer a byte at a time, never answering, an endless chunked answer, a huge declared or real
body, a gzip bomb, JSON nested too deeply for the parser.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.client.errors import APITimeoutError, MalformedResponseError

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def read_request(reader: asyncio.StreamReader) -> None:
    await reader.readuntil(b"\r\n\r\n")


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[Handler], Awaitable[str]]]:
    servers: list[asyncio.Server] = []
    writers: list[asyncio.StreamWriter] = []

    async def start(handler: Handler) -> str:
        async def wrapped(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writers.append(writer)
            with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
                await handler(reader, writer)

        server = await asyncio.start_server(wrapped, "127.0.0.1", 0)
        servers.append(server)
        port = server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    yield start
    for writer in writers:
        writer.close()
    for server in servers:
        server.close()
        await server.wait_closed()


def client(base_url: str, **options: object) -> PortalClient:
    return PortalClient(
        base_url,
        ClientOptions(access_code="CODE", client_hash="bounds", **options),  # type: ignore[arg-type]
        token_store=MemoryTokenStore(),
    )


async def timed_call(base_url: str, **options: object) -> tuple[Exception, float]:
    """Call a public read; the error it ends with and the seconds it took."""
    async with client(base_url, **options) as portal:
        started = time.monotonic()
        with pytest.raises((APITimeoutError, MalformedResponseError)) as caught:
            await portal.constants.countries()
        return caught.value, time.monotonic() - started


async def test_a_trickling_answer_times_out_within_the_timeout(serve: object) -> None:
    async def trickle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
        writer.write(b"Content-Length: 100000\r\n\r\n")
        for _ in range(1000):  # a byte a second: every single read is quick
            writer.write(b" ")
            await writer.drain()
            await asyncio.sleep(0.2)

    url = await serve(trickle)  # type: ignore[operator]
    error, took = await timed_call(url, timeout=1.5)
    assert isinstance(error, APITimeoutError) and error.code == "CLIENT.TIMEOUT"
    assert took < 1.5 + 1


async def test_a_silent_server_times_out_within_the_timeout_retries_included(
    serve: object,
) -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        await asyncio.sleep(60)

    url = await serve(silent)  # type: ignore[operator]
    error, took = await timed_call(url, timeout=1.0)
    assert isinstance(error, APITimeoutError)
    assert took < 1.0 + 1


async def test_an_endless_chunked_answer_times_out_or_is_too_large(serve: object) -> None:
    async def endless(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        while True:
            writer.write(b"400\r\n" + b" " * 0x400 + b"\r\n")
            await writer.drain()
            await asyncio.sleep(0.001)

    url = await serve(endless)  # type: ignore[operator]
    error, took = await timed_call(url, timeout=1.0)
    assert isinstance(error, APITimeoutError) and took < 2.0
    error, took = await timed_call(url, timeout=10.0, max_response_bytes=64 * 1024)
    assert isinstance(error, MalformedResponseError)
    assert error.code == "CLIENT.RESPONSE_TOO_LARGE" and took < 5


async def test_a_declared_huge_body_is_refused_before_it_is_read(serve: object) -> None:
    async def huge(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\n{")
        await writer.drain()
        await asyncio.sleep(30)

    url = await serve(huge)  # type: ignore[operator]
    error, took = await timed_call(url, timeout=10.0)
    assert isinstance(error, MalformedResponseError) and took < 2
    assert error.code == "CLIENT.RESPONSE_TOO_LARGE"


async def test_a_gzip_bomb_counts_in_full(serve: object) -> None:
    bomb = gzip.compress(b"[" + b"0," * 2_000_000 + b"0]")

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        head = f"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {len(bomb)}\r\n\r\n"
        writer.write(head.encode() + bomb)
        await writer.drain()

    url = await serve(answer)  # type: ignore[operator]
    assert len(bomb) < 64 * 1024
    error, _ = await timed_call(url, max_response_bytes=1024 * 1024)
    assert isinstance(error, MalformedResponseError)
    assert error.code == "CLIENT.RESPONSE_TOO_LARGE"


@pytest.mark.parametrize("depth", [100_000, 1_000_000])
async def test_deeply_nested_json_is_malformed_not_a_crash(serve: object, depth: int) -> None:
    body = b'{"code":"2000","data":' + b"[" * depth + b"]" * depth + b"}"

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}"
        writer.write(head.encode() + b"\r\n\r\n" + body)
        await writer.drain()

    url = await serve(answer)  # type: ignore[operator]
    error, _ = await timed_call(url)
    assert isinstance(error, MalformedResponseError)
