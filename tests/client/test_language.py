"""Changing the language of a signed-in client: the next answers come in that language."""

from __future__ import annotations

import httpx
import pytest

from portal_admin.client import (
    ClientOptions,
    ConfigurationError,
    MemoryTokenStore,
    PortalClient,
    sandbox_transport,
)
from portal_admin.sandbox import SandboxConfig, create_app


async def test_set_language_changes_server_labels_and_keeps_the_session() -> None:
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=5, test_clock=True))
    transport = sandbox_transport(app)
    assert isinstance(transport, httpx.ASGITransport)
    options = ClientOptions(access_code="SANDBOX", language="en")
    async with PortalClient(
        "http://sandbox.local", options, transport=transport, token_store=MemoryTokenStore()
    ) as client:
        await client.auth.start("admin@sandbox.test", "Sandbox-Admin-2026!")
        totp = await client.http.get("/sandbox/totp", params={"email": "admin@sandbox.test"})
        await client.auth.complete("OTP", totp.json()["data"]["code"])
        english = {i.code: i.label for i in await client.constants.user_account_statuses()}
        client.set_language("ja")
        assert client.language == "ja"
        japanese = {i.code: i.label for i in await client.constants.user_account_statuses()}
        assert japanese["ACTIVE"] != english["ACTIVE"]
        assert client.signed_in
        profile = await client.auth.profile()  # still signed in: no new sign-in needed
        assert profile.account_email == "admin@sandbox.test"
        with pytest.raises(ConfigurationError):
            client.set_language("de")  # type: ignore[arg-type]
        assert client.language == "ja"
