"""A representative set of client calls against ``portal-sandbox serve`` over loopback HTTP."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator

import pytest

from portal_admin.client import (
    MemoryTokenStore,
    NotSignedInError,
    PortalClient,
    ReadOnlyError,
    RequestStarted,
)
from support.portal import latest_mail, sign_in

from .sandbox_support import (
    ADMIN,
    ADMIN_PASSWORD,
    ServedSandbox,
    advance_clock,
    options,
    requires_sandbox,
)

pytestmark = [requires_sandbox, pytest.mark.http]


@pytest.fixture(scope="module")
def served() -> Iterator[ServedSandbox]:
    server = ServedSandbox("--seed-accounts", "40")
    try:
        yield server
    finally:
        assert server.stop() == 0


@pytest.fixture
async def http_client(served: ServedSandbox) -> AsyncIterator[PortalClient]:
    async with PortalClient(served.base_url, options(), token_store=MemoryTokenStore()) as client:
        yield client


async def test_sign_in_and_list_accounts(http_client: PortalClient) -> None:
    await sign_in(http_client)
    page = await http_client.accounts.query(size=10)
    assert len(page.items) == 10 and page.total_items >= 40
    assert (await http_client.auth.profile()).account_email == ADMIN
    assert await http_client.constants.user_account_statuses()
    assert await http_client.roles.list()
    assert await http_client.security.sessions()
    await http_client.auth.logout()
    with pytest.raises(NotSignedInError):
        await http_client.auth.profile()


async def test_concurrent_refresh_over_http(http_client: PortalClient) -> None:
    await sign_in(http_client)
    await advance_clock(http_client, 3700)
    refreshes: list[RequestStarted] = []
    http_client.events.subscribe(
        lambda e: (
            refreshes.append(e)  # type: ignore[arg-type]
            if getattr(e, "operation_id", "") == "auth.token_refresh"
            else None
        ),
        RequestStarted,
    )
    results = await asyncio.gather(*(http_client.auth.profile() for _ in range(50)))
    assert len(results) == 50
    assert len(refreshes) == 1


async def test_read_only_over_http(served: ServedSandbox) -> None:
    async with PortalClient(
        served.base_url, options(read_only=True), token_store=MemoryTokenStore()
    ) as client:
        await sign_in(client)
        sent: list[object] = []
        client.events.subscribe(sent.append, RequestStarted)
        with pytest.raises(ReadOnlyError):
            await client.accounts.change_status("x", "SUSPEND")
        assert sent == []


async def test_debug_log_over_http_holds_no_secret(
    served: ServedSandbox, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    for name in ("httpx", "httpcore", "portal_admin", "stamina"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    secrets: set[str] = {ADMIN_PASSWORD, "Http-Changed-Pass-1!"}
    async with PortalClient(served.base_url, options(), token_store=MemoryTokenStore()) as client:
        await client.auth.start(ADMIN, ADMIN_PASSWORD)
        await client.auth.send_code("EMAIL")
        mail = await latest_mail(client, ADMIN)
        secrets.add(mail["code"])
        caplog.clear()  # the test's own mailbox read is not the client's log
        await client.auth.complete("EMAIL", mail["code"])
        secrets |= {client._tokens._access or "", client._tokens._refresh or ""}
        await client.auth.refresh()
        secrets |= {client._tokens._access or "", client._tokens._refresh or ""}
        session = client._channel._session
        assert session is not None
        secrets |= {session.keys.request_key.hex(), session.keys.response_key.hex()}
        await client.auth.change_password(ADMIN_PASSWORD, "Http-Changed-Pass-1!")
        await client.accounts.query(size=5)
        await client.auth.change_password("Http-Changed-Pass-1!", ADMIN_PASSWORD)
        await client.auth.logout()
    secrets.discard("")
    text = "\n".join(f"{r.name} {r.getMessage()} {r.args!r}" for r in caplog.records)
    assert any(r.name.startswith("httpcore") for r in caplog.records)
    assert any(r.name.startswith("portal_admin.client") for r in caplog.records)
    for secret in secrets:
        assert secret not in text
