"""The create and cancel dialogs of the invitations panel (opened with ``open()``, never exec)."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from portal_admin.protocol.bodies import (
    CANCEL_REASON,
    DEFAULT_EXPIRATION_DAYS,
    EXPIRATION_DAYS,
    INVITATION_MESSAGE,
    INVITEE_EMAIL,
)
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.profiles.store import Profile, environment_label
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.error_line import ErrorLine
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from ...error_info import ErrorInfo

#: The bounds the wire description states (``protocol.bodies``): 1 to 30 days, default 7.
(MIN_DAYS, MAX_DAYS), DEFAULT_DAYS = EXPIRATION_DAYS, DEFAULT_EXPIRATION_DAYS
MAX_EMAIL, MAX_MESSAGE, MAX_REASON = INVITEE_EMAIL, INVITATION_MESSAGE, CANCEL_REASON

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")


def check_invitee_email(email: str) -> str | None:
    """A translated problem with an invitee's email address, or None when it looks valid."""
    email = email.strip()
    if not email:
        return QCoreApplication.translate(
            "InvitationDialogs", "Enter the email address of the person to invite."
        )
    if len(email) > MAX_EMAIL:
        return fill(
            QCoreApplication.translate(
                "InvitationDialogs", "The email address is longer than %1 characters."
            ),
            MAX_EMAIL,
        )
    if not _EMAIL.match(email):
        return QCoreApplication.translate(
            "InvitationDialogs", "This is not a valid email address (expected name@example.com)."
        )
    return None


def _problem_label(parent: QWidget, name: str) -> QLabel:
    label = PlainLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if name == "hint":
        label.setStyleSheet("color: palette(link);")
    else:
        set_tone(label, "error")
    label.hide()
    return label


def _stacked(parent: QWidget, *widgets: QWidget) -> QWidget:
    """Widgets one under the other, as one form field (a hidden one takes no room)."""
    box = QWidget(parent)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    for widget in widgets:
        layout.addWidget(widget)
    return box


class CreateInvitationDialog(QDialog):
    """Email (checked as you type), message and expiry days; stays open on a server error."""

    #: The person pressed Invite with valid input: the panel sends it.
    submitRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("invitationCreateDialog")
        self.setModal(True)
        self.setMinimumWidth(480)
        self.email = QLineEdit(self)
        self.email.setObjectName("inviteeEmail")
        self.email.setMaxLength(MAX_EMAIL)
        self.email.setPlaceholderText("name@example.com")
        self.email_problem = _problem_label(self, "emailProblem")
        self.message = QPlainTextEdit(self)
        self.message.setObjectName("invitationMessage")
        self.message.setTabChangesFocus(True)
        self.message.setFixedHeight(80)
        self.message_count = PlainLabel(self)
        self.message_count.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.days = QSpinBox(self)
        self.days.setObjectName("expirationDays")
        self.days.setRange(MIN_DAYS, MAX_DAYS)
        self.days.setValue(DEFAULT_DAYS)
        self.error = ErrorLine(self)
        self.error.setObjectName("serverError")
        self.buttons = QDialogButtonBox(self)
        self.invite_button: QPushButton = self.buttons.addButton(
            "", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.invite_button.setObjectName("inviteButton")
        self.invite_button.setDefault(True)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._submit_clicked)
        self.buttons.rejected.connect(self.reject)

        self.form = QFormLayout()
        self.email_label, self.message_label, self.days_label = (
            PlainLabel(),
            PlainLabel(),
            PlainLabel(),
        )
        for label, field in (
            (self.email_label, self.email),
            (self.message_label, self.message),
            (self.days_label, self.days),
        ):
            label.setBuddy(field)
        self.form.addRow(self.email_label, _stacked(self, self.email, self.email_problem))
        self.form.addRow(self.message_label, _stacked(self, self.message, self.message_count))
        self.form.addRow(self.days_label, self.days)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

        self._busy = False
        self._touched = False
        self.email.textEdited.connect(self._email_edited)
        self.email.textChanged.connect(self._validate)
        self.message.textChanged.connect(self._validate)
        self.retranslateUi()
        self._validate()

    # -- values --------------------------------------------------------------------------------

    def values(self) -> tuple[str, str | None, int]:
        """Email, message (None when empty) and days, as entered."""
        message = self.message.toPlainText().strip()
        return self.email.text().strip(), message or None, self.days.value()

    def problem(self) -> str | None:
        """What keeps the input from being sent, or None."""
        problem = check_invitee_email(self.email.text())
        if problem:
            return problem
        if len(self.message.toPlainText()) > MAX_MESSAGE:
            return fill(
                QCoreApplication.translate(
                    "InvitationDialogs", "The message is longer than %1 characters."
                ),
                MAX_MESSAGE,
            )
        return None

    # -- state ---------------------------------------------------------------------------------

    def set_busy(self, busy: bool) -> None:
        """While sending: inputs and buttons disabled."""
        self._busy = busy
        self.email.setReadOnly(busy)
        self.message.setReadOnly(busy)
        self.days.setReadOnly(busy)
        self._validate()

    def show_error(self, info: ErrorInfo) -> None:
        """The server refused: show why; everything entered stays."""
        self.error.show_error(info)
        self.email.setFocus()

    def _email_edited(self, _text: str) -> None:
        self._touched = True

    def _validate(self) -> None:
        problem = self.problem()
        self.invite_button.setEnabled(problem is None and not self._busy)
        email_problem = check_invitee_email(self.email.text())
        show = email_problem is not None and (self._touched or bool(self.email.text()))
        self.email_problem.setText(email_problem or "")
        self.email_problem.setVisible(show)
        self.email.setAccessibleDescription(email_problem or "")
        count = len(self.message.toPlainText())
        self.message_count.setText(
            fill(
                QCoreApplication.translate("InvitationDialogs", "%1 / %2 characters"),
                count,
                MAX_MESSAGE,
            )
        )

    def _submit_clicked(self) -> None:
        if self.problem() is None and not self._busy:
            self.submitRequested.emit()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("InvitationDialogs", "Invite someone"))
        self.email_label.setText(QCoreApplication.translate("InvitationDialogs", "&Email:"))
        self.message_label.setText(QCoreApplication.translate("InvitationDialogs", "&Message:"))
        self.days_label.setText(QCoreApplication.translate("InvitationDialogs", "E&xpires after:"))
        self.days.setSuffix(QCoreApplication.translate("InvitationDialogs", " days"))
        self.days.setToolTip(
            plain_tooltip(
                fill(
                    QCoreApplication.translate("InvitationDialogs", "Between %1 and %2 days"),
                    MIN_DAYS,
                    MAX_DAYS,
                )
            )
        )
        self.email.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Invitee email")
        )
        self.message.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Invitation message")
        )
        self.message.setPlaceholderText(
            QCoreApplication.translate(
                "InvitationDialogs", "Optional message shown in the invitation email"
            )
        )
        self.days.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Expiration in days")
        )
        self.invite_button.setText(QCoreApplication.translate("InvitationDialogs", "Invite"))
        self.invite_button.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Send invitation")
        )
        self.cancel_button.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Cancel")
        )
        self.email_problem.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Email problem")
        )
        self.error.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Server error")
        )
        self._validate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


class CancelInvitationDialog(QDialog):
    """Asks before cancelling, naming the invitee; an optional reason (≤ 500 characters)."""

    def __init__(
        self, invitee: str, parent: QWidget | None = None, profile: Profile | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("invitationCancelDialog")
        self.setModal(True)
        self.setMinimumWidth(440)
        self._invitee = invitee
        self._profile = profile
        self.question = PlainLabel(self)
        self.question.setObjectName("cancelQuestion")
        self.question.setWordWrap(True)
        self.question.setTextFormat(Qt.TextFormat.PlainText)
        self.production = PlainLabel(self)
        self.production.setObjectName("productionWarning")
        self.production.setWordWrap(True)
        self.production.setTextFormat(Qt.TextFormat.PlainText)
        self.production.setVisible(profile is not None and profile.environment.needs_confirmation)
        self.reason_label = PlainLabel(self)
        self.reason = QLineEdit(self)
        self.reason.setObjectName("cancelReason")
        self.reason.setMaxLength(MAX_REASON)
        self.reason_label.setBuddy(self.reason)
        self.buttons = QDialogButtonBox(self)
        self.confirm_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.confirm_button.setObjectName("confirmCancel")
        self.keep_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.RejectRole)
        self.keep_button.setObjectName("keepInvitation")
        self.keep_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.question)
        layout.addWidget(self.production)
        layout.addWidget(self.reason_label)
        layout.addWidget(self.reason)
        layout.addWidget(self.buttons)
        self.retranslateUi()

    def reason_text(self) -> str:
        """The reason as entered (trimmed)."""
        return self.reason.text().strip()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("InvitationDialogs", "Cancel invitation"))
        self.question.setText(
            fill(
                QCoreApplication.translate(
                    "InvitationDialogs",
                    "Cancel the invitation to %1? They will no longer be able to accept it. "
                    "This cannot be undone.",
                ),
                self._invitee,
            )
        )
        if self._profile is not None:
            self.production.setText(
                fill(
                    QCoreApplication.translate(
                        "InvitationDialogs", "This changes the %1 server \u201c%2\u201d."
                    ),
                    environment_label(self._profile.environment),
                    self._profile.name,
                )
            )
        self.reason_label.setText(
            QCoreApplication.translate("InvitationDialogs", "&Reason (optional):")
        )
        self.reason.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Reason for cancelling")
        )
        self.reason.setPlaceholderText(
            QCoreApplication.translate(
                "InvitationDialogs", "For example: sent to the wrong address"
            )
        )
        self.confirm_button.setText(
            QCoreApplication.translate("InvitationDialogs", "Cancel invitation")
        )
        self.confirm_button.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Cancel invitation")
        )
        self.keep_button.setText(QCoreApplication.translate("InvitationDialogs", "Keep invitation"))
        self.keep_button.setAccessibleName(
            QCoreApplication.translate("InvitationDialogs", "Keep invitation")
        )
        self.question.setAccessibleName(QCoreApplication.translate("InvitationDialogs", "Question"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
