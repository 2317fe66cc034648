"""A DEBUG log of a whole session holds no password, code, token or key (fake portal)."""

from __future__ import annotations

import logging

import pytest

from portal_admin.client import PortalClient

from .conftest import ClientFactory
from .fake_server import ADMIN, CODE, PASSWORD, FakePortal

NEW_PASSWORD = "Brand-New-Secret-77!"


def secrets_of(client: PortalClient, fake: FakePortal) -> set[str]:
    found = {PASSWORD, NEW_PASSWORD, CODE}
    found |= fake.access_tokens | fake.refresh_tokens | fake.used_refresh_tokens
    found |= fake.login_sessions
    for session in fake.sessions.values():
        found |= {session.keys.request_key.hex(), session.keys.response_key.hex()}
    return found


def assert_clean(caplog: pytest.LogCaptureFixture, secrets: set[str]) -> None:
    text = "\n".join(
        f"{r.name} {r.getMessage()} {r.args!r} {r.exc_text or ''}" for r in caplog.records
    )
    assert caplog.records, "nothing was logged"
    for secret in secrets:
        assert secret not in text, f"a secret leaked into the log: {secret[:6]}..."


async def test_debug_log_of_a_session(
    make_client: ClientFactory, fake: FakePortal, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    for name in ("httpx", "httpcore", "portal_admin", "stamina"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    client = make_client()
    await client.auth.start(ADMIN, PASSWORD)
    await client.auth.send_code("EMAIL")
    await client.auth.complete("EMAIL", CODE)
    await client.auth.refresh()
    await client.auth.change_password(PASSWORD, NEW_PASSWORD)
    fake.expire_access_tokens()
    await client.accounts.query()
    secrets = secrets_of(client, fake)  # before logout closes the channel session
    await client.auth.logout()
    await client.aclose()
    assert any(r.name.startswith("portal_admin.client") for r in caplog.records)
    assert_clean(caplog, secrets)
