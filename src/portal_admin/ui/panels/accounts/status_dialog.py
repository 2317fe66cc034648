"""Confirmation of an account status change: names the account, optional reason."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.profiles.store import Profile, environment_label
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel

from ...enum_labels import ACCOUNT_STATUS
from .account_text import action_confirm, action_question
from .common import enum_text

#: The server accepts a reason of at most this many characters.
REASON_MAX = 500


class StatusChangeDialog(QDialog):
    """Asks before ACTIVATE, SUSPEND or DEACTIVATE; Cancel is the default button."""

    def __init__(
        self,
        action: str,
        account: Any,
        target_label: str,
        profile: Profile | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("accountStatusDialog")
        self.action = action
        self.account = account
        self._target = target_label
        self._profile = profile
        icon = PlainLabel(self)
        icon.setPixmap(
            self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(40, 40)
        )
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.question = PlainLabel(self)
        self.question.setObjectName("statusQuestion")
        self.question.setWordWrap(True)
        self.question.setTextFormat(Qt.TextFormat.PlainText)
        self.change = PlainLabel(self)
        self.change.setObjectName("statusChange")
        self.change.setTextFormat(Qt.TextFormat.PlainText)
        self.production = PlainLabel(self)
        self.production.setWordWrap(True)
        set_tone(self.production, "error")
        self.production.setStyleSheet("font-weight: bold;")
        self.production.setVisible(bool(profile and profile.environment.needs_confirmation))
        self.reason = QLineEdit(self)
        self.reason.setObjectName("statusReason")
        self.reason.setMaxLength(REASON_MAX)
        self.reason_label = PlainLabel(self)
        self.reason_label.setBuddy(self.reason)
        form = QFormLayout()
        form.addRow(self.reason_label, self.reason)
        self.buttons = QDialogButtonBox(self)
        self.confirm_button = QPushButton(self)
        self.confirm_button.setObjectName("statusConfirm")
        self.buttons.addButton(self.confirm_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setDefault(True)
        self.confirm_button.setAutoDefault(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        text = QVBoxLayout()
        text.addWidget(self.question)
        text.addWidget(self.change)
        text.addWidget(self.production)
        text.addLayout(form)
        top = QHBoxLayout()
        top.addWidget(icon)
        top.addLayout(text, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(500)
        self.retranslateUi()

    def reason_text(self) -> str | None:
        """The reason typed, or None."""
        return self.reason.text().strip() or None

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(action_confirm(self.action))
        self.question.setText(action_question(self.action, self.account))
        self.change.setText(
            fill(
                QCoreApplication.translate("AccountsPanel", "Status: %1 \u2192 %2"),
                enum_text(self.account.account_status, ACCOUNT_STATUS),
                self._target,
            )
        )
        if self._profile is not None:
            self.production.setText(
                fill(
                    QCoreApplication.translate(
                        "AccountsPanel", "This changes the %1 server \u201c%2\u201d."
                    ),
                    environment_label(self._profile.environment),
                    self._profile.name,
                )
            )
        self.reason_label.setText(
            QCoreApplication.translate("AccountsPanel", "&Reason (optional):")
        )
        self.reason.setPlaceholderText(
            QCoreApplication.translate("AccountsPanel", "Why, for the audit trail")
        )
        self.confirm_button.setText(action_confirm(self.action))
        self.confirm_button.setAccessibleName(action_confirm(self.action))
        self.cancel_button.setAccessibleName(QCoreApplication.translate("AccountsPanel", "Cancel"))
        self.reason.setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Reason for the status change")
        )
        self.question.setAccessibleName(QCoreApplication.translate("AccountsPanel", "Question"))
        self.change.setAccessibleName(QCoreApplication.translate("AccountsPanel", "Status change"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
