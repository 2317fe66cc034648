"""Helpers shared by the notification panels: topics, formatting, choices, the error label."""

from __future__ import annotations

from typing import Any

from portal_admin.protocol.labels import item_label
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.panels.base import ConstantsSource
from portal_admin.ui.panels.registry import PanelContext

#: What the runner publishes after a change (panels refresh themselves from it).
TOPIC_TYPES = "notification-channel-types"
TOPIC_CHANNELS = "notification-channels"

Choice = tuple[str, str]  # (code, label)


def fmt_time(value: object) -> str:
    """A timestamp in local time, in the language's short format (empty for None)."""
    return format_datetime(value)


def label_of(item: Any) -> str:
    """An enum item's label, else its code (empty for None)."""
    if item is None:
        return ""
    return str(getattr(item, "label", None) or getattr(item, "code", "") or "")


def code_of(item: Any) -> str | None:
    """An enum item's code."""
    return None if item is None else getattr(item, "code", None)


async def constant_choices(ctx: PanelContext, name: str) -> list[Choice]:
    """(code, label) pairs of a constants list, e.g. ``notification-channel-statuses``, in the
    current language: from the shared constants cache (emptied on a language switch)."""
    items = await ConstantsSource(ctx).items(name)
    return [(item.code, item_label(item)) for item in items]
