"""The channel list: columns (no secret ever reaches a cell) and its query (shape A pages)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from portal_admin.client.records import Channel
from portal_admin.protocol.pages import Page
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.lists.paged_model import Column, FetchPage, PagedTableModel, SortSpec

from .common import fmt_time, label_of

_C = "ChannelColumns"


def settings_summary(row: Channel) -> str:
    """One line about where a channel delivers: server, URL or provider; never a secret."""
    config = row.config or {}
    code = row.channel_category.code if row.channel_category is not None else ""
    if "host" in config:
        text = f"{config.get('host')}:{config.get('port')}"
        if config.get("security"):
            text += f" {config.get('security')}"
        if code == "EMAIL" and config.get("fromAddress"):
            text += f" \u2192 {config.get('fromAddress')}"
        return text
    if "url" in config:
        return str(config.get("url") or "")
    if "provider" in config:
        sender = config.get("senderId")
        return f"{config.get('provider')}" + (f" ({sender})" if sender else "")
    return ""


def _fmt(value: object) -> str:
    return fmt_time(value)


COLUMNS: tuple[Column[Channel], ...] = (
    Column(
        "channelName",
        QT_TRANSLATE_NOOP("ChannelColumns", "Name"),
        lambda r: r.channel_name,
        context=_C,
    ),
    Column(
        "channelCategory",
        QT_TRANSLATE_NOOP("ChannelColumns", "Category"),
        lambda r: label_of(r.channel_category),
        context=_C,
    ),
    Column(
        "channelStatus",
        QT_TRANSLATE_NOOP("ChannelColumns", "Status"),
        lambda r: label_of(r.channel_status),
        context=_C,
    ),
    Column(
        "isDefault",
        QT_TRANSLATE_NOOP("ChannelColumns", "Default"),
        lambda r: bool(r.is_default),
        context=_C,
    ),
    Column(
        "settings",
        QT_TRANSLATE_NOOP("ChannelColumns", "Delivers via"),
        settings_summary,
        context=_C,
    ),
    Column(
        "institutionBizId",
        QT_TRANSLATE_NOOP("ChannelColumns", "Institution"),
        lambda r: r.institution_biz_id,
        context=_C,
    ),
    Column(
        "description",
        QT_TRANSLATE_NOOP("ChannelColumns", "Description"),
        lambda r: r.description,
        context=_C,
    ),
    Column(
        "updatedAt",
        QT_TRANSLATE_NOOP("ChannelColumns", "Updated"),
        lambda r: r.updated_at,
        format=_fmt,
        context=_C,
    ),
    Column(
        "createdAt",
        QT_TRANSLATE_NOOP("ChannelColumns", "Created"),
        lambda r: r.created_at,
        format=_fmt,
        context=_C,
        hidden=True,
    ),
    Column(
        "active",
        QT_TRANSLATE_NOOP("ChannelColumns", "Active"),
        lambda r: bool(r.active),
        context=_C,
        hidden=True,
    ),
    Column(
        "bizId",
        QT_TRANSLATE_NOOP("ChannelColumns", "Id"),
        lambda r: r.biz_id,
        context=_C,
        hidden=True,
    ),
)


@dataclass(frozen=True, slots=True)
class ChannelFilter:
    """The channel query's filters (empty means "any")."""

    institution_biz_id: str = ""
    channel_category: str | None = None
    channel_status: str | None = None
    active_only: bool = False


def channel_fetch(client: Any, flt: ChannelFilter) -> FetchPage[Channel]:
    """The page fetcher for ``flt`` (the server does not sort this list: sort is ignored)."""

    async def fetch(number: int, size: int, _sort: SortSpec) -> Page[Channel]:
        page: Page[Channel] = await client.notifications.query_channels(
            institution_biz_id=flt.institution_biz_id.strip() or None,
            channel_category=flt.channel_category,
            channel_status=flt.channel_status,
            active_only=flt.active_only,
            page=number,
            size=size,
        )
        return page

    return fetch


def channel_model(client: Any, page_size: int) -> PagedTableModel[Channel]:
    """An empty model (the panel sets its query once its filters are known)."""
    return PagedTableModel(COLUMNS, channel_fetch(client, ChannelFilter()), page_size=page_size)
