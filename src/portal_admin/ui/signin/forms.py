"""Small form widgets shared by the sign-in pages: notice, busy bar, fields (the inline error
is the program's one, ``widgets.error_line.ErrorLine``)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QWidget,
)

from portal_admin.ui.widgets.plain import PlainLabel


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
