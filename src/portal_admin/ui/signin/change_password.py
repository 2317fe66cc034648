"""Password change for a signed-in person: ``PasswordChangeFlow`` and its dialog."""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.widgets.error_line import ErrorLine
from portal_admin.ui.widgets.plain import PlainLabel

from ..operations import Op, OperationRunner
from ..session.client_service import ClientService
from . import validation
from .controller import FormController
from .forms import BusyBar, NoticeLabel, heading, line_edit, paragraph

log = logging.getLogger(__name__)


class PasswordChangeFlow(FormController):
    """Changes the signed-in account's password (current + new twice)."""

    changed = Signal()

    def __init__(self, service: ClientService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service

    async def submit(self, current: str, new: str, repeat: str) -> bool:
        """Check the fields, then ask the server to change the password."""
        problem = validation.check_required(
            current, QCoreApplication.translate("ChangePassword", "Enter your current password.")
        ) or validation.check_new_password(new, repeat)
        if not problem and new == current:
            problem = QCoreApplication.translate(
                "ChangePassword", "The new password must differ from the current one."
            )
        if problem:
            return self.fail(problem)

        async def change() -> object:
            return await self.service.client.auth.change_password(current, new)

        if not (await self.attempt(change)).ok:
            return False
        log.info("password changed")
        self.set_notice(QCoreApplication.translate("ChangePassword", "Your password was changed."))
        self.changed.emit()
        return True


class ChangePasswordDialog(QDialog):
    """Current password and the new one twice; opened with ``open()`` (no nested loop)."""

    def __init__(
        self,
        flow: PasswordChangeFlow,
        *,
        runner: OperationRunner | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.flow = flow
        self.runner = runner or OperationRunner(parent=self)
        self.setObjectName("changePasswordDialog")
        self.title = heading(self, "changePasswordHeading")
        self.intro = paragraph(self, "changePasswordIntro")
        self.current_label, self.new_label, self.repeat_label = (
            PlainLabel(self),
            PlainLabel(self),
            PlainLabel(self),
        )
        self.current = line_edit(self, "currentPasswordEdit", password=True)
        self.new = line_edit(self, "newPasswordEdit", password=True)
        self.repeat = line_edit(self, "repeatPasswordEdit", password=True)
        self.rule = paragraph(self, "passwordRule")
        form = QFormLayout()
        for label, edit in (
            (self.current_label, self.current),
            (self.new_label, self.new),
            (self.repeat_label, self.repeat),
        ):
            label.setBuddy(edit)
            form.addRow(label, edit)
        self.notice = NoticeLabel(self)
        self.error = ErrorLine(self)
        self.busy = BusyBar(self)
        self.buttons = QDialogButtonBox(self)
        self.submit_button = QPushButton(self)
        self.submit_button.setObjectName("changePasswordButton")
        self.submit_button.setDefault(True)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.close_button.setObjectName("changePasswordCloseButton")
        self.buttons.addButton(self.submit_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.intro)
        layout.addLayout(form)
        layout.addWidget(self.rule)
        layout.addWidget(self.notice)
        layout.addWidget(self.error)
        layout.addWidget(self.busy)
        layout.addWidget(self.buttons)
        self.submit_button.clicked.connect(self._submit_clicked)
        self.buttons.rejected.connect(self.reject)
        flow.busyChanged.connect(self._set_busy)
        flow.errorChanged.connect(self.error.show_error)
        flow.noticeChanged.connect(self.notice.show_notice)
        self.setMinimumWidth(480)
        self.retranslateUi()

    def _submit_clicked(self) -> None:
        self.runner.run(Op(self.submit, progress=False, parent=self))

    async def submit(self) -> bool:
        """Send the change; on success the fields are cleared and the dialog says so."""
        ok = await self.flow.submit(self.current.text(), self.new.text(), self.repeat.text())
        if ok:
            for edit in (self.current, self.new, self.repeat):
                edit.clear()
            self.submit_button.setEnabled(False)
            self.close_button.setText(QCoreApplication.translate("ChangePassword", "Close"))
        return ok

    def _set_busy(self, busy: bool) -> None:
        self.busy.set_busy(busy)
        self.submit_button.setEnabled(not busy)

    def retranslateUi(self) -> None:
        """Set every text in the current language."""
        self.setWindowTitle(QCoreApplication.translate("ChangePassword", "Change password"))
        self.title.setText(QCoreApplication.translate("ChangePassword", "Change your password"))
        self.intro.setText(
            QCoreApplication.translate(
                "ChangePassword", "Enter your current password, then the new one twice."
            )
        )
        self.current_label.setText(
            QCoreApplication.translate("ChangePassword", "&Current password:")
        )
        self.new_label.setText(QCoreApplication.translate("ChangePassword", "&New password:"))
        self.repeat_label.setText(QCoreApplication.translate("ChangePassword", "&Repeat it:"))
        self.rule.setText(validation.password_rule())
        self.submit_button.setText(QCoreApplication.translate("ChangePassword", "Change password"))
        self.close_button.setText(
            QCoreApplication.translate("ChangePassword", "Close")
            if self.flow.notice
            else QCoreApplication.translate("ChangePassword", "Cancel")
        )
        self.current.setAccessibleName(
            QCoreApplication.translate("ChangePassword", "Current password")
        )
        self.new.setAccessibleName(QCoreApplication.translate("ChangePassword", "New password"))
        self.new.setAccessibleDescription(validation.password_rule())
        self.repeat.setAccessibleName(
            QCoreApplication.translate("ChangePassword", "Repeat the new password")
        )
        self.submit_button.setAccessibleName(
            QCoreApplication.translate("ChangePassword", "Change the password")
        )
        self.close_button.setAccessibleName(
            QCoreApplication.translate("ChangePassword", "Close this dialog")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
