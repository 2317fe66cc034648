"""The in-process transport takes turns with the event loop, as a network exchange does."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from portal_admin.client import sandbox_transport

ORDER: list[str] = []


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A minimal ASGI app recording when it runs."""
    ORDER.append("server")
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


@pytest.mark.parametrize(
    ("transport", "expected"),
    [
        (httpx.ASGITransport(app=app), ["server", "answer", "other"]),  # what it fixes
        (sandbox_transport(app), ["other", "server", "answer"]),
    ],
)
async def test_other_work_runs_between_the_request_and_its_answer(
    transport: httpx.AsyncBaseTransport, expected: list[str]
) -> None:
    ORDER.clear()
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as http:
        asyncio.get_running_loop().call_soon(ORDER.append, "other")
        response = await http.get("/")
        ORDER.append("answer")
    assert response.status_code == 200
    await asyncio.sleep(0)
    assert list(ORDER) == expected
