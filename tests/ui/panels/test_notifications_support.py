"""Helpers of the notification panel tests (no tests here); the shared ones are in
``panel_support``.
"""

from __future__ import annotations

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
