"""Account administration (section 4.4)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any, Literal

from portal_admin.protocol import bodies, enums
from portal_admin.protocol.pages import DEFAULT_PAGE_SIZE, Page

from ..records import Account, AccountStatusChange, Result
from ._base import (
    Area,
    EnumArg,
    as_page,
    as_record,
    enum_value,
    iterate_pages,
    operation,
)

AccountAction = Literal["ACTIVATE", "SUSPEND", "DEACTIVATE"]


class AccountsArea(Area):
    """``client.accounts``: query, read, change status, update, reset password."""

    @operation("accounts.query")
    async def query(
        self,
        *,
        institution_biz_id: str | None = None,
        portal: EnumArg = None,
        status: EnumArg = None,
        email: str | None = None,
        name: str | None = None,
        page: int = 0,
        size: int = DEFAULT_PAGE_SIZE,
        sort: Sequence[str] | str | None = None,
    ) -> Page[Account]:
        """One page (zero-based) of accounts; ``sort`` items are ``field,asc|desc``."""
        body = bodies.AccountQuery.build(
            keep_none=True,
            institution_biz_id=institution_biz_id,
            account_portal=enum_value(enums.PORTAL_TYPE, portal),
            account_status=enum_value(enums.ACCOUNT_STATUS, status),
            email=email,
            name=name,
            page=page,
            size=size,
        )
        params: dict[str, Any] | None = None
        if sort:
            params = {"sort": [sort] if isinstance(sort, str) else list(sort)}
        data = await self._call("accounts.query", json=body, params=params)
        return as_page(data, Account, "accounts.query")

    @operation("accounts.query")
    def iterate(
        self,
        *,
        institution_biz_id: str | None = None,
        portal: EnumArg = None,
        status: EnumArg = None,
        email: str | None = None,
        name: str | None = None,
        size: int = DEFAULT_PAGE_SIZE,
        sort: Sequence[str] | str | None = None,
    ) -> AsyncIterator[Account]:
        """Every matching account, page by page."""
        return iterate_pages(
            lambda n: self.query(
                institution_biz_id=institution_biz_id,
                portal=portal,
                status=status,
                email=email,
                name=name,
                page=n,
                size=size,
                sort=sort,
            )
        )

    @operation("accounts.get")
    async def get(self, user_biz_id: str) -> Account:
        """One account by business id."""
        data = await self._call("accounts.get", path_params={"userBizId": user_biz_id})
        return as_record(data, Account)

    @operation("accounts.password_reset")
    async def reset_password(self, user_biz_id: str) -> Result:
        """Mail a password-reset link to the account."""
        data = await self._call(
            "accounts.password_reset", json=bodies.AccountRef.build(user_biz_id=user_biz_id)
        )
        return as_record(data, Result)

    @operation("accounts.status")
    async def change_status(
        self, user_biz_id: str, action: AccountAction, *, reason: str | None = None
    ) -> AccountStatusChange:
        """Activate, suspend or deactivate an account."""
        data = await self._call(
            "accounts.status",
            json=bodies.AccountStatusChange.build(
                user_biz_id=user_biz_id, action=action, reason=reason
            ),
        )
        return as_record(data, AccountStatusChange)

    @operation("accounts.update")
    async def update(
        self,
        user_biz_id: str,
        *,
        account_name: str | None = None,
        account_phone: str | None = None,
        account_remark: str | None = None,
        default_language: str | None = None,
        default_timezone: str | None = None,
        default_country: str | None = None,
    ) -> Account:
        """Change an account's editable fields (None: unchanged)."""
        data = await self._call(
            "accounts.update",
            json=bodies.AccountUpdate.build(
                user_biz_id=user_biz_id,
                account_name=account_name,
                account_phone=account_phone,
                account_remark=account_remark,
                default_language=default_language,
                default_timezone=default_timezone,
                default_country=default_country,
            ),
        )
        return as_record(data, Account)
