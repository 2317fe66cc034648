"""The create/update dialog of a notification channel, with its settings editor.

Save emits ``saveRequested`` and Test connection ``testRequested``; the controller checks
mail settings with the server first and shows its verdict here. A failed save leaves the
dialog open with everything typed (the password only in memory, in its field).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.error_line import ErrorLine
from portal_admin.ui.widgets.plain import PlainLabel

from ...error_info import ErrorInfo, describe_error
from . import validation as check
from .common import Choice, code_of, label_of
from .settings_forms import EmailSettings, SettingsEditor, editor_for

_C = "ChannelDialog"

#: (protocol, keyword arguments of the client's validate operation)
MailCheck = tuple[str, dict[str, Any]]


class ChannelDialog(QDialog):
    """Name, category, institution, description, default flag, status, and settings."""

    saveRequested = Signal(object)
    testRequested = Signal(object)

    def __init__(
        self,
        record: Any = None,
        *,
        categories: list[Choice] | None = None,
        statuses: list[Choice] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.record = record
        self.setObjectName("channelDialog")
        self.setModal(True)
        self.name_edit = QLineEdit(self)
        self.name_edit.setObjectName("channelNameEdit")
        self.category_combo = QComboBox(self)
        self.category_combo.setObjectName("channelCategoryCombo")
        self.institution_edit = QLineEdit(self)
        self.institution_edit.setObjectName("institutionEdit")
        self.description_edit = QLineEdit(self)
        self.description_edit.setObjectName("channelDescriptionEdit")
        self.default_check = QCheckBox(self)
        self.default_check.setObjectName("isDefaultCheck")
        self.status_combo = QComboBox(self)
        self.status_combo.setObjectName("channelStatusCombo")
        if record is None:
            for code, text in categories or []:
                self.category_combo.addItem(text, code)
            for code, text in statuses or [("ACTIVE", "ACTIVE"), ("INACTIVE", "INACTIVE")]:
                self.status_combo.addItem(text, code)
        else:
            self.category_combo.addItem(
                label_of(record.channel_category), code_of(record.channel_category)
            )
            self.category_combo.setEnabled(False)
            self.institution_edit.setText(record.institution_biz_id or "")
            self.institution_edit.setReadOnly(True)
            self.status_combo.addItem(
                label_of(record.channel_status), code_of(record.channel_status)
            )
            self.status_combo.setEnabled(False)

        self.form = QFormLayout()
        self._labels: list[QLabel] = []
        for field in (
            self.name_edit,
            self.category_combo,
            self.institution_edit,
            self.description_edit,
            self.status_combo,
        ):
            label = PlainLabel(self)
            label.setBuddy(field)
            self._labels.append(label)
            self.form.addRow(label, field)
        self.form.addRow("", self.default_check)

        self.settings_title = PlainLabel(self)
        self.settings_title.setStyleSheet("font-weight: bold;")
        self.settings_area = QScrollArea(self)
        self.settings_area.setWidgetResizable(True)
        self.settings_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.settings: SettingsEditor

        self.verdict_label = PlainLabel(self)
        self.verdict_label.setObjectName("validationVerdict")
        self.verdict_label.setWordWrap(True)
        self.verdict_label.setTextFormat(Qt.TextFormat.PlainText)
        self.verdict_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict_label.hide()
        self.problems_label = PlainLabel(self)
        self.problems_label.setObjectName("problemsLabel")
        self.problems_label.setWordWrap(True)
        self.problems_label.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.problems_label, "warning")
        self.error_label = ErrorLine(self)

        self.buttons = QDialogButtonBox(self)
        self.test_button = QPushButton(self)
        self.test_button.setObjectName("testConnectionButton")
        self.save_button = QPushButton(self)
        self.save_button.setObjectName("saveButton")
        self.save_button.setDefault(True)
        self.buttons.addButton(self.test_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.rejected.connect(self.reject)
        self.save_button.clicked.connect(lambda: self.saveRequested.emit(self))
        self.test_button.clicked.connect(lambda: self.testRequested.emit(self))

        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.settings_title)
        layout.addWidget(self.settings_area, 1)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.verdict_label)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.resize(560, 720)

        self._busy = False
        self._verdicts: list[tuple[str, Any]] = []
        if record is not None:
            self.name_edit.setText(record.channel_name or "")
            self.description_edit.setText(record.description or "")
            self.default_check.setChecked(bool(record.is_default))
        self._set_editor(self.category())
        if record is not None:
            self.settings.load(record.config)
        self.name_edit.textChanged.connect(self.revalidate)
        self.description_edit.textChanged.connect(self.revalidate)
        self.category_combo.currentIndexChanged.connect(self._category_changed)
        self.retranslateUi()

    # -- state -----------------------------------------------------------------------------

    @property
    def creating(self) -> bool:
        """True for a new channel."""
        return self.record is None

    def category(self) -> str | None:
        """The chosen category (a channel type code)."""
        data = self.category_combo.currentData()
        return str(data) if data is not None else None

    @property
    def email(self) -> EmailSettings | None:
        """The mail settings editor, for EMAIL channels."""
        return self.settings if isinstance(self.settings, EmailSettings) else None

    def _category_changed(self) -> None:
        self._set_editor(self.category())
        self.retranslateUi()

    def _set_editor(self, category: str | None) -> None:
        old = self.settings_area.takeWidget()
        self.settings = editor_for(category, self)
        self.settings.setObjectName("settingsEditor")
        self.settings.changed.connect(self.revalidate)
        self.settings.changed.connect(self.clear_verdicts)
        self.settings_area.setWidget(self.settings)
        if old is not None:
            old.deleteLater()
        self.clear_verdicts()

    # -- input -----------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """What keeps the input from being sent (translated)."""
        found = check.required(
            QCoreApplication.translate("ChannelDialog", "Name"),
            self.name_edit.text(),
            check.MAX_NAME,
        )
        if self.creating and self.category() is None:
            found.append(QCoreApplication.translate("ChannelDialog", "Choose a category."))
        found += check.optional(
            QCoreApplication.translate("ChannelDialog", "Description"),
            self.description_edit.text(),
            check.MAX_DESCRIPTION,
        )
        return found + self.settings.problems()

    def values(self) -> dict[str, Any]:
        """The fields to send (snake_case keyword arguments of the client)."""
        fields: dict[str, Any] = {
            "channel_name": self.name_edit.text().strip(),
            "description": self.description_edit.text().strip(),
            "is_default": self.default_check.isChecked(),
            "config": self.settings.config(),
        }
        if self.creating:
            fields["channel_category"] = self.category()
            fields["channel_status"] = self.status_combo.currentData()
            if self.institution_edit.text().strip():
                fields["institution_biz_id"] = self.institution_edit.text().strip()
            if not fields["description"]:
                del fields["description"]
        return fields

    def mail_checks(self) -> list[MailCheck]:
        """The server checks a save needs: SMTP (and IMAP when used) for EMAIL channels."""
        email = self.email
        if email is None:
            return []
        stored = {} if self.creating else {"channel_biz_id": self.record.biz_id}
        checks: list[MailCheck] = [("SMTP", {**stored, **email.smtp.check_arguments()})]
        if email.uses_imap:
            checks.append(("IMAP", {**stored, **email.imap.check_arguments()}))
        return checks

    def revalidate(self) -> None:
        """Show the problems of the input as it is typed; Save only when there are none."""
        found = self.problems()
        self.problems_label.setText("\n".join(found[:3]))
        self.problems_label.setVisible(bool(found))
        self.save_button.setEnabled(not found and not self._busy)
        self.test_button.setEnabled(not found and not self._busy)
        self.test_button.setVisible(self.email is not None)

    def set_busy(self, busy: bool) -> None:
        """While checking or saving: Save and Test disabled."""
        self._busy = busy
        self.revalidate()

    def show_error(self, info: ErrorInfo | None) -> None:
        """Show a failure inline (None hides it)."""
        self.error_label.show_error(info)

    def failed(self, exc: BaseException) -> bool:
        """An operation's failure handler: shown inline, so handled (True)."""
        self.show_error(describe_error(exc))
        return True

    def show_verdicts(self, verdicts: list[tuple[str, Any]]) -> None:
        """Show the server's answers to the mail-server checks."""
        self._verdicts = list(verdicts)
        self._render_verdicts()

    def clear_verdicts(self) -> None:
        """Forget shown verdicts (the settings changed)."""
        self._verdicts = []
        self._render_verdicts()

    def verdicts_passed(self) -> bool:
        """True when every shown verdict is valid."""
        return bool(self._verdicts) and all(bool(v.valid) for _, v in self._verdicts)

    def _render_verdicts(self) -> None:
        lines = []
        for protocol, verdict in self._verdicts:
            template = (
                QCoreApplication.translate("ChannelDialog", "\u2714 %1 check passed: %2")
                if verdict.valid
                else QCoreApplication.translate("ChannelDialog", "\u2718 %1 check failed: %2")
            )
            lines.append(fill(template, protocol, verdict.message or ""))
        self.verdict_label.setText("\n".join(lines))
        self.verdict_label.setVisible(bool(lines))
        passed = bool(self._verdicts) and self.verdicts_passed()
        set_tone(self.verdict_label, "success" if passed else "error")

    # -- text ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        name = self.record.channel_name if self.record is not None else ""
        self.setWindowTitle(
            QCoreApplication.translate("ChannelDialog", "New notification channel")
            if self.creating
            else fill(
                QCoreApplication.translate("ChannelDialog", "Edit channel \u201c%1\u201d"),
                name or "",
            )
        )
        for label, text, accessible in zip(
            self._labels,
            (
                QCoreApplication.translate("ChannelDialog", "&Name:"),
                QCoreApplication.translate("ChannelDialog", "&Category:"),
                QCoreApplication.translate("ChannelDialog", "&Institution:"),
                QCoreApplication.translate("ChannelDialog", "&Description:"),
                QCoreApplication.translate("ChannelDialog", "S&tatus:"),
            ),
            (
                QCoreApplication.translate("ChannelDialog", "Name"),
                QCoreApplication.translate("ChannelDialog", "Category"),
                QCoreApplication.translate("ChannelDialog", "Institution"),
                QCoreApplication.translate("ChannelDialog", "Description"),
                QCoreApplication.translate("ChannelDialog", "Status"),
            ),
            strict=True,
        ):
            label.setText(text)
            buddy = label.buddy()
            if buddy is not None:
                buddy.setAccessibleName(accessible)
        self.institution_edit.setPlaceholderText(
            QCoreApplication.translate("ChannelDialog", "Your institution")
        )
        self.default_check.setText(
            QCoreApplication.translate("ChannelDialog", "Default channel of its category")
        )
        self.default_check.setAccessibleName(
            QCoreApplication.translate("ChannelDialog", "Default channel")
        )
        self.settings_title.setText(QCoreApplication.translate("ChannelDialog", "Settings"))
        self.settings_area.setAccessibleName(
            QCoreApplication.translate("ChannelDialog", "Settings")
        )
        self.test_button.setText(QCoreApplication.translate("ChannelDialog", "&Test connection"))
        self.test_button.setAccessibleName(
            QCoreApplication.translate("ChannelDialog", "Test connection")
        )
        self.test_button.setToolTip(
            QCoreApplication.translate(
                "ChannelDialog", "Ask the server to check the mail-server settings"
            )
        )
        self.save_button.setText(QCoreApplication.translate("ChannelDialog", "Save"))
        self.save_button.setAccessibleName(QCoreApplication.translate("ChannelDialog", "Save"))
        self.save_button.setToolTip(
            QCoreApplication.translate(
                "ChannelDialog", "Checks the mail-server settings with the server, then saves"
            )
            if self.email is not None
            else ""
        )
        self.cancel_button.setText(QCoreApplication.translate("ChannelDialog", "Cancel"))
        self.cancel_button.setAccessibleName(QCoreApplication.translate("ChannelDialog", "Cancel"))
        self.verdict_label.setAccessibleName(
            QCoreApplication.translate("ChannelDialog", "Server check")
        )
        self.problems_label.setAccessibleName(
            QCoreApplication.translate("ChannelDialog", "Input problems")
        )
        self.error_label.retranslateUi()
        self._render_verdicts()
        self.revalidate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
