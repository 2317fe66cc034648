"""A non-modal error window: the localized message, the error code and request id (copyable)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.error_info import ErrorInfo
from portal_admin.ui.widgets.plain import PlainLabel


class ErrorDialog(QDialog):
    """Shows one :class:`ErrorInfo`; deletes itself when closed."""

    def __init__(self, info: ErrorInfo, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.info = info
        self._title = title
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setModal(False)
        self.setObjectName("errorDialog")

        icon = PlainLabel(self)
        icon.setPixmap(
            self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical).pixmap(40, 40)
        )
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.summary = PlainLabel(info.summary, self)
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setStyleSheet("font-weight: bold;")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message = PlainLabel(info.message, self)
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.setVisible(bool(info.message) and info.message != info.summary)

        form = QFormLayout()
        self.code_label = PlainLabel(self)
        self.code_field = self._field(info.code)
        self.request_label = PlainLabel(self)
        self.request_field = self._field(info.request_id)
        if info.code:
            form.addRow(self.code_label, self.code_field)
        if info.request_id:
            form.addRow(self.request_label, self.request_field)

        self.details = QPlainTextEdit(info.details, self)
        self.details.setReadOnly(True)
        self.details.setVisible(bool(info.details))
        self.details.setMinimumHeight(120)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = QPushButton(self)
        self.buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_details)
        self.buttons.rejected.connect(self.reject)

        text = QVBoxLayout()
        text.addWidget(self.summary)
        text.addWidget(self.message)
        text.addLayout(form)
        top = QHBoxLayout()
        top.addWidget(icon)
        top.addLayout(text, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.details)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(440)
        self.retranslateUi()

    def _field(self, value: str | None) -> QLineEdit:
        field = QLineEdit(value or "", self)
        field.setReadOnly(True)
        field.setMinimumWidth(260)
        return field

    def copy_details(self) -> None:
        """Put the whole error, as text, on the clipboard."""
        QGuiApplication.clipboard().setText(self.info.as_text())

    def retranslateUi(self) -> None:
        """Texts in the current language (the server's message stays as it came)."""
        self.setWindowTitle(self._title or QCoreApplication.translate("ErrorDialog", "Error"))
        self.code_label.setText(QCoreApplication.translate("ErrorDialog", "Error code:"))
        self.request_label.setText(QCoreApplication.translate("ErrorDialog", "Request id:"))
        self.copy_button.setText(QCoreApplication.translate("ErrorDialog", "Copy details"))
        self.copy_button.setAccessibleName(
            QCoreApplication.translate("ErrorDialog", "Copy error details")
        )
        self.code_field.setAccessibleName(QCoreApplication.translate("ErrorDialog", "Error code"))
        self.request_field.setAccessibleName(
            QCoreApplication.translate("ErrorDialog", "Request id")
        )
        self.details.setAccessibleName(
            QCoreApplication.translate("ErrorDialog", "Technical details")
        )
        self.summary.setAccessibleName(QCoreApplication.translate("ErrorDialog", "Error summary"))
        self.message.setAccessibleName(QCoreApplication.translate("ErrorDialog", "Error message"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


def show_error(info: ErrorInfo, title: str = "", parent: QWidget | None = None) -> ErrorDialog:
    """Show ``info`` in a non-modal window and return it."""
    dialog = ErrorDialog(info, title, parent)
    dialog.show()
    return dialog
