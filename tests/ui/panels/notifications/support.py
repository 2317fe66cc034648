"""Helpers of the notification panel tests (no tests here); the shared ones are in
``panel_support``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from portal_admin.ui.panels.notifications.channels_panel import ChannelsPanel
from portal_admin.ui.panels.notifications.types_panel import ChannelTypesPanel
from portal_admin.ui.panels.registry import PanelContext

from ..panel_support import place_panel

H = Qt.Orientation.Horizontal


def visible_texts(root: QWidget) -> list[str]:
    """Every text a person could read in ``root`` and its children (password fields as shown)."""
    texts: list[str] = [root.windowTitle(), root.toolTip()]
    for widget in [root, *root.findChildren(QWidget)]:
        texts += [widget.toolTip(), widget.accessibleName(), widget.windowTitle()]
        if isinstance(widget, QLabel):
            texts.append(widget.text())
        elif isinstance(widget, QLineEdit):
            texts += [widget.displayText(), widget.placeholderText()]
        elif isinstance(widget, QPlainTextEdit):
            texts.append(widget.toPlainText())
        elif isinstance(widget, QAbstractButton):
            texts.append(widget.text())
        elif isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            for row in range(model.rowCount()):
                for column in range(model.columnCount()):
                    index = model.index(row, column)
                    texts += [
                        str(index.data() or ""),
                        str(index.data(Qt.ItemDataRole.ToolTipRole) or ""),
                    ]
    return [t for t in texts if t]


def end_sessions(app: Any, email: str) -> None:
    """End every server session of ``email`` behind the client's back."""
    from portal_admin.sandbox import tokens

    state = app.state.sandbox
    account = state.db.one("SELECT biz_id FROM accounts WHERE email_key = ?", (email.lower(),))
    tokens.end_sessions(state, account["biz_id"], "test")


def channels_panel(
    ctx: PanelContext, qtbot: Any, page_size: int = 50, *, show: bool = True
) -> ChannelsPanel:
    """The channels panel, sized (and shown unless ``show`` is false)."""
    panel = ChannelsPanel(ctx, page_size=page_size)
    place_panel(qtbot, panel, 1200, 640, visible=show)
    return panel


async def channels_reloaded(panel: ChannelsPanel) -> None:
    """Wait for the channels' reload to end."""
    await asyncio.sleep(0)
    await panel.model.wait_idle()


def select_channel(panel: ChannelsPanel, name: str) -> Any:
    """Select the channel ``name``; returns its row."""
    for number, row in enumerate(panel.model.rows):
        if row.channel_name == name:
            panel.list.table.setCurrentIndex(panel.model.index(number, 0))
            return row
    raise AssertionError(f"{name} not listed")


def types_panel(
    ctx: PanelContext, qtbot: Any, page_size: int = 50, *, show: bool = True
) -> ChannelTypesPanel:
    """The channel-types panel, sized (and shown unless ``show`` is false)."""
    panel = ChannelTypesPanel(ctx, page_size=page_size)
    # a shown table asks for more pages while it has room
    place_panel(qtbot, panel, 1100, 600, visible=show)
    return panel


async def types_reloaded(panel: ChannelTypesPanel) -> None:
    """Wait for the channel types' reload to end."""
    await asyncio.sleep(0)
    await panel.model.wait_idle()


def select_type(panel: ChannelTypesPanel, code: str) -> Any:
    """Select the channel type ``code``; returns its row."""
    for number, row in enumerate(panel.model.rows):
        if row.type_code == code:
            panel.list.table.setCurrentIndex(panel.model.index(number, 0))
            return row
    raise AssertionError(f"{code} not listed")
