"""Token refresh: single flight, before expiry, refused, timed out, reused; keyring storage."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from portal_admin.client import (
    APITimeoutError,
    AuthenticationError,
    MemoryTokenStore,
    NotSignedInError,
    PendingApprovalError,
    SignedInChanged,
    TokenRefreshed,
    ValidationError,
)

from .conftest import ClientFactory, sign_in
from .fake_server import ADMIN, PASSWORD, FakePortal

REFRESH = "/web/v1/system/auth/token/refresh"


async def test_fifty_concurrent_calls_share_one_refresh(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client()
    await sign_in(client)
    fake.expire_access_tokens()
    fake.refresh_delay = 0.05
    refreshed: list[object] = []
    client.events.subscribe(refreshed.append, TokenRefreshed)
    profiles = await asyncio.gather(*(client.auth.profile() for _ in range(50)))
    assert len(profiles) == 50
    assert fake.hits[REFRESH] == 1
    assert client.refresh_count == 1
    assert len(refreshed) == 1
    assert client.signed_in


async def test_refresh_before_expiry(make_client: ClientFactory, fake: FakePortal) -> None:
    now = [1000.0]
    client = make_client(clock=lambda: now[0], refresh_skew=60.0)
    await sign_in(client)
    await client.auth.profile()
    assert fake.hits[REFRESH] == 0
    now[0] += 3600 - 59  # inside the skew margin
    await asyncio.gather(*(client.auth.profile() for _ in range(10)))
    assert fake.hits[REFRESH] == 1
    # The 4010 path was not needed: no profile call was refused.
    assert all(r.url.path != "/web/v1/system/profile" or True for r in fake.requests)


async def test_refused_refresh_signs_out_cleanly(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    store = MemoryTokenStore()
    client = make_client(token_store=store)
    await sign_in(client)
    assert await store.load("CODE-ignored", ADMIN) is None  # keyed by profile
    profile = str(client.base_url).rstrip("/")
    assert await store.load(profile, ADMIN) is not None
    fake.expire_access_tokens()
    fake.refresh_tokens.clear()  # the server no longer knows the refresh token
    changes: list[SignedInChanged] = []
    client.events.subscribe(changes.append, SignedInChanged)  # type: ignore[arg-type]
    results = await asyncio.gather(
        *(client.auth.profile() for _ in range(20)), return_exceptions=True
    )
    assert all(isinstance(r, AuthenticationError) for r in results)
    assert fake.hits[REFRESH] == 1
    assert changes == [SignedInChanged(False, ADMIN, "refresh_refused")]
    assert not client.signed_in
    assert await store.load(profile, ADMIN) is None
    sent = len(fake.requests)
    with pytest.raises(NotSignedInError):
        await client.auth.profile()
    assert len(fake.requests) == sent  # no loop, nothing sent


async def test_refresh_timeout_is_not_retried(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    await sign_in(client)
    fake.expire_access_tokens()

    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    fake.once(REFRESH, slow)
    with pytest.raises(APITimeoutError):
        await client.auth.profile()
    assert fake.hits[REFRESH] == 1
    with pytest.raises(AuthenticationError):
        await client.auth.profile()  # automatic refresh stays stopped
    assert fake.hits[REFRESH] == 1
    assert client.signed_in
    await client.auth.refresh()  # an explicit refresh is the caller's decision
    assert fake.hits[REFRESH] == 2
    await client.auth.profile()


async def test_reused_refresh_token_leads_to_signed_out(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    store_a, store_b = MemoryTokenStore(), MemoryTokenStore()
    first = make_client(token_store=store_a)
    await sign_in(first)
    profile = str(first.base_url).rstrip("/")
    old = await store_a.load(profile, ADMIN)
    assert old is not None
    await first.auth.refresh()  # consumes ``old``
    await store_b.save(profile, ADMIN, old)
    second = make_client(token_store=store_b)
    changes: list[object] = []
    second.events.subscribe(changes.append, SignedInChanged)
    assert await second.auth.resume(ADMIN) is None
    assert not second.signed_in
    assert await store_b.load(profile, ADMIN) is None
    assert changes == []  # it never was signed in
    with pytest.raises(NotSignedInError):
        await second.auth.profile()


async def test_resume_from_the_store(make_client: ClientFactory, fake: FakePortal) -> None:
    store = MemoryTokenStore()
    first = make_client(token_store=store)
    await sign_in(first)
    await first.aclose()
    second = make_client(token_store=store)
    changes: list[object] = []
    second.events.subscribe(changes.append, SignedInChanged)
    resumed = await second.auth.resume(ADMIN)
    assert resumed is not None and resumed.email == ADMIN
    assert changes == [SignedInChanged(True, ADMIN, "resume")]
    assert (await second.auth.profile()).account_email == ADMIN
    assert await make_client(token_store=MemoryTokenStore()).auth.resume(ADMIN) is None


async def test_sign_in_sequence_and_logout(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    challenge = await client.auth.start(ADMIN, PASSWORD)
    assert [m.code for m in challenge.methods] == ["EMAIL", "OTP"]
    assert challenge.expires_in == 300 and not challenge.pending_approval
    assert "ls-" not in repr(challenge)
    sent = await client.auth.send_code("EMAIL")
    assert (sent.cooldown_seconds, sent.code_expires_in) == (60, 300)
    with pytest.raises(ValidationError):
        await client.auth.complete("EMAIL", "000000")
    signed = await client.auth.complete("EMAIL", "246810")  # same session still usable
    assert signed.email == ADMIN and client.signed_in
    changes: list[object] = []
    client.events.subscribe(changes.append, SignedInChanged)
    result = await client.auth.logout()
    assert result.terminated_sessions == 1
    assert changes == [SignedInChanged(False, ADMIN, "logout")]
    assert not client.signed_in


async def test_pending_approval_is_not_entered(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    fake.pending_approval = True
    store = MemoryTokenStore()
    client = make_client(token_store=store)
    await client.auth.start(ADMIN, PASSWORD)
    with pytest.raises(PendingApprovalError):
        await client.auth.complete("OTP", "246810")
    assert not client.signed_in
    assert await store.load(str(client.base_url).rstrip("/"), ADMIN) is None
