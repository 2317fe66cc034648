"""The create/update dialog of a channel type; extraConfig is JSON checked as you type.

The dialog only collects and checks input: Save emits ``saveRequested`` and the controller
sends it; a failed save leaves the dialog open with everything typed.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.error_line import ErrorLine
from portal_admin.ui.widgets.plain import PlainLabel

from ...error_info import ErrorInfo, describe_error
from . import validation as check

_C = "ChannelTypeDialog"


class ChannelTypeDialog(QDialog):
    """Fields of a channel type: code, name, description, order, icon URL, extra settings."""

    saveRequested = Signal(object)

    def __init__(self, record: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record = record
        self.setObjectName("channelTypeDialog")
        self.setModal(True)
        self.code_edit = QLineEdit(self)
        self.code_edit.setObjectName("typeCodeEdit")
        self.code_edit.setMaxLength(32)
        self.name_edit = QLineEdit(self)
        self.name_edit.setObjectName("typeNameEdit")
        self.description_edit = QPlainTextEdit(self)
        self.description_edit.setObjectName("typeDescriptionEdit")
        self.description_edit.setTabChangesFocus(True)
        self.description_edit.setFixedHeight(64)
        self.order_spin = QSpinBox(self)
        self.order_spin.setObjectName("displayOrderSpin")
        self.order_spin.setRange(-1 if record is None else 0, 9999)
        self.icon_edit = QLineEdit(self)
        self.icon_edit.setObjectName("iconUrlEdit")
        self.extra_edit = QPlainTextEdit(self)
        self.extra_edit.setObjectName("extraConfigEdit")
        self.extra_edit.setTabChangesFocus(True)
        self.extra_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.extra_edit.setMinimumHeight(90)
        self.problems_label = PlainLabel(self)
        self.problems_label.setObjectName("problemsLabel")
        self.problems_label.setWordWrap(True)
        self.problems_label.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.problems_label, "warning")
        self.error_label = ErrorLine(self)
        self.buttons = QDialogButtonBox(self)
        self.save_button = QPushButton(self)
        self.save_button.setObjectName("saveButton")
        self.save_button.setDefault(True)
        self.buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.rejected.connect(self.reject)
        self.save_button.clicked.connect(lambda: self.saveRequested.emit(self))

        self.form = QFormLayout()
        self._labels = [PlainLabel(self) for _ in range(6)]
        for label, field in zip(
            self._labels,
            (
                self.code_edit,
                self.name_edit,
                self.description_edit,
                self.order_spin,
                self.icon_edit,
                self.extra_edit,
            ),
            strict=True,
        ):
            label.setBuddy(field)
            self.form.addRow(label, field)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.resize(520, 460)

        self._busy = False
        if record is not None:
            self._load(record)
        else:
            self.order_spin.setValue(-1)
        for edit in (self.code_edit, self.name_edit, self.icon_edit):
            edit.textChanged.connect(self.revalidate)
        for text in (self.description_edit, self.extra_edit):
            text.textChanged.connect(self.revalidate)
        self.retranslateUi()

    @property
    def creating(self) -> bool:
        """True for a new channel type."""
        return self.record is None

    def _load(self, record: Any) -> None:
        self.code_edit.setText(record.type_code or "")
        self.code_edit.setReadOnly(True)
        self.name_edit.setText(record.type_name or "")
        self.description_edit.setPlainText(record.type_description or "")
        self.order_spin.setValue(int(record.display_order or 0))
        self.icon_edit.setText(record.icon_url or "")
        if record.extra_config is not None:
            self.extra_edit.setPlainText(
                json.dumps(record.extra_config, indent=2, ensure_ascii=False)
            )

    # -- input -----------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """What keeps the input from being sent (translated)."""
        found: list[str] = []
        if self.creating:
            found += check.type_code(self.code_edit.text())
        found += check.required(
            QCoreApplication.translate("ChannelTypeDialog", "Name"),
            self.name_edit.text(),
            check.MAX_NAME,
        )
        found += check.optional(
            QCoreApplication.translate("ChannelTypeDialog", "Description"),
            self.description_edit.toPlainText(),
            check.MAX_DESCRIPTION,
        )
        found += check.url(
            QCoreApplication.translate("ChannelTypeDialog", "Icon URL"), self.icon_edit.text()
        )
        found += check.json_object(
            QCoreApplication.translate("ChannelTypeDialog", "Extra settings"),
            self.extra_edit.toPlainText(),
        )[1]
        return found

    def values(self) -> dict[str, Any]:
        """The fields to send (snake_case keyword arguments of the client)."""
        extra, _ = check.json_object("", self.extra_edit.toPlainText())
        fields: dict[str, Any] = {
            "type_name": self.name_edit.text().strip(),
            "type_description": self.description_edit.toPlainText().strip(),
            "icon_url": self.icon_edit.text().strip(),
        }
        if self.order_spin.value() >= 0:
            fields["display_order"] = self.order_spin.value()
        if extra is not None:
            fields["extra_config"] = extra
        elif self.record is not None and self.record.extra_config is not None:
            fields["extra_config"] = {}  # the client cannot send null: {} clears the settings
        if self.creating:
            fields["type_code"] = self.code_edit.text().strip().upper()
            if not fields["icon_url"]:
                del fields["icon_url"]
        return fields

    def revalidate(self) -> None:
        """Show the problems of the input as it is typed; Save only when there are none."""
        found = self.problems()
        self.problems_label.setText("\n".join(found[:3]))
        self.problems_label.setVisible(bool(found))
        self.save_button.setEnabled(not found and not self._busy)

    def set_busy(self, busy: bool) -> None:
        """While saving: Save disabled."""
        self._busy = busy
        self.revalidate()

    def show_error(self, info: ErrorInfo | None) -> None:
        """Show a failure inline (None hides it)."""
        self.error_label.show_error(info)

    def failed(self, exc: BaseException) -> bool:
        """An operation's failure handler: shown inline, so handled (True)."""
        self.show_error(describe_error(exc))
        return True

    # -- text ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(
            QCoreApplication.translate("ChannelTypeDialog", "New channel type")
            if self.creating
            else QCoreApplication.translate("ChannelTypeDialog", "Edit channel type %1").replace(
                "%1", self.record.type_code or ""
            )
        )
        names = (
            QCoreApplication.translate("ChannelTypeDialog", "&Code:"),
            QCoreApplication.translate("ChannelTypeDialog", "&Name:"),
            QCoreApplication.translate("ChannelTypeDialog", "&Description:"),
            QCoreApplication.translate("ChannelTypeDialog", "Display &order:"),
            QCoreApplication.translate("ChannelTypeDialog", "&Icon URL:"),
            QCoreApplication.translate("ChannelTypeDialog", "E&xtra settings (JSON):"),
        )
        accessible = (
            QCoreApplication.translate("ChannelTypeDialog", "Code"),
            QCoreApplication.translate("ChannelTypeDialog", "Name"),
            QCoreApplication.translate("ChannelTypeDialog", "Description"),
            QCoreApplication.translate("ChannelTypeDialog", "Display order"),
            QCoreApplication.translate("ChannelTypeDialog", "Icon URL"),
            QCoreApplication.translate("ChannelTypeDialog", "Extra settings"),
        )
        for label, text, name in zip(self._labels, names, accessible, strict=True):
            label.setText(text)
            field = label.buddy()
            if field is not None:
                field.setAccessibleName(name)
        self.code_edit.setPlaceholderText(
            QCoreApplication.translate("ChannelTypeDialog", "e.g. TEAMS_CHAT")
        )
        self.order_spin.setSpecialValueText(
            QCoreApplication.translate("ChannelTypeDialog", "Automatic")
        )
        self.icon_edit.setPlaceholderText("https://")
        self.extra_edit.setPlaceholderText(
            QCoreApplication.translate("ChannelTypeDialog", 'Optional, for example {"retries": 3}')
        )
        self.save_button.setText(QCoreApplication.translate("ChannelTypeDialog", "Save"))
        self.save_button.setAccessibleName(QCoreApplication.translate("ChannelTypeDialog", "Save"))
        self.cancel_button.setText(QCoreApplication.translate("ChannelTypeDialog", "Cancel"))
        self.cancel_button.setAccessibleName(
            QCoreApplication.translate("ChannelTypeDialog", "Cancel")
        )
        self.problems_label.setAccessibleName(
            QCoreApplication.translate("ChannelTypeDialog", "Input problems")
        )
        self.error_label.retranslateUi()
        self.revalidate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
