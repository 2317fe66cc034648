"""Hostile text for the plain-text tests: the marker, and a stranger's failed sign-in."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient

#: Markup that shows if interpreted (an image, bold) and reads no file when it is.
MARKER = "<img src=x>PWN<b>"


async def stranger_fails_to_sign_in(
    sandbox: Any, email: str, agent: str = f"Mozilla/5.0 {MARKER}", address: str = MARKER
) -> None:
    """No account: one wrong password for ``email``, markup in the headers the server keeps
    (User-Agent, CF-Connecting-IP)."""
    client = PortalClient(
        "http://sandbox.local",
        ClientOptions(
            access_code="SANDBOX",
            client_hash="stranger",
            extra_headers={"User-Agent": agent, "CF-Connecting-IP": address},
        ),
        transport=httpx.ASGITransport(app=sandbox),
        token_store=MemoryTokenStore(),
    )
    try:
        with pytest.raises(Exception):  # noqa: B017 - any refusal: the row is what counts
            await client.auth.start(email, "not-the-password")
    finally:
        await client.aclose()
