"""Small form widgets shared by the sign-in pages: inline error, notice, busy bar, fields."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.widgets.plain import PlainLabel

from ..error_info import ErrorInfo


def line_edit(parent: QWidget, name: str, *, password: bool = False) -> QLineEdit:
    """A line edit with an object name; passwords are hidden and never auto-completed."""
    edit = QLineEdit(parent)
    edit.setObjectName(name)
    edit.setClearButtonEnabled(not password)
    edit.setMinimumWidth(280)
    if password:
        edit.setEchoMode(QLineEdit.EchoMode.Password)
        edit.setInputMethodHints(
            Qt.InputMethodHint.ImhHiddenText
            | Qt.InputMethodHint.ImhNoPredictiveText
            | Qt.InputMethodHint.ImhSensitiveData
        )
    return edit


def button(parent: QWidget, name: str, *, default: bool = False, link: bool = False) -> QPushButton:
    """A push button with an object name; ``link`` makes it flat like a hyperlink."""
    push = QPushButton(parent)
    push.setObjectName(name)
    push.setDefault(default)
    push.setAutoDefault(default)
    if link:
        push.setFlat(True)
        push.setCursor(Qt.CursorShape.PointingHandCursor)
        push.setStyleSheet("QPushButton { color: palette(link); text-align: left; padding: 2px; }")
    return push


def heading(parent: QWidget, name: str) -> QLabel:
    """A page heading."""
    label = PlainLabel(parent)
    label.setObjectName(name)
    label.setStyleSheet("font-size: 15pt; font-weight: 600;")
    label.setWordWrap(True)
    return label


def paragraph(parent: QWidget, name: str) -> QLabel:
    """A wrapped, selectable paragraph."""
    label = PlainLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class ErrorPanel(QFrame):
    """An inline error: summary, the server's message, code and request id, and Copy."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorPanel")
        self.info: ErrorInfo | None = None
        self.setStyleSheet(
            "QFrame#errorPanel { border: 1px solid #c62828; border-left: 5px solid #c62828;"
            " border-radius: 3px; background: rgba(198, 40, 40, 0.08); }"
            " QFrame#errorPanel QLabel { border: none; background: transparent; }"
        )
        self.summary = paragraph(self, "errorSummary")
        self.summary.setStyleSheet("font-weight: 600;")
        self.message = paragraph(self, "errorMessage")
        self.details = paragraph(self, "errorDetails")
        self.details.setStyleSheet("color: palette(placeholder-text);")
        self.copy_button = button(self, "errorCopyButton")
        self.copy_button.clicked.connect(self.copy)
        text = QVBoxLayout()
        text.setSpacing(2)
        text.addWidget(self.summary)
        text.addWidget(self.message)
        text.addWidget(self.details)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 6, 6)
        row.addLayout(text, 1)
        row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        self.setVisible(False)
        self.retranslateUi()

    def show_error(self, info: ErrorInfo | None) -> None:
        """Show ``info``; None hides the panel."""
        self.info = info
        self.setVisible(info is not None)
        self.retranslateUi()
        self._fit_height()

    def _fit_height(self) -> None:
        """Take the height the wrapped texts need at the current width (a QStackedWidget
        does not pass height-for-width through, so the hint alone is too tall or too short)."""
        layout = self.layout()
        # Before its first layout pass the panel's layout reports no height-for-width, and
        # totalHeightForWidth() is then only the frame (1 px): the panel stayed a red line.
        if layout is not None and self.width() > 0 and layout.hasHeightForWidth():
            height = layout.totalHeightForWidth(self.width())
            if height > 0 and height != self.height():
                self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def copy(self) -> None:
        """Copy the error (message, code, request id) to the clipboard."""
        if self.info is not None:
            QGuiApplication.clipboard().setText(self.info.as_text())

    def retranslateUi(self) -> None:
        """Texts in the current language (the server's message stays as it came)."""
        self.copy_button.setText(QCoreApplication.translate("SignInForms", "Copy"))
        self.copy_button.setAccessibleName(
            QCoreApplication.translate("SignInForms", "Copy the error, its code and request id")
        )
        self.summary.setAccessibleName(QCoreApplication.translate("SignInForms", "Error"))
        self.message.setAccessibleName(QCoreApplication.translate("SignInForms", "Server message"))
        self.details.setAccessibleName(
            QCoreApplication.translate("SignInForms", "Error code and request id")
        )
        info = self.info
        if info is None:
            return
        self.summary.setText(info.summary)
        show_message = bool(info.message) and info.message != info.summary
        self.message.setText(info.message if show_message else "")
        self.message.setVisible(show_message)
        parts = []
        if info.code:
            error_code = QCoreApplication.translate("SignInForms", "Error code")
            parts.append(f"{error_code}: {info.code}")
        if info.request_id:
            request_id = QCoreApplication.translate("SignInForms", "Request id")
            parts.append(f"{request_id}: {info.request_id}")
        self.details.setText("   ".join(parts))
        self.details.setVisible(bool(parts))
        self.copy_button.setVisible(bool(parts) or show_message)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


class NoticeLabel(QLabel):
    """An informative message (a code was sent, the password was changed)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setObjectName("noticeLabel")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setStyleSheet(
            "QLabel#noticeLabel { border: 1px solid #2e7d32; border-left: 5px solid #2e7d32;"
            " border-radius: 3px; padding: 6px 10px; background: rgba(46, 125, 50, 0.08); }"
        )
        self.setVisible(False)

    def show_notice(self, text: str) -> None:
        """Show ``text`` (empty hides the label)."""
        self.setText(text)
        self.setAccessibleName(QCoreApplication.translate("SignInForms", "Information"))
        self.setAccessibleDescription(text)
        self.setVisible(bool(text))


class BusyBar(QProgressBar):
    """A thin, indeterminate progress bar shown while a request is on its way."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("busyBar")
        self.setRange(0, 0)
        self.setTextVisible(False)
        self.setFixedHeight(6)
        self.setAccessibleName(QCoreApplication.translate("SignInForms", "Working"))
        self.set_busy(False)

    def set_busy(self, busy: bool) -> None:
        """Show or hide the bar (it keeps its space so the form does not jump)."""
        policy = self.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        self.setVisible(busy)
        self.setAccessibleDescription(
            QCoreApplication.translate("SignInForms", "Please wait") if busy else ""
        )
