"""Fixtures for panel tests: the in-process sandbox and signed-in clients on the qasync loop.

def test_something(loop, admin, panel_context):
    panel = build_panel(panel_context(admin))
    loop.run_until_complete(panel.reload())
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import qasync

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels import PanelContext
from portal_admin.ui.profiles import sandbox_profile

ADMIN = ("admin@sandbox.test", "Sandbox-Admin-2026!")
AUDITOR = ("auditor@sandbox.test", "Sandbox-Audit-2026!")
BASE_URL = "http://sandbox.local"


@pytest.fixture
def sandbox_app() -> Any:
    """A fresh in-memory sandbox with 120 generated accounts and a test clock."""
    return create_app(SandboxConfig(db=":memory:", seed_accounts=120, test_clock=True))


async def sign_in(
    app: Any, email: str, password: str, *, language: str = "en", read_only: bool = False
) -> PortalClient:
    """A client signed in with the authenticator code the sandbox shows."""
    options = ClientOptions(
        access_code="SANDBOX",
        language=language,
        read_only=read_only,  # type: ignore[arg-type]
    )
    client = PortalClient(
        BASE_URL,
        options,
        transport=httpx.ASGITransport(app=app),
        token_store=MemoryTokenStore(),
    )
    await client.__aenter__()
    await client.auth.start(email, password)
    totp = await client.http.get("/sandbox/totp", params={"email": email})
    await client.auth.complete("OTP", totp.json()["data"]["code"])
    return client


def _signed_in(
    loop: qasync.QEventLoop, app: Any, who: tuple[str, str], **kwargs: Any
) -> Iterator[PortalClient]:
    client = loop.run_until_complete(sign_in(app, *who, **kwargs))
    try:
        yield client
    finally:
        loop.run_until_complete(client.aclose())


@pytest.fixture
def admin(loop: qasync.QEventLoop, sandbox_app: Any) -> Iterator[PortalClient]:
    """The demo administrator (OWNER of the primary workspace), signed in."""
    yield from _signed_in(loop, sandbox_app, ADMIN)


@pytest.fixture
def auditor(loop: qasync.QEventLoop, sandbox_app: Any) -> Iterator[PortalClient]:
    """The demo auditor (read permissions only), signed in."""
    yield from _signed_in(loop, sandbox_app, AUDITOR)


@pytest.fixture
def runner() -> OperationRunner:
    """An operation runner whose failures are recorded instead of shown in a window."""
    shown: list[Any] = []
    r = OperationRunner(presenter=lambda info, title, parent: shown.append(info))
    r.shown = shown  # type: ignore[attr-defined]
    return r


@pytest.fixture
def panel_context(runner: OperationRunner) -> Callable[..., PanelContext]:
    """Build a PanelContext around a signed-in client."""

    def make(client: PortalClient, **extras: Any) -> PanelContext:
        return PanelContext(runner=runner, profile=sandbox_profile(), client=client, extras=extras)

    return make
