"""The account edit dialog: name, phone, remark, language, time zone, country.

Save does not close the dialog: it emits ``submitRequested``; the controller closes it after
the server accepted the change, and shows a failure inside it (the input stays).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.widgets.message_bar import MessageBar
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from .account_text import account_name
from .picker import Picker

#: Field key -> (client keyword, account attribute).
FIELDS: dict[str, tuple[str, str]] = {
    "name": ("account_name", "account_name"),
    "phone": ("account_phone", "account_phone"),
    "remark": ("account_remark", "account_remark"),
    "language": ("default_language", "default_language"),
    "timezone": ("default_timezone", "default_timezone"),
    "country": ("default_country", "default_country"),
}
REMARK_MAX = 255


class AccountEditDialog(QDialog):
    """Edit one account's fields; pickers fed from the constants lists."""

    submitRequested = Signal()

    def __init__(self, account: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("accountEditDialog")
        self.account = account
        self.heading = PlainLabel(self)
        self.heading.setObjectName("editHeading")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-weight: bold;")
        self.name = QLineEdit(self)
        self.name.setObjectName("editName")
        self.phone = QLineEdit(self)
        self.phone.setObjectName("editPhone")
        self.remark = QLineEdit(self)
        self.remark.setObjectName("editRemark")
        self.remark.setMaxLength(REMARK_MAX)
        self.language = Picker(self, free_text=True)
        self.language.setObjectName("editLanguage")
        self.timezone = Picker(self, free_text=True)
        self.timezone.setObjectName("editTimezone")
        self.country = Picker(self, free_text=True)
        self.country.setObjectName("editCountry")
        self.labels: dict[str, QLabel] = {}
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for key in FIELDS:
            label = PlainLabel(self)
            label.setBuddy(self.field(key))
            self.labels[key] = label
            form.addRow(label, self.field(key))
        self.message = MessageBar(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("editSave")
        self.cancel_button = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.submitRequested)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(560)

        self.name.setText(account.account_name or "")
        self.phone.setText(account.account_phone or "")
        self.remark.setText(account.account_remark or "")
        self.language.set_code(account.default_language)
        self.timezone.set_code(account.default_timezone)
        self.country.set_code(account.default_country)
        for edit in (self.name, self.phone, self.remark):
            edit.textChanged.connect(self._validate)
        for picker in (self.language, self.timezone, self.country):
            picker.editTextChanged.connect(self._validate)
        self._busy = False
        self.retranslateUi()
        self._validate()

    def field(self, key: str) -> QWidget:
        """The control of a field key."""
        widget: QWidget = getattr(self, key)
        return widget

    def set_choices(self, key: str, items: Iterable[tuple[str, str | None]]) -> None:
        """Fill a picker (language, timezone, country) with (code, label) pairs."""
        picker = self.field(key)
        assert isinstance(picker, Picker)
        picker.set_items(items)
        self._validate()

    def values(self) -> dict[str, str | None]:
        """Every field as entered (client keywords)."""
        return {
            "account_name": self.name.text().strip(),
            "account_phone": self.phone.text().strip(),
            "account_remark": self.remark.text().strip(),
            "default_language": self.language.code(),
            "default_timezone": self.timezone.code(),
            "default_country": self.country.code(),
        }

    def changes(self) -> dict[str, str]:
        """The fields that differ from the account (client keywords -> new value)."""
        out: dict[str, str] = {}
        values = self.values()
        for keyword, attribute in FIELDS.values():
            new = values[keyword]
            old = getattr(self.account, attribute, None) or ""
            if new is not None and new != old:
                out[keyword] = new
        return out

    def problem(self) -> str | None:
        """Why Save is disabled, or None."""
        if not self.name.text().strip():
            return QCoreApplication.translate("AccountsPanel", "The name is required.")
        if not self.changes():
            return QCoreApplication.translate("AccountsPanel", "Nothing has changed.")
        return None

    def set_busy(self, busy: bool) -> None:
        """While saving: controls disabled."""
        self._busy = busy
        for key in FIELDS:
            self.field(key).setEnabled(not busy)
        self._validate()

    def show_error(self, info: Any) -> None:
        """Show a failed save inside the dialog (the input stays)."""
        self.message.show_error(info)

    def _validate(self, *_args: object) -> None:
        problem = self.problem()
        self.save_button.setEnabled(problem is None and not self._busy)
        self.save_button.setToolTip(plain_tooltip(problem or ""))

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("AccountsPanel", "Edit account"))
        self.heading.setText(
            fill(
                QCoreApplication.translate("AccountsPanel", "Edit the account %1"),
                account_name(self.account),
            )
        )
        texts = {
            "name": (
                QCoreApplication.translate("AccountsPanel", "&Name:"),
                QCoreApplication.translate("AccountsPanel", "Account name"),
            ),
            "phone": (
                QCoreApplication.translate("AccountsPanel", "&Phone:"),
                QCoreApplication.translate("AccountsPanel", "Phone number"),
            ),
            "remark": (
                QCoreApplication.translate("AccountsPanel", "&Remark:"),
                QCoreApplication.translate("AccountsPanel", "Remark"),
            ),
            "language": (
                QCoreApplication.translate("AccountsPanel", "&Language:"),
                QCoreApplication.translate("AccountsPanel", "Default language"),
            ),
            "timezone": (
                QCoreApplication.translate("AccountsPanel", "&Time zone:"),
                QCoreApplication.translate("AccountsPanel", "Default time zone"),
            ),
            "country": (
                QCoreApplication.translate("AccountsPanel", "&Country:"),
                QCoreApplication.translate("AccountsPanel", "Default country"),
            ),
        }
        for key, (label, accessible) in texts.items():
            self.labels[key].setText(label)
            self.field(key).setAccessibleName(accessible)
        self.language.setToolTip(
            QCoreApplication.translate(
                "AccountsPanel", "Type to search; a code not in the list is sent as typed"
            )
        )
        self.timezone.setToolTip(
            QCoreApplication.translate("AccountsPanel", "Type to search, e.g. Tokyo or UTC+9")
        )
        self.country.setToolTip(
            QCoreApplication.translate("AccountsPanel", "Type to search, e.g. Japan or JP")
        )
        self.save_button.setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Save the changes")
        )
        self.cancel_button.setAccessibleName(QCoreApplication.translate("AccountsPanel", "Cancel"))
        self.heading.setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Account being edited")
        )
        self._validate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
