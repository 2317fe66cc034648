"""Fixtures for the bulk engine: an in-process sandbox, a signed-in client, a job folder."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from portal_admin import jobs
from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.client.events import RequestFinished
from portal_admin.sandbox import SandboxConfig, create_app
from support.portal import FAST_RETRY, sign_in

Factory = Callable[..., "Portal"]


class Portal:
    """A signed-in client on an in-process sandbox, and the requests it finished."""

    def __init__(self, client: PortalClient, app: Any) -> None:
        self.client = client
        self.app = app
        self.finished: list[RequestFinished] = []
        client.events.subscribe(self._on_event)

    def _on_event(self, event: object) -> None:
        if isinstance(event, RequestFinished):
            self.finished.append(event)

    def sent(self, operation_id: str, code: str | None = "2000") -> int:
        """How many requests of ``operation_id`` finished with ``code`` (None: any)."""
        return sum(
            1
            for e in self.finished
            if e.operation_id == operation_id and (code is None or e.code == code)
        )

    async def context(self) -> jobs.JobContext:
        me = await self.client.auth.profile()
        return jobs.JobContext(
            "Sandbox", "sandbox://built-in", me.account_email or "", me.biz_id, "sandbox"
        )


class FastTime:
    """A wall clock whose sleeps pass at once: the runner's waits for unanswered requests
    (``jobs.Settling``) cost no real time, and are recorded."""

    def __init__(self) -> None:
        self.offset = 0.0
        self.slept: list[float] = []
        self._hooks: list[tuple[float, Callable[[], object]]] = []

    def wall(self) -> float:
        return time.time() + self.offset

    def at(self, moment: float, action: Callable[[], object]) -> None:
        """Call ``action`` once the clock passes ``moment`` (a server finishing late)."""
        self._hooks.append((moment, action))

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.offset += seconds
        due = [h for h in self._hooks if h[0] <= self.wall()]
        self._hooks = [h for h in self._hooks if h[0] > self.wall()]
        for _, action in due:
            action()
        await asyncio.sleep(0)

    def settling(self, **kwargs: float) -> jobs.Settling:
        return jobs.Settling(wall=self.wall, sleep=self.sleep, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def fast() -> FastTime:
    return FastTime()


@pytest.fixture
async def make_portal() -> AsyncIterator[Callable[..., Any]]:
    made: list[PortalClient] = []

    async def factory(
        *,
        seed_accounts: int = 120,
        email: str = "admin@sandbox.test",
        password: str = "Sandbox-Admin-2026!",
        read_only: bool = False,
        transport: Callable[[Any], httpx.ASGITransport] = lambda app: httpx.ASGITransport(app=app),
        **config: Any,
    ) -> Portal:
        app = create_app(
            SandboxConfig(db=":memory:", seed_accounts=seed_accounts, test_clock=True, **config)
        )
        client = PortalClient(
            "http://sandbox.local",
            ClientOptions(
                access_code="SANDBOX",
                client_hash="jobs-tests",
                retry=FAST_RETRY,
                read_only=read_only,
            ),
            transport=transport(app),
            token_store=MemoryTokenStore(),
        )
        made.append(client)
        await sign_in(client, email, password)
        return Portal(client, app)

    yield factory
    for client in made:
        await client.aclose()


@pytest.fixture
async def portal(make_portal: Callable[..., Any]) -> Portal:
    return await make_portal()  # type: ignore[no-any-return]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "jobs"
