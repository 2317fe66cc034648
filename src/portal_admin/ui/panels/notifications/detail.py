"""The read-only detail pane beside a list: a title and label/value rows."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QFormLayout, QScrollArea, QVBoxLayout, QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.widgets.plain import PlainLabel

from .secrets import is_secret, without_secrets

Row = tuple[str, str]


class DetailPane(QWidget):
    """Shows one record as rows; ``set_rows(None)`` shows the "nothing selected" hint."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("detailPane")
        self.title = PlainLabel(self)
        self.title.setObjectName("detailTitle")
        self.title.setStyleSheet("font-weight: bold; font-size: 14px;")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        self.hint = PlainLabel(self)
        self.hint.setWordWrap(True)
        self.body = QWidget(self)
        self.form = QFormLayout(self.body)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.body)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.hint)
        layout.addWidget(scroll, 1)
        self.setMinimumWidth(260)
        self._rows: list[Row] | None = None
        self.set_rows("", None)

    def set_rows(self, title: str, rows: Sequence[Row] | None) -> None:
        """Show ``rows`` under ``title`` (None: nothing selected)."""
        self._rows = list(rows) if rows is not None else None
        while self.form.rowCount():
            self.form.removeRow(0)
        self.title.setText(title)
        self.hint.setVisible(rows is None)
        for label, value in rows or ():
            text = PlainLabel(value, self.body)
            text.setTextFormat(Qt.TextFormat.PlainText)
            text.setWordWrap(True)
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            text.setAccessibleName(label)
            self.form.addRow(PlainLabel(label, self.body), text)
        self.retranslateUi()

    def values(self) -> list[Row]:
        """The rows shown (for tests and copying)."""
        return list(self._rows or ())

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.hint.setText(
            QCoreApplication.translate("DetailPane", "Select a row to see its details.")
        )
        self.setAccessibleName(QCoreApplication.translate("DetailPane", "Details"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


_KEY_LABELS = {
    "host": QT_TRANSLATE_NOOP("DetailPane", "Host"),
    "port": QT_TRANSLATE_NOOP("DetailPane", "Port"),
    "security": QT_TRANSLATE_NOOP("DetailPane", "Security"),
    "username": QT_TRANSLATE_NOOP("DetailPane", "Username"),
    "password": QT_TRANSLATE_NOOP("DetailPane", "Password"),
    "fromAddress": QT_TRANSLATE_NOOP("DetailPane", "From address"),
    "fromName": QT_TRANSLATE_NOOP("DetailPane", "From name"),
    "provider": QT_TRANSLATE_NOOP("DetailPane", "Provider"),
    "apiKey": QT_TRANSLATE_NOOP("DetailPane", "API key"),
    "senderId": QT_TRANSLATE_NOOP("DetailPane", "Sender id"),
    "url": QT_TRANSLATE_NOOP("DetailPane", "URL"),
    "secret": QT_TRANSLATE_NOOP("DetailPane", "Signing secret"),
    "imap": QT_TRANSLATE_NOOP("DetailPane", "IMAP"),
}


def _key_label(key: str) -> str:
    known = _KEY_LABELS.get(key)
    return QCoreApplication.translate("DetailPane", known) if known else key


def settings_rows(config: Any, prefix: str = "") -> list[Row]:
    """Settings flattened to (label, text) rows; secrets show only whether one is set."""
    rows: list[Row] = []
    if not isinstance(config, dict):
        return rows
    for key, value in config.items():
        name = f"{prefix}{_key_label(str(key))}"
        if is_secret(str(key)):
            shown = (
                QCoreApplication.translate(
                    "DetailPane", "\u2022\u2022\u2022\u2022\u2022\u2022 (set)"
                )
                if value not in (None, "")
                else QCoreApplication.translate("DetailPane", "(not set)")
            )
            rows.append((name, shown))
        elif isinstance(value, dict):
            rows.extend(settings_rows(value, f"{name} \u203a "))
        elif value is None:
            rows.append((name, ""))
        elif isinstance(value, list):
            rows.append((name, json.dumps(without_secrets(value), ensure_ascii=False)))
        elif isinstance(value, bool):
            rows.append((name, "true" if value else "false"))
        else:
            rows.append((name, str(value)))
    return rows
