"""The account detail pane: every field, copy of the id, and the actions with their reasons."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.message_bar import MessageBar
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from ...enum_labels import ACCOUNT_STATUS, PORTAL_TYPE, Kind
from ...error_info import ErrorInfo
from .account_text import STATUS_ACTIONS, action_text
from .common import enum_code, enum_text

EDIT = "EDIT"
RESET = "RESET"


@dataclass(frozen=True, slots=True)
class ActionState:
    """One action offered for the shown account; ``reason`` says why it is disabled."""

    name: str
    reason: str | None = None

    @property
    def enabled(self) -> bool:
        """True when the action may be tried."""
        return self.reason is None


_ROWS = (
    "email", "name", "status", "portal", "phone", "remark", "language", "timezone",
    "country", "institution", "created", "updated",
)  # fmt: skip


class AccountDetail(QWidget):
    """Shows one account; ``actionRequested`` carries ACTIVATE/SUSPEND/DEACTIVATE/EDIT/RESET."""

    actionRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("accountDetail")
        self.account: Any = None
        self.heading = PlainLabel(self)
        self.heading.setObjectName("detailHeading")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-size: 12pt; font-weight: bold;")
        self.placeholder = PlainLabel(self)
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message = MessageBar(self)

        self.id_field = QLineEdit(self)
        self.id_field.setObjectName("detailId")
        self.id_field.setReadOnly(True)
        self.copy_button = QToolButton(self)
        self.copy_button.setObjectName("detailCopyId")
        self.copy_button.clicked.connect(self.copy_id)
        id_row = QHBoxLayout()
        id_row.addWidget(self.id_field, 1)
        id_row.addWidget(self.copy_button)

        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.id_label = PlainLabel(self)
        self.form.addRow(self.id_label, id_row)
        self.labels: dict[str, QLabel] = {}
        self.values: dict[str, QLabel] = {}
        for key in _ROWS:
            label, value = PlainLabel(self), PlainLabel(self)
            value.setObjectName(f"detail-{key}")
            value.setTextFormat(Qt.TextFormat.PlainText)
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setBuddy(value)
            self.labels[key], self.values[key] = label, value
            self.form.addRow(label, value)

        self.buttons: dict[str, QPushButton] = {}
        status_row, other_row = QHBoxLayout(), QHBoxLayout()
        for name in (*STATUS_ACTIONS, EDIT, RESET):
            button = QPushButton(self)
            button.setObjectName(f"action-{name.lower()}")
            button.clicked.connect(lambda _=False, n=name: self.actionRequested.emit(n))
            self.buttons[name] = button
            (status_row if name in STATUS_ACTIONS else other_row).addWidget(button)
        status_row.addStretch(1)
        other_row.addStretch(1)
        actions = QVBoxLayout()
        actions.addLayout(status_row)
        actions.addLayout(other_row)
        self.reasons = PlainLabel(self)
        self.reasons.setObjectName("detailReasons")
        self.reasons.setWordWrap(True)
        self.reasons.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.reasons, "muted")

        self.body = QWidget(self)
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.heading)
        body.addLayout(self.form)
        body.addLayout(actions)
        body.addWidget(self.reasons)
        body.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        layout.addWidget(self.message)
        layout.addWidget(self.placeholder, 1)
        layout.addWidget(scroll, 1)
        self._scroll = scroll
        self._actions: list[ActionState] = []
        self.setMinimumWidth(260)  # the table beside it gets the rest
        self.retranslateUi()
        self.set_account(None, [])

    # -- showing -------------------------------------------------------------------------------

    def focus_first_action(self) -> None:
        """Move the keyboard focus into the detail: its first enabled action, else its id."""
        for button in self.buttons.values():
            if button.isVisible() and button.isEnabled():
                button.setFocus(Qt.FocusReason.OtherFocusReason)
                return
        self.id_field.setFocus(Qt.FocusReason.OtherFocusReason)

    def set_account(self, account: Any, actions: list[ActionState]) -> None:
        """Show ``account`` (None: nothing chosen) with the actions offered for it."""
        self.account = account
        self._actions = list(actions)
        self._scroll.setVisible(account is not None)
        self.placeholder.setVisible(account is None)
        if account is None:
            self.id_field.clear()
            return
        self.heading.setText(account.account_name or account.account_email or account.biz_id)
        self.id_field.setText(account.biz_id)
        values = {
            "email": account.account_email,
            "name": account.account_name,
            "status": self._enum(account.account_status, ACCOUNT_STATUS),
            "portal": self._enum(account.account_portal, PORTAL_TYPE),
            "phone": account.account_phone,
            "remark": account.account_remark,
            "language": account.default_language,
            "timezone": account.default_timezone,
            "country": account.default_country,
            "institution": account.institution_biz_id,
            "created": format_datetime(account.created_at),
            "updated": format_datetime(account.updated_at),
        }
        for key, value in values.items():
            self.values[key].setText("" if value is None else str(value))
        offered = {a.name: a for a in actions}
        for name, button in self.buttons.items():
            state = offered.get(name)
            button.setVisible(state is not None)
            button.setEnabled(state is not None and state.enabled)
            button.setToolTip(plain_tooltip(state.reason or "" if state else ""))
        reasons = sorted({a.reason for a in actions if a.reason})
        self.reasons.setText("\n".join(reasons))
        self.reasons.setVisible(bool(reasons))

    @staticmethod
    def _enum(item: Any, kind: Kind) -> str:
        text, code = enum_text(item, kind), enum_code(item)
        return f"{text} ({code})" if code and text != code else text

    def show_error(self, info: ErrorInfo) -> None:
        """Show a failure (e.g. the account was not found)."""
        self.message.show_error(info)

    def show_notice(self, text: str) -> None:
        """Show a success text."""
        self.message.show_notice(text)

    def copy_id(self) -> None:
        """Copy the account's business id."""
        if self.id_field.text():
            QGuiApplication.clipboard().setText(self.id_field.text())

    # -- language ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.placeholder.setText(
            QCoreApplication.translate("AccountsPanel", "Choose an account to see its details.")
        )
        self.id_label.setText(QCoreApplication.translate("AccountsPanel", "Id:"))
        self.copy_button.setText(QCoreApplication.translate("AccountsPanel", "Copy id"))
        # the scroll area takes the focus (to scroll with the keys): a screen reader names it
        self._scroll.setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Account details")
        )
        self.copy_button.setToolTip(
            QCoreApplication.translate("AccountsPanel", "Copy the account id to the clipboard")
        )
        self.copy_button.setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Copy the account id")
        )
        self.id_field.setAccessibleName(QCoreApplication.translate("AccountsPanel", "Account id"))
        titles = {
            "email": QCoreApplication.translate("AccountsPanel", "Email:"),
            "name": QCoreApplication.translate("AccountsPanel", "Name:"),
            "status": QCoreApplication.translate("AccountsPanel", "Status:"),
            "portal": QCoreApplication.translate("AccountsPanel", "Portal:"),
            "phone": QCoreApplication.translate("AccountsPanel", "Phone:"),
            "remark": QCoreApplication.translate("AccountsPanel", "Remark:"),
            "language": QCoreApplication.translate("AccountsPanel", "Language:"),
            "timezone": QCoreApplication.translate("AccountsPanel", "Time zone:"),
            "country": QCoreApplication.translate("AccountsPanel", "Country:"),
            "institution": QCoreApplication.translate("AccountsPanel", "Institution:"),
            "created": QCoreApplication.translate("AccountsPanel", "Created:"),
            "updated": QCoreApplication.translate("AccountsPanel", "Updated:"),
        }
        for key, text in titles.items():
            self.labels[key].setText(text)
            self.values[key].setAccessibleName(text.rstrip(":"))
        for name in STATUS_ACTIONS:
            self.buttons[name].setText(action_text(name))
            self.buttons[name].setAccessibleName(action_text(name))
        self.buttons[EDIT].setText(QCoreApplication.translate("AccountsPanel", "Edit\u2026"))
        self.buttons[EDIT].setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Edit the account")
        )
        self.buttons[RESET].setText(
            QCoreApplication.translate("AccountsPanel", "Reset password\u2026")
        )
        self.buttons[RESET].setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Send a password reset link")
        )
        self.heading.setAccessibleName(QCoreApplication.translate("AccountsPanel", "Account"))
        self.reasons.setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Why actions are unavailable")
        )
        self.placeholder.setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "No account chosen")
        )
        self.setAccessibleName(QCoreApplication.translate("AccountsPanel", "Account details"))
        if self.account is not None:
            self.set_account(self.account, self._actions)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
