"""The channel-type list: its columns and its query (shape A pages)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from portal_admin.client.records import ChannelType
from portal_admin.protocol.pages import Page
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.lists.paged_model import RIGHT, Column, FetchPage, PagedTableModel, SortSpec

from .common import fmt_time, label_of

_C = "ChannelTypeColumns"


def _fmt(value: object) -> str:
    return fmt_time(value)


COLUMNS: tuple[Column[ChannelType], ...] = (
    Column(
        "typeCode",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Code"),
        lambda r: r.type_code,
        context=_C,
    ),
    Column(
        "typeValue",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Value"),
        lambda r: r.type_value,
        alignment=RIGHT,
        context=_C,
    ),
    Column(
        "typeName",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Name"),
        lambda r: r.type_name,
        context=_C,
    ),
    Column(
        "typeDescription",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Description"),
        lambda r: r.type_description,
        context=_C,
    ),
    Column(
        "typeStatus",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Status"),
        lambda r: label_of(r.type_status),
        context=_C,
    ),
    Column(
        "displayOrder",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Display order"),
        lambda r: r.display_order,
        alignment=RIGHT,
        context=_C,
    ),
    Column(
        "enabled",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Enabled"),
        lambda r: bool(r.enabled),
        context=_C,
    ),
    Column(
        "updatedAt",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Updated"),
        lambda r: r.updated_at,
        format=_fmt,
        context=_C,
    ),
    Column(
        "createdAt",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Created"),
        lambda r: r.created_at,
        format=_fmt,
        context=_C,
        hidden=True,
    ),
    Column(
        "iconUrl",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Icon"),
        lambda r: r.icon_url,
        context=_C,
        hidden=True,
    ),
    Column(
        "bizId",
        QT_TRANSLATE_NOOP("ChannelTypeColumns", "Id"),
        lambda r: r.biz_id,
        context=_C,
        hidden=True,
    ),
)


@dataclass(frozen=True, slots=True)
class TypeFilter:
    """The channel-type query's filters (empty means "any")."""

    type_code: str = ""
    type_status: str | None = None
    enabled_only: bool = False


def type_fetch(client: Any, flt: TypeFilter) -> FetchPage[ChannelType]:
    """The page fetcher for ``flt`` (the server does not sort this list: sort is ignored)."""

    async def fetch(number: int, size: int, _sort: SortSpec) -> Page[ChannelType]:
        page: Page[ChannelType] = await client.notifications.query_channel_types(
            type_code=flt.type_code.strip().upper() or None,
            type_status=flt.type_status,
            enabled_only=flt.enabled_only,
            page=number,
            size=size,
        )
        return page

    return fetch


def type_model(client: Any, page_size: int) -> PagedTableModel[ChannelType]:
    """An empty model (the panel sets its query once its filters are known)."""
    return PagedTableModel(COLUMNS, type_fetch(client, TypeFilter()), page_size=page_size)
