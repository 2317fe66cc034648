"""Security settings of the signed-in account (section 4.3)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any

from portal_admin.protocol import bodies
from portal_admin.protocol.pages import DEFAULT_PAGE_SIZE, Page

from ..records import (
    BackupCodes,
    BackupCodeSummary,
    IpWhitelist,
    LoginHistoryItem,
    MfaSetting,
    SessionConfig,
    SessionInfo,
)
from ._base import Area, as_list, as_page, as_record, iterate_pages, operation


class SecurityArea(Area):
    """``client.security``: MFA, backup codes, IP whitelist, sessions, login history."""

    @operation("security.ip_whitelist_get")
    async def ip_whitelist(self) -> IpWhitelist:
        """The IP whitelist and whether it is enforced."""
        return as_record(await self._call("security.ip_whitelist_get"), IpWhitelist)

    @operation("security.ip_whitelist_set")
    async def set_ip_whitelist(self, ips: Sequence[str]) -> IpWhitelist:
        """Replace the whitelisted addresses."""
        data = await self._call(
            "security.ip_whitelist_set", json=bodies.IpWhitelistSet.build(ips=list(ips))
        )
        return as_record(data, IpWhitelist)

    @operation("security.ip_whitelist_enable")
    async def enable_ip_whitelist(self) -> IpWhitelist:
        """Start enforcing the whitelist."""
        return as_record(await self._call("security.ip_whitelist_enable"), IpWhitelist)

    @operation("security.ip_whitelist_disable")
    async def disable_ip_whitelist(self) -> IpWhitelist:
        """Stop enforcing the whitelist."""
        return as_record(await self._call("security.ip_whitelist_disable"), IpWhitelist)

    @operation("security.mfa_list")
    async def mfa_settings(self) -> list[MfaSetting]:
        """The MFA methods and their state."""
        return as_list(await self._call("security.mfa_list"), MfaSetting, "security.mfa_list")

    @operation("security.backup_codes_summary")
    async def backup_codes(self) -> BackupCodeSummary:
        """How many backup codes remain."""
        data = await self._call("security.backup_codes_summary")
        return as_record(data, BackupCodeSummary)

    @operation("security.backup_codes_generate")
    async def generate_backup_codes(self) -> BackupCodes:
        """Generate a fresh set of backup codes (the answer holds them: show once)."""
        return as_record(await self._call("security.backup_codes_generate"), BackupCodes)

    @operation("security.otp_revoke")
    async def revoke_otp(self) -> list[MfaSetting]:
        """Remove the authenticator (OTP) method; returns the MFA settings after it."""
        data = await self._call("security.otp_revoke", json={})
        return as_list(data, MfaSetting, "security.otp_revoke")

    @operation("security.sessions")
    async def sessions(self) -> list[SessionInfo]:
        """The active sign-in sessions."""
        return as_list(await self._call("security.sessions"), SessionInfo, "security.sessions")

    @operation("security.sessions_config")
    async def sessions_config(self) -> SessionConfig:
        """The account's session settings."""
        return as_record(await self._call("security.sessions_config"), SessionConfig)

    @operation("security.login_history")
    async def login_history(
        self,
        *,
        page: int = 0,
        size: int = DEFAULT_PAGE_SIZE,
        result: int | None = None,
        date_from: datetime | None = None,
        date_to: datetime | None = None,
        sort: Sequence[tuple[str, str]] = (),
    ) -> Page[LoginHistoryItem]:
        """One page (zero-based) of sign-in attempts, newest first unless ``sort`` says.

        The specification does not show the query parameters; these are the sandbox's
        (``result``, ``from``, ``to``, ``sort=field,direction``), recorded in
        docs/sandbox-areas.md.
        """
        # Shape-A collections number their pages from 1 on the wire (like currentPage).
        params: dict[str, Any] = {"page": page + 1, "size": size}
        if result is not None:
            params["result"] = result
        if date_from is not None:
            params["from"] = date_from.isoformat()
        if date_to is not None:
            params["to"] = date_to.isoformat()
        if sort:
            params["sort"] = [f"{field},{direction}" for field, direction in sort]
        data = await self._call("security.login_history", params=params)
        return as_page(data, LoginHistoryItem, "security.login_history")

    @operation("security.login_history")
    def iterate_login_history(
        self,
        *,
        size: int = DEFAULT_PAGE_SIZE,
        result: int | None = None,
        date_from: datetime | None = None,
        date_to: datetime | None = None,
    ) -> AsyncIterator[LoginHistoryItem]:
        """Every sign-in attempt under the same filters, page by page."""
        return iterate_pages(
            lambda n: self.login_history(
                page=n, size=size, result=result, date_from=date_from, date_to=date_to
            )
        )
