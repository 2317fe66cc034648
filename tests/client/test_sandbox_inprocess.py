"""Every client method against the sandbox, in process (httpx.ASGITransport)."""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from portal_admin.client import (
    METHOD_OPERATIONS,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    NotSignedInError,
    PendingApprovalError,
    PortalClient,
    ReadOnlyError,
    RequestFinished,
    RequestStarted,
    SignedInChanged,
    ValidationError,
)
from portal_admin.client.records import EnumItem
from portal_admin.evidence import journal as jr
from portal_admin.evidence.recorder import attach
from portal_admin.protocol import secure_channel as sc
from support.portal import latest_mail, sign_in

from .sandbox_support import (
    ADMIN,
    ADMIN_PASSWORD,
    APPROVAL,
    APPROVAL_PASSWORD,
    AUDITOR,
    AUDITOR_PASSWORD,
    NEWUSER,
    advance_clock,
    in_process_client,
    requires_sandbox,
)

pytestmark = requires_sandbox

Factory = Callable[..., PortalClient]

#: Operations answered 200 by the sandbox during this module's tests.
CALLED: set[str] = set()
#: Every client of the module journals its changes here, as the desktop program's clients do.
JOURNAL = jr.Journal(Path(tempfile.mkdtemp(prefix="portal-admin-journal-")) / "journal.jsonl")


def make_app(**config: Any) -> Any:
    from portal_admin.sandbox import SandboxConfig, create_app

    return create_app(
        SandboxConfig(**{"db": ":memory:", "seed_accounts": 30, "test_clock": True, **config})
    )


@pytest.fixture
async def app() -> Any:
    return make_app()


@pytest.fixture
async def factory(app: Any) -> AsyncIterator[Factory]:
    made: list[PortalClient] = []

    def build(**overrides: Any) -> PortalClient:
        target = overrides.pop("app", app)
        client = in_process_client(target, **overrides)
        client.events.subscribe(
            lambda e: CALLED.add(e.operation_id) if e.status == 200 else None,  # type: ignore[union-attr]
            RequestFinished,
        )
        attach(client, profile="Sandbox", server="http://sandbox.local", journal=JOURNAL)
        made.append(client)
        return client

    yield build
    for client in made:
        await client.aclose()


@pytest.fixture
async def admin(factory: Factory) -> PortalClient:
    client = factory()
    await sign_in(client)
    return client


# -- auth ---------------------------------------------------------------------------------


async def test_sign_in_with_either_method(factory: Factory) -> None:
    client = factory()
    challenge = await client.auth.start(ADMIN, ADMIN_PASSWORD)
    assert {m.code for m in challenge.methods} == {"EMAIL", "OTP"}
    assert not challenge.pending_approval
    sent = await client.auth.send_code("EMAIL")
    assert sent.sent and sent.cooldown_seconds == 60 and sent.code_expires_in == 300
    with pytest.raises(ValidationError):
        await client.auth.complete("EMAIL", "000000")
    code = (await latest_mail(client, ADMIN))["code"]
    signed = await client.auth.complete("EMAIL", code)
    assert signed.email == ADMIN
    profile = await client.auth.profile()
    assert profile.account_email == ADMIN
    other = factory()
    await sign_in(other, AUDITOR, AUDITOR_PASSWORD, method="OTP")
    assert (await other.auth.profile()).account_email == AUDITOR


async def test_wrong_password_and_pending_approval(factory: Factory) -> None:
    client = factory()
    with pytest.raises(AuthenticationError) as caught:
        await client.auth.start(ADMIN, "wrong")
    assert caught.value.code == "AUTH.INVALID_CREDENTIALS"
    with pytest.raises(PendingApprovalError):
        await sign_in(client, APPROVAL, APPROVAL_PASSWORD)
    assert not client.signed_in
    with pytest.raises(NotSignedInError):
        await client.auth.profile()


async def test_logout_refresh_resume(factory: Factory, admin: PortalClient) -> None:
    changes: list[object] = []
    admin.events.subscribe(changes.append, SignedInChanged)
    expires = await admin.auth.refresh()
    assert expires == admin.auth.token_expires_at
    assert admin.secure_channel.is_open
    store = admin._tokens._store
    restarted = factory(token_store=store)
    assert await restarted.auth.resume(ADMIN) is not None
    assert (await restarted.auth.profile()).account_email == ADMIN
    result = await restarted.auth.logout()
    assert result.success
    assert not restarted.secure_channel.is_open
    assert not restarted.signed_in


async def test_password_forgot_and_reset(factory: Factory, app: Any) -> None:
    client = factory()
    answer = await client.auth.forgot_password(AUDITOR, "sandbox-challenge")
    assert answer.success
    token = (await latest_mail(client, AUDITOR))["token"]
    assert token
    await client.auth.reset_password(token, "New-Audit-Password-1!")
    with pytest.raises(ValidationError):
        await client.auth.reset_password(token, "Another-Password-2!")  # reused
    await sign_in(client, AUDITOR, "New-Audit-Password-1!")


async def test_password_init_and_change(factory: Factory) -> None:
    client = factory()
    session_id = (await latest_mail(client, NEWUSER))["sessionId"]
    result = await client.auth.init_password(session_id, "First-Password-1!")
    assert result.email == NEWUSER
    assert result.status is not None and result.status.is_("ACTIVE")
    admin = factory()
    await sign_in(admin)
    await admin.auth.change_password(ADMIN_PASSWORD, "Changed-Admin-1!")
    with pytest.raises(ValidationError):
        await admin.auth.change_password("not-it", "Changed-Admin-2!")
    await sign_in(factory(), ADMIN, "Changed-Admin-1!")


# -- security -----------------------------------------------------------------------------


async def test_security(admin: PortalClient) -> None:
    whitelist = await admin.security.ip_whitelist()
    await admin.security.set_ip_whitelist(["203.0.113.7", "198.51.100.0"])
    await admin.security.enable_ip_whitelist()
    assert (await admin.security.ip_whitelist()).enabled
    await admin.security.disable_ip_whitelist()
    assert not (await admin.security.ip_whitelist()).enabled or whitelist.enabled
    settings = await admin.security.mfa_settings()
    assert {s.mfa_method.code for s in settings} >= {"EMAIL", "OTP"}
    before = await admin.security.backup_codes()
    generated = await admin.security.generate_backup_codes()
    assert generated is not None
    after = await admin.security.backup_codes()
    assert after.total_generated >= before.total_generated
    sessions = await admin.security.sessions()
    assert any(s.is_current for s in sessions)
    config = await admin.security.sessions_config()
    assert config.max_sessions
    page = await admin.security.login_history(size=5)
    assert page.size == 5 and page.total_items >= len(page.items)
    history = [h async for h in admin.security.iterate_login_history(size=7)]
    assert len(history) == page.total_items
    await admin.security.revoke_otp()
    assert not any(
        s.mfa_method.is_("OTP") and s.is_enabled for s in await admin.security.mfa_settings()
    )


# -- accounts -----------------------------------------------------------------------------


async def test_accounts(admin: PortalClient) -> None:
    page = await admin.accounts.query(size=10, sort="accountEmail,asc")
    assert len(page.items) == 10 and page.total_items >= 30
    emails = [a.account_email or "" for a in page.items]
    assert emails == sorted(emails, key=str.lower)
    everyone = [a async for a in admin.accounts.iterate(size=25)]
    assert len(everyone) == page.total_items
    suspended = await admin.accounts.query(status="SUSPENDED", size=100)
    assert all(a.account_status and a.account_status.is_("SUSPENDED") for a in suspended.items)
    target = next(a for a in everyone if a.account_status and a.account_status.is_("ACTIVE"))
    got = await admin.accounts.get(target.biz_id)
    assert got.biz_id == target.biz_id
    change = await admin.accounts.change_status(target.biz_id, "SUSPEND", reason="test")
    assert change.user_biz_id == target.biz_id
    suspended_now = await admin.accounts.get(target.biz_id)
    assert suspended_now.account_status is not None
    assert suspended_now.account_status.is_("SUSPENDED")
    updated = await admin.accounts.update(target.biz_id, account_remark="checked by tests")
    assert updated.account_remark == "checked by tests"
    await admin.accounts.reset_password(target.biz_id)
    with pytest.raises(NotFoundError):
        await admin.accounts.get("no-such-account")


async def test_the_other_account_query_shape(factory: Factory) -> None:
    client = factory(app=make_app(account_query_shape="content"))
    await sign_in(client)
    page = await client.accounts.query(page=1, size=10)
    assert page.number == 1 and len(page.items) == 10
    assert len([a async for a in client.accounts.iterate(size=40)]) == page.total_items


# -- constants ----------------------------------------------------------------------------


async def test_every_constants_list(factory: Factory) -> None:
    client = factory(language="ja")
    names = [m.split(".", 1)[1] for m in METHOD_OPERATIONS if m.startswith("constants.")]
    assert len(names) == 16
    for name in names:
        items = await getattr(client.constants, name)()
        assert isinstance(items, list)
        assert all(isinstance(i, EnumItem) for i in items)
    countries = await client.constants.countries()
    assert countries and countries[0].alpha2_code
    statuses = await client.constants.user_account_statuses()
    assert "ACTIVE" in {s.code for s in statuses}


# -- invitations --------------------------------------------------------------------------


async def test_invitations(admin: PortalClient) -> None:
    listed = await admin.invitations.list()
    created = await admin.invitations.create("new.person@example.com", message="hi")
    after = await admin.invitations.list()
    assert len(after) == len(listed) + 1
    fresh = next(i for i in after if i.invitee_email == "new.person@example.com")
    await admin.invitations.cancel(fresh.biz_id, reason="test")
    cancelled = next(i for i in await admin.invitations.list() if i.biz_id == fresh.biz_id)
    assert cancelled.invitation_status is not None
    assert cancelled.invitation_status.is_("CANCELLED")
    with pytest.raises(ValidationError):
        await admin.invitations.create("not-an-email")
    own = await admin.invitations.own()
    pending = await admin.invitations.own(["PENDING"])
    assert all(i.invitation_status and i.invitation_status.is_("PENDING") for i in pending)
    assert len(pending) <= len(own)
    assert created is not None


# -- roles and portals --------------------------------------------------------------------


async def test_roles(admin: PortalClient) -> None:
    roles = await admin.roles.list()
    by_name = {r.role_name: r for r in roles}
    owner = next(r for r in roles if r.role_type and r.role_type.is_("OWNER"))
    assert (await admin.roles.get(owner.biz_id)).biz_id == owner.biz_id
    with pytest.raises(ConflictError) as caught:
        await admin.roles.delete(owner.biz_id)
    assert caught.value.code == "WORKSPACE.OWNER_ROLE_PROTECTED"
    in_use = [r for r in roles if r.role_type and r.role_type.is_("CUSTOM")]
    deleted = None
    for role in in_use:
        try:
            await admin.roles.delete(role.biz_id)
        except ConflictError as exc:
            assert exc.code == "WORKSPACE.ROLE_IN_USE"
        else:
            deleted = role
    assert deleted is not None, by_name
    assert deleted.biz_id not in {r.biz_id for r in await admin.roles.list()}


async def test_portals(admin: PortalClient) -> None:
    portal = await admin.portals.create("TENANT", "tenant-tests.example.com", remark="r")
    assert portal.domain == "tenant-tests.example.com"
    assert portal.portal_status is not None and portal.portal_status.is_("ACTIVE")
    assert portal.portal_type is not None and portal.portal_type.is_("TENANT")
    with pytest.raises(ValidationError):
        await admin.portals.create("TENANT", "x" * 300)


# -- notifications ------------------------------------------------------------------------


async def test_notifications(admin: PortalClient) -> None:
    notes = admin.notifications
    types = await notes.query_channel_types(size=2)
    assert types.total_items == len([t async for t in notes.iterate_channel_types(size=2)])
    created = await notes.create_channel_type("PIGEON", "Pigeon post", type_description="slow")
    assert created.type_code == "PIGEON" and created.enabled
    renamed = await notes.update_channel_type(created.biz_id, type_name="Carrier pigeon")
    assert renamed.type_name == "Carrier pigeon"
    disabled = await notes.disable_channel_type(created.biz_id)
    assert disabled.type_status is not None and disabled.type_status.is_("DISABLED")
    found = await notes.query_channel_types(biz_id=created.biz_id)
    assert found.items[0].type_status is not None
    assert found.items[0].type_status.is_("DISABLED")
    assert (await notes.enable_channel_type(created.biz_id)).enabled
    await notes.delete_channel_type(created.biz_id)
    assert (await notes.query_channel_types(biz_id=created.biz_id)).total_items == 0
    with pytest.raises(ValidationError):
        await notes.delete_channel_type("no-such-type")

    channels = await notes.query_channels(size=3)
    assert len([c async for c in notes.iterate_channels(size=3)]) == channels.total_items
    hook = await notes.create_channel(
        "Client test hook",
        "WEBHOOK",
        {"url": "https://hooks.example.com/x", "secret": "s3cret"},
        description="from the client tests",
    )
    assert hook.channel_category is not None and hook.channel_category.is_("WEBHOOK")
    assert hook.config is not None and hook.config["secret"] != "s3cret"  # masked
    assert (await notes.update_channel(hook.biz_id, channel_name="Renamed")).channel_name == (
        "Renamed"
    )
    inactive = await notes.deactivate_channel(hook.biz_id)
    assert inactive.channel_status is not None and inactive.channel_status.is_("INACTIVE")
    assert (await notes.activate_channel(hook.biz_id)).active
    only_hooks = await notes.query_channels(channel_category="WEBHOOK", size=100)
    assert hook.biz_id in {c.biz_id for c in only_hooks.items}
    await notes.delete_channel(hook.biz_id)
    with pytest.raises(ValidationError):
        await notes.validate_imap()
    imap = await notes.validate_imap(host="imap.example.com", port=993, security="TLS")
    assert imap.valid and imap.protocol == "IMAP"
    smtp = await notes.validate_smtp(
        host="smtp.example.invalid", port=587, from_address="noreply@example.com"
    )
    assert not smtp.valid and smtp.protocol == "SMTP"


# -- secure channel -----------------------------------------------------------------------


async def test_secure_channel_operations(factory: Factory) -> None:
    client = factory()
    key = await client.secure_channel.public_key()
    assert key.algorithm == "RSA-OAEP-256" and key.key_id
    await client.secure_channel.open()
    assert client.secure_channel.is_open
    assert await client.secure_channel.close()
    assert not await client.secure_channel.close()


# -- acceptance ---------------------------------------------------------------------------


async def test_fifty_concurrent_calls_with_an_expired_token(admin: PortalClient) -> None:
    await advance_clock(admin, 3700)  # the access token has expired on the server
    refreshes: list[object] = []
    admin.events.subscribe(
        lambda e: refreshes.append(e) if e.operation_id == "auth.token_refresh" else None,  # type: ignore[union-attr]
        RequestStarted,
    )
    results = await asyncio.gather(*(admin.auth.profile() for _ in range(50)))
    assert {r.account_email for r in results} == {ADMIN}
    assert len(refreshes) == 1
    assert admin.refresh_count == 1


async def test_reused_refresh_token_signs_out(factory: Factory, admin: PortalClient) -> None:
    from portal_admin.client import MemoryTokenStore

    profile = str(admin.base_url).rstrip("/")
    old = await admin._tokens.stored_refresh_token(ADMIN)
    assert old
    await admin.auth.refresh()  # consumes ``old``
    stale_store = MemoryTokenStore()
    await stale_store.save(profile, ADMIN, old)
    replayer = factory(token_store=stale_store)
    assert await replayer.auth.resume(ADMIN) is None
    assert not replayer.signed_in
    assert await stale_store.load(profile, ADMIN) is None
    with pytest.raises(NotSignedInError):
        await replayer.auth.profile()


async def test_channel_recovers_from_expiry_and_rotation(app: Any, admin: PortalClient) -> None:
    state = app.state.sandbox
    started: list[str] = []
    admin.events.subscribe(lambda e: started.append(e.operation_id), RequestStarted)  # type: ignore[union-attr]
    finished: list[tuple[str, str | None]] = []
    admin.events.subscribe(
        lambda e: finished.append((e.operation_id, e.code)),  # type: ignore[union-attr]
        RequestFinished,
    )
    await admin.auth.refresh()
    await advance_clock(admin, 1900)  # beyond the idle lifetime: the session is gone
    await admin.auth.refresh()  # SESSION_INVALID -> new session -> sent again
    assert ("auth.token_refresh", "SECURE_CHANNEL.SESSION_INVALID") in finished
    assert started.count("secure_channel.session_create") == 2
    state.secure_channel.rotate_key()
    await advance_clock(admin, 1900)
    finished.clear()
    await admin.auth.refresh()  # SESSION_INVALID, then KEY_UNKNOWN -> new key -> new session
    assert ("secure_channel.session_create", "SECURE_CHANNEL.KEY_UNKNOWN") in finished
    assert finished[-1] == ("auth.token_refresh", "2000")
    assert started.count("secure_channel.public_key") == 2
    assert admin.signed_in


class Tampering(httpx.AsyncBaseTransport):
    """Passes requests to the sandbox; alters the sealed answers of one path."""

    def __init__(self, inner: httpx.AsyncBaseTransport, path: str, mode: str) -> None:
        self.inner, self.path, self.mode = inner, path, mode
        self.recorded: bytes | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.url.path != self.path:
            return response
        body = await response.aread()
        if self.mode == "flip":
            raw = bytearray(sc.from_body(body))
            raw[-3] ^= 0x40
            body = json.dumps(sc.to_body(bytes(raw))).encode()
        elif self.mode == "replay":
            if self.recorded is None:
                self.recorded = body
            body = self.recorded
        return httpx.Response(
            response.status_code, headers={"content-type": "application/json"}, content=body
        )


@pytest.mark.parametrize(
    ("mode", "code"),
    [("flip", "SECURE_CHANNEL.DECRYPTION_FAILED"), ("replay", "SECURE_CHANNEL.REPLAY_DETECTED")],
)
async def test_tampered_or_replayed_response_rejected(app: Any, mode: str, code: str) -> None:
    from portal_admin.client import MemoryTokenStore, SecureChannelError

    from .sandbox_support import options

    path = "/web/v1/system/auth/password/change"
    transport = Tampering(httpx.ASGITransport(app=app), path, mode)
    async with PortalClient(
        "http://127.0.0.1", options(), transport=transport, token_store=MemoryTokenStore()
    ) as client:
        await sign_in(client)
        if mode == "replay":
            await client.auth.change_password(ADMIN_PASSWORD, "Changed-Admin-5!")
            with pytest.raises(SecureChannelError) as caught:
                await client.auth.change_password("Changed-Admin-5!", "Changed-Admin-6!")
        else:
            with pytest.raises(SecureChannelError) as caught:
                await client.auth.change_password(ADMIN_PASSWORD, "Changed-Admin-5!")
        assert caught.value.code == code
        assert client.signed_in


@pytest.mark.parametrize(
    "algorithm",
    [
        "RSA-OAEP-256",
        "RSA/ECB/OAEPWithSHA-256AndMGF1Padding",
        "RSA-OAEP",
        "RSA1_5",
        "RSA/ECB/PKCS1Padding",
    ],
)
async def test_each_advertised_padding(factory: Factory, algorithm: str) -> None:
    legacy = algorithm in ("RSA1_5", "RSA/ECB/PKCS1Padding")
    app = make_app(sc_algorithm=algorithm)
    client = factory(app=app, allow_legacy_padding=legacy)
    await sign_in(client)
    await client.auth.refresh()
    await client.auth.change_password(ADMIN_PASSWORD, "Changed-Admin-9!")
    if legacy:
        strict = factory(app=app)
        from portal_admin.client import UnsupportedAlgorithmError

        with pytest.raises(UnsupportedAlgorithmError):
            await strict.secure_channel.open()


async def test_read_only_sends_nothing(factory: Factory) -> None:
    client = factory(read_only=True)
    await sign_in(client)
    sent: list[object] = []
    client.events.subscribe(sent.append, RequestStarted)
    with pytest.raises(ReadOnlyError):
        await client.accounts.change_status("whoever", "SUSPEND")
    with pytest.raises(ReadOnlyError):
        await client.roles.delete("whatever")
    assert sent == []
    assert (await client.accounts.query(size=1)).total_items > 0


def test_every_operation_was_answered() -> None:
    """Runs last: every one of the 67 operations got a 200 from the sandbox in this module."""
    if len(CALLED) < 20:
        pytest.skip("only part of the module ran")
    from portal_admin.protocol.operations import OPERATIONS

    assert set(OPERATIONS) - CALLED == set()


def test_every_mutating_operation_was_journaled_without_a_secret() -> None:
    """Runs last: each mutating operation answered 200 here has its journal records, and no
    password this module typed (any string literal naming one) is in the journal."""
    if len(CALLED) < 20:
        pytest.skip("only part of the module ran")
    from portal_admin.protocol.operations import OPERATIONS

    JOURNAL.flush()
    records = list(jr.read(JOURNAL.path))
    journaled = {r["operation"] for r in records}
    every = {op for op in OPERATIONS if OPERATIONS[op].mutating}
    assert {op for op in CALLED if OPERATIONS[op].mutating} == every  # all were sent
    assert journaled == every
    text = JOURNAL.path.read_text(encoding="utf-8")
    source = Path(__file__).read_text(encoding="utf-8")
    typed = set(re.findall(r'"([^"\s]*Pass(?:word)?[^"\s]*\d[^"\s]*)"', source))
    secrets = typed | {ADMIN_PASSWORD, AUDITOR_PASSWORD, APPROVAL_PASSWORD}
    assert len(secrets) >= 5
    assert [s for s in secrets if s in text] == []
    assert jr.verify(JOURNAL.path).ok
