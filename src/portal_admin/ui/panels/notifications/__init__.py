"""Notification channel types and notification channels (issue 6).

``register`` adds two panels to the navigation; their widgets are imported on first use.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec


def _channel_types(ctx: PanelContext) -> QWidget:
    from .types_panel import ChannelTypesPanel

    return ChannelTypesPanel.build(ctx)


def _channels(ctx: PanelContext) -> QWidget:
    from .channels_panel import ChannelsPanel

    return ChannelsPanel.build(ctx)


def register(registry: PanelRegistry) -> None:
    """Register the "channel-types" and "channels" panels."""
    registry.register(
        PanelSpec(
            id="channel-types",
            title=QT_TRANSLATE_NOOP("Panels", "Notification channel types"),
            factory=_channel_types,
            icon="nav.channel-types",
            order=400,
        )
    )
    registry.register(
        PanelSpec(
            id="channels",
            title=QT_TRANSLATE_NOOP("Panels", "Notification channels"),
            factory=_channels,
            icon="nav.channels",
            order=410,
        )
    )
