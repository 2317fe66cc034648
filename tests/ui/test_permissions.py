"""Permissions: read-only sessions and missing permission codes disable actions, with reasons."""

from __future__ import annotations

from typing import ClassVar

from portal_admin.ui.permissions import Permissions


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
    model_extra: ClassVar[dict[str, object]] = {"permissionCodes": ["workspace:role:read", 5]}


class _Client:
    def is_allowed(self, operation_id: str) -> bool:
        return True


def test_of_reads_the_profile_extra() -> None:
    perms = Permissions.of(_Client(), _Profile())
    assert perms.allows("roles.list") and not perms.allows("roles.delete")
    assert Permissions.of(None, None).allows("roles.delete")
