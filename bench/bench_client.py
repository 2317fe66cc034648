"""Client overhead: the same plain read through ``PortalClient`` and through a bare
``httpx.AsyncClient`` sending the very same request (method, URL, headers, body, recorded from
the client's own request), in-process (``ASGITransport``) and over loopback HTTP.

Two reads: ``constants.user_account_statuses`` (public, small) and ``accounts.query`` of one
page of 100 (signed in; the client validates 100 records). The bare side parses the JSON
(``response.json()``), which any caller must do; the client adds the envelope check, typed
records, events, logging and the retry wrapper.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from portal_admin.client import PortalClient

from .common import (
    IN_PROCESS_URL,
    RequestRecorder,
    alternate,
    in_process_app,
    portal_client,
    served_sandbox,
    sign_in,
)
from .harness import Result, at_most, pick

GOAL = 1.10


def _reads(client: PortalClient) -> dict[str, Callable[[], Awaitable[Any]]]:
    return {
        "constants": client.constants.user_account_statuses,
        "accounts page": lambda: client.accounts.query(page=0, size=100),
    }


async def _measure(
    where: str, base_url: str, transport_factory: Callable[[], Any], rounds: int, number: int
) -> list[Result]:
    results = []
    async with portal_client(base_url, transport_factory()) as client:
        await sign_in(client)
        recorder = RequestRecorder()
        client.http.event_hooks["request"].append(recorder)
        async with httpx.AsyncClient(base_url=base_url, transport=transport_factory()) as bare:
            for label, read in _reads(client).items():
                await read()  # warm up, and record the request
                sent = recorder.replay_args()

                async def bare_read(sent: dict[str, Any] = sent) -> Any:
                    response = await bare.request(**sent)
                    response.raise_for_status()
                    return response.json()

                await bare_read()
                t_client, t_bare = await alternate(read, bare_read, rounds, number)
                results.append(
                    at_most(
                        f"client overhead, {label}, {where} (ms)",
                        t_client * 1000,
                        t_bare * 1000,
                        "ms",
                        GOAL,
                        f"median per call, {rounds} alternating blocks of {number}",
                    )
                )
    return results


async def _run(quick: bool) -> list[Result]:
    rounds = pick(quick, 9, 31, 1)
    number = pick(quick, 20, 50, 2)
    app = in_process_app(accounts=200)
    results = await _measure(
        "in-process", IN_PROCESS_URL, lambda: httpx.ASGITransport(app=app), rounds, number
    )
    with served_sandbox("--db", ":memory:", "--seed-accounts", "200", "--test-clock") as url:
        results += await _measure("loopback", url, lambda: None, rounds, number)
    return results


def run(quick: bool) -> list[Result]:
    return asyncio.run(_run(quick))
