"""The accounts list: its columns and the paged model over ``client.accounts.query``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QModelIndex

from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.lists.paged_model import Column, FetchPage, PagedTableModel, SortSpec

from ...enum_labels import ACCOUNT_STATUS, PORTAL_TYPE
from .account_filter import AccountFilter
from .common import enum_text

CTX = "AccountColumns"


def _text(value: object) -> str:
    return "" if value is None else str(value)


COLUMNS: tuple[Column[Any], ...] = (
    Column(
        "email",
        QT_TRANSLATE_NOOP("AccountColumns", "Email"),
        lambda a: a.account_email,
        "accountEmail",
        context=CTX,
    ),
    Column(
        "name",
        QT_TRANSLATE_NOOP("AccountColumns", "Name"),
        lambda a: a.account_name,
        "accountName",
        context=CTX,
    ),
    Column(
        "status",
        QT_TRANSLATE_NOOP("AccountColumns", "Status"),
        lambda a: enum_text(a.account_status, ACCOUNT_STATUS),
        context=CTX,
    ),
    Column(
        "portal",
        QT_TRANSLATE_NOOP("AccountColumns", "Portal"),
        lambda a: enum_text(a.account_portal, PORTAL_TYPE),
        context=CTX,
    ),
    Column(
        "phone",
        QT_TRANSLATE_NOOP("AccountColumns", "Phone"),
        lambda a: a.account_phone,
        context=CTX,
    ),
    Column(
        "language",
        QT_TRANSLATE_NOOP("AccountColumns", "Language"),
        lambda a: a.default_language,
        context=CTX,
        hidden=True,
    ),
    Column(
        "timezone",
        QT_TRANSLATE_NOOP("AccountColumns", "Time zone"),
        lambda a: a.default_timezone,
        context=CTX,
        hidden=True,
    ),
    Column(
        "country",
        QT_TRANSLATE_NOOP("AccountColumns", "Country"),
        lambda a: a.default_country,
        context=CTX,
        hidden=True,
    ),
    Column(
        "created",
        QT_TRANSLATE_NOOP("AccountColumns", "Created"),
        lambda a: a.created_at,
        "createdAt",
        context=CTX,
        format=format_datetime,
    ),
    Column(
        "updated",
        QT_TRANSLATE_NOOP("AccountColumns", "Updated"),
        lambda a: a.updated_at,
        "updatedAt",
        context=CTX,
        format=format_datetime,
    ),
    Column(
        "id",
        QT_TRANSLATE_NOOP("AccountColumns", "Id"),
        lambda a: a.biz_id,
        context=CTX,
        hidden=True,
    ),
)


def account_fetcher(client: Callable[[], Any], flt: AccountFilter) -> FetchPage[Any]:
    """A page fetcher for ``flt`` (server-side paging and sorting); ``client()`` gives the
    client at call time."""

    async def fetch(number: int, size: int, sort: SortSpec) -> Any:
        return await client().accounts.query(
            **flt.query_kwargs(),
            page=number,
            size=size,
            sort=[f"{field},{direction}" for field, direction in sort] or None,
        )

    return fetch


class AccountsModel(PagedTableModel[Any]):
    """Accounts, paged from the server; single rows can be replaced after a change."""

    def replace_accounts(self, accounts: Iterable[Any]) -> int:
        """Put fresh copies of loaded accounts in place (matched by bizId); how many."""
        fresh = {a.biz_id: a for a in accounts}
        replaced = 0
        rows = self._rows  # see report: PagedTableModel has no public row replacement yet
        for number, row in enumerate(rows):
            new = fresh.get(getattr(row, "biz_id", None))
            if new is not None:
                rows[number] = new
                replaced += 1
                last = self.columnCount() - 1
                self.dataChanged.emit(self.index(number, 0), self.index(number, last))
        return replaced

    def column_number(self, key: str) -> int:
        """The number of the column with ``key`` (-1 when there is none)."""
        keys = [c.key for c in self.columns]
        return keys.index(key) if key in keys else -1

    def row_of(self, biz_id: str) -> int:
        """The row number of an account, or -1 when not loaded."""
        for number, row in enumerate(self._rows):
            if getattr(row, "biz_id", None) == biz_id:
                return number
        return -1

    def index_of(self, biz_id: str) -> QModelIndex:
        """The first cell of an account's row (invalid when not loaded)."""
        row = self.row_of(biz_id)
        return self.index(row, 0) if row >= 0 else QModelIndex()
