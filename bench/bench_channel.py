"""Secure Channel overhead per call: a token refresh sealed against the same refresh plain.

"The same call in plain" is the same operation handler on the same sandbox with the channel
taken out at both ends (``bench.plain_refresh``): the same JSON body, sent through the same
client ``Transport`` (headers, events, envelope parsing) to a twin route that runs the very
same server handler. What the ratio measures is exactly the channel: sealing the body
(AES-256-GCM, frame, base64), the server's session lookup, decryption, replay check and binding,
sealing the answer, and the client opening it and checking its IV. The session is open before
timing (its RSA key exchange happens once per session, not per call). Both sides share one
refresh-token chain and alternate, in-process and over loopback HTTP.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx

from portal_admin.client import PortalClient

from .common import IN_PROCESS_URL, alternate, in_process_app, portal_client, served_sandbox
from .common import sign_in as sign_in_admin
from .harness import Result, at_most, pick
from .plain_refresh import PLAIN_REFRESH, REFRESH, add_plain_refresh

GOAL = 1.25


async def _measure(
    where: str, base_url: str, transport: Callable[[], Any], rounds: int, number: int
) -> Result:
    async with portal_client(base_url, transport()) as client:
        await sign_in_admin(client)
        chain = {"token": _refresh_token(client)}
        channel = client._channel
        plain = client._transport

        async def sealed() -> None:
            data = await channel.call(REFRESH, {"refreshToken": chain["token"]})
            chain["token"] = data["refreshToken"]

        async def unsealed() -> None:
            data = await plain.call(PLAIN_REFRESH, json={"refreshToken": chain["token"]})
            chain["token"] = data["refreshToken"]

        await sealed()  # opens the session (key fetch and exchange)
        await unsealed()
        t_sealed, t_plain = await alternate(sealed, unsealed, rounds, number)
    return at_most(
        f"Secure Channel per call, token refresh, {where} (ms)",
        t_sealed * 1000,
        t_plain * 1000,
        "ms",
        GOAL,
        "sealed vs the same handler on a plain twin route; median per call",
    )


def _refresh_token(client: PortalClient) -> str:
    token = client._tokens._refresh
    assert isinstance(token, str) and token, "not signed in"
    return token


async def _run(quick: bool) -> list[Result]:
    rounds = pick(quick, 9, 31, 1)
    number = pick(quick, 10, 30, 2)
    app = add_plain_refresh(in_process_app(accounts=200))
    results = [
        await _measure(
            "in-process", IN_PROCESS_URL, lambda: httpx.ASGITransport(app=app), rounds, number
        )
    ]
    with served_sandbox(module="bench.drivers.serve_plain") as url:
        results.append(await _measure("loopback", url, lambda: None, rounds, number))
    return results


def run(quick: bool) -> list[Result]:
    return asyncio.run(_run(quick))
