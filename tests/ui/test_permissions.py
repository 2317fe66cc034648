"""Permissions: read-only sessions and missing permission codes disable actions, with reasons;
the live profile they come from is fetched once and shared."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import pytest

from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.base import account_permissions
from portal_admin.ui.panels.registry import LiveProfile, PanelContext
from portal_admin.ui.permissions import Permissions
from portal_admin.ui.profiles.store import sandbox_profile


def test_unknown_codes_allow_everything() -> None:
    perms = Permissions(None)
    assert perms.allows("accounts.status") and perms.allows("roles.delete")


def test_missing_code_gives_the_reason() -> None:
    perms = Permissions(["workspace:user:read"])
    assert perms.allows("accounts.query")
    assert not perms.allows("accounts.status")
    assert "workspace:user:write" in (perms.reason("accounts.status") or "")
    assert perms.allows("security.sessions")  # needs no permission


def test_read_only_refuses_every_write() -> None:
    perms = Permissions(None, read_only=True)
    assert perms.read_only
    assert perms.allows("accounts.query")
    assert not perms.allows("invitations.create")
    assert "read-only" in (perms.reason("portals.create") or "")


class _Profile:
    permission_codes: ClassVar[list[object]] = ["workspace:role:read", 5]


class _Client:
    def is_allowed(self, operation_id: str) -> bool:
        return True


def test_of_reads_the_profile_permission_codes() -> None:
    perms = Permissions.of(_Client(), _Profile())
    assert perms.allows("roles.list") and not perms.allows("roles.delete")
    assert Permissions.of(None, None).allows("roles.delete")


# -- the shared live profile (PanelContext.extras["live_profile"]) ------------------------------


class _Auth:
    def __init__(self, fail: int = 0) -> None:
        self.calls = 0
        self.fail = fail

    async def profile(self) -> _Profile:
        self.calls += 1
        await asyncio.sleep(0.01)
        if self.calls <= self.fail:
            raise RuntimeError("offline")
        return _Profile()


class _ProfileClient(_Client):
    def __init__(self, fail: int = 0) -> None:
        self.auth = _Auth(fail)


def _context(client: Any, **extras: Any) -> PanelContext:
    return PanelContext(
        runner=OperationRunner(presenter=lambda *_: None),
        profile=sandbox_profile(),
        client=client,
        extras=extras,
    )


def test_live_profile_is_fetched_once_for_everyone() -> None:
    client = _ProfileClient()
    shared = LiveProfile(client.auth.profile)

    async def main() -> None:
        first, second = await asyncio.gather(shared.get(), shared.get())
        assert first is second
        assert await shared.get() is first
        assert client.auth.calls == 1
        assert await shared.reload() is not first  # e.g. the header after a language switch
        assert client.auth.calls == 2

    asyncio.run(main())


def test_live_profile_failure_is_tried_again_and_callers_cancel_alone() -> None:
    client = _ProfileClient(fail=1)
    shared = LiveProfile(client.auth.profile)

    async def main() -> None:
        with pytest.raises(RuntimeError):
            await shared.get()
        waiting = asyncio.ensure_future(shared.get())
        await asyncio.sleep(0)
        waiting.cancel()  # one panel goes away: the fetch goes on for the others
        assert isinstance(await shared.get(), _Profile)
        assert client.auth.calls == 2
        shared.close()

    asyncio.run(main())


def test_account_permissions_use_the_shared_profile_else_fetch() -> None:
    client = _ProfileClient()
    shared = _context(client, live_profile=LiveProfile(client.auth.profile))
    alone = _context(client)

    async def main() -> None:
        for _ in range(3):
            perms, profile = await account_permissions(shared)
            assert isinstance(profile, _Profile) and not perms.allows("roles.delete")
        assert client.auth.calls == 1
        await account_permissions(alone)
        await account_permissions(alone)
        assert client.auth.calls == 3  # no shared profile: fetched each time

    asyncio.run(main())


def test_account_permissions_without_a_profile() -> None:
    async def main() -> None:
        perms, profile = await account_permissions(_context(_ProfileClient(fail=1)))
        assert profile is None and perms.allows("roles.delete")  # the server decides
        perms, profile = await account_permissions(_context(None))
        assert profile is None and not perms.read_only

    asyncio.run(main())
