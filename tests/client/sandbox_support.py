"""Helpers for testing the client against the real sandbox, in process or over HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from support import accounts
from support.portal import FAST_RETRY
from support.served import ServedSandbox  # noqa: F401  (the suites import it from here)

#: This suite names each demo account by its address.
ADMIN, ADMIN_PASSWORD = accounts.ADMIN
AUDITOR, AUDITOR_PASSWORD = accounts.AUDITOR
APPROVAL, APPROVAL_PASSWORD = accounts.APPROVAL
NEWUSER = accounts.NEWUSER


def sandbox_available() -> bool:
    """True once the sandbox package can build an app."""
    try:
        from portal_admin.sandbox import SandboxConfig, create_app  # noqa: F401
    except Exception:
        return False
    return True


requires_sandbox = pytest.mark.skipif(not sandbox_available(), reason="sandbox not built yet")


def options(**overrides: Any) -> ClientOptions:
    base: dict[str, Any] = {
        "access_code": "SANDBOX",
        "client_hash": "client-tests",
        "retry": FAST_RETRY,
    }
    base.update(overrides)
    return ClientOptions(**base)


def in_process_client(app: Any, **overrides: Any) -> PortalClient:
    store = overrides.pop("token_store", None) or MemoryTokenStore()
    return PortalClient(
        "http://sandbox.local",
        options(**overrides),
        transport=httpx.ASGITransport(app=app),
        token_store=store,
    )


async def advance_clock(client: PortalClient, seconds: float) -> None:
    response = await client.http.post("/sandbox/clock/advance", json={"seconds": seconds})
    response.raise_for_status()
