"""Login history through the client: result and date filters, and sorting (sandbox in-process)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient, sandbox_transport
from portal_admin.sandbox import SandboxConfig, create_app


async def test_filters_and_sort() -> None:
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=5, test_clock=True))
    async with PortalClient(
        "http://sandbox.local",
        ClientOptions(access_code="SANDBOX"),
        transport=sandbox_transport(app),
        token_store=MemoryTokenStore(),
    ) as client:
        await client.auth.start("admin@sandbox.test", "Sandbox-Admin-2026!")
        totp = await client.http.get("/sandbox/totp", params={"email": "admin@sandbox.test"})
        await client.auth.complete("OTP", totp.json()["data"]["code"])
        everything = await client.security.login_history(size=100)
        failed = await client.security.login_history(size=100, result=2)
        assert failed.items
        assert all(i.login_result and i.login_result.value == 2 for i in failed.items)
        assert 0 < failed.total_items < everything.total_items
        oldest_first = await client.security.login_history(size=100, sort=[("loginTime", "asc")])
        times = [i.login_time for i in oldest_first.items]
        assert times == sorted(times)
        future = datetime.now(UTC) + timedelta(days=365)
        later = await client.security.login_history(date_from=future)
        assert later.total_items == 0 and later.items == ()
        counted = [i async for i in client.security.iterate_login_history(size=7, result=2)]
        assert len(counted) == failed.total_items
