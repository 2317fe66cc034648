"""Fixtures for sandbox tests: an in-process app and client, tokens, and a served CLI.

- ``app`` / ``state`` / ``client``: a fresh in-memory sandbox with a test clock and a few
  generated accounts, reached through ``httpx.ASGITransport``; ``client`` sends the portal
  access code and a client hash by default.
- ``admin_token`` / ``auditor_token`` (and ``admin_headers`` / ``auditor_headers``): access
  tokens minted directly (no MFA round trip).
- ``served`` (marked tests only: ``@pytest.mark.http``): ``portal-sandbox serve --port 0
  --db :memory: --test-clock`` started as a subprocess once per session; ``http_client``
  talks to it over loopback.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from fastapi import FastAPI
from sandbox_flows import BASE_HEADERS, Served, bearer, start_cli, stop_cli

from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.state import SandboxState
from portal_admin.sandbox.tokens import sign_in
from support.accounts import ADMIN_EMAIL, AUDITOR_EMAIL
from support.processes import was_terminated

CLIENT_HASH = BASE_HEADERS["X-Client-Hash"]


@pytest.fixture
def sandbox_config() -> SandboxConfig:
    """The configuration of ``app``; override this fixture to change it."""
    return SandboxConfig(seed_accounts=40, test_clock=True)


@pytest.fixture
def app(sandbox_config: SandboxConfig) -> Iterator[FastAPI]:
    """A fresh in-process sandbox."""
    application = create_app(sandbox_config)
    yield application
    application.state.sandbox.db.close()


@pytest.fixture
def state(app: FastAPI) -> SandboxState:
    """The sandbox state behind ``app``."""
    result: SandboxState = app.state.sandbox
    return result


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client bound to ``app`` in-process, with the default portal headers."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://sandbox.test", headers=BASE_HEADERS
    ) as c:
        yield c


def account_biz_id(state: SandboxState, email: str) -> str:
    """The biz id of an account."""
    return str(state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = ?", (email,)))


@pytest.fixture
def admin_token(state: SandboxState) -> str:
    """An access token of admin@sandbox.test (OWNER of the primary workspace)."""
    return sign_in(state, account_biz_id(state, ADMIN_EMAIL), client_hash=CLIENT_HASH).access_token


@pytest.fixture
def auditor_token(state: SandboxState) -> str:
    """An access token of auditor@sandbox.test (read permissions only)."""
    return sign_in(
        state, account_biz_id(state, AUDITOR_EMAIL), client_hash=CLIENT_HASH
    ).access_token


@pytest.fixture
def admin_headers(admin_token: str) -> dict[str, str]:
    """Authorization header of the admin."""
    return bearer(admin_token)


@pytest.fixture
def auditor_headers(auditor_token: str) -> dict[str, str]:
    """Authorization header of the auditor."""
    return bearer(auditor_token)


@pytest.fixture(scope="session")
def served() -> Iterator[Served]:
    """``portal-sandbox serve --port 0 --db :memory: --test-clock`` for the whole session."""
    server = start_cli("--port", "0", "--db", ":memory:", "--test-clock", "--seed-accounts", "200")
    yield server
    rc, stderr = stop_cli(server)
    assert was_terminated(rc) and "Traceback" not in stderr, stderr[-2000:]


@pytest.fixture
async def http_client(served: Served) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client talking to the served sandbox over loopback."""
    async with httpx.AsyncClient(base_url=served.base_url, headers=BASE_HEADERS) as c:
        yield c
