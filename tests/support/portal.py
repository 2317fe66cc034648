"""A ``PortalClient`` and the sandbox-only endpoints: mailbox, authenticator code, sign-in."""

from __future__ import annotations

from typing import Any

from portal_admin.client import PortalClient, RetryPolicy

from .accounts import ADMIN_EMAIL, ADMIN_PASSWORD

#: Three attempts, no waiting between them.
FAST_RETRY = RetryPolicy(attempts=3, wait_initial=0.0, wait_max=0.0, wait_jitter=0.0)


async def sandbox_data(client: PortalClient, path: str, **params: str) -> Any:
    """``data`` of a sandbox-only endpoint."""
    response = await client.http.get(path, params=params)
    response.raise_for_status()
    return response.json()["data"]


async def latest_mail(client: PortalClient, to: str) -> dict[str, Any]:
    mails = await sandbox_data(client, "/sandbox/mailbox", to=to)
    assert mails, f"no mail for {to}"
    return dict(mails[0])


async def sign_in(
    client: PortalClient,
    email: str = ADMIN_EMAIL,
    password: str = ADMIN_PASSWORD,
    method: str = "EMAIL",
) -> None:
    """The whole sign-in sequence, the code read from the mailbox or the TOTP endpoint."""
    await client.auth.start(email, password)
    if method == "EMAIL":
        await client.auth.send_code("EMAIL")
        code = (await latest_mail(client, email))["code"]
    else:
        code = (await sandbox_data(client, "/sandbox/totp", email=email))["code"]
    await client.auth.complete(method, code)
