"""The one inline error of the program: a failure shown where it happened (a panel, a dialog, the
sign-in window), in plain text.

:class:`ErrorLine` shows an :class:`~portal_admin.ui.error_info.ErrorInfo` (or an exception,
described by ``describe_error``): the summary in the person's language, the server's or the
file's message when it says more, the error code and request id, all selectable, and *Copy* for
a support ticket. Every text is a :class:`~portal_admin.ui.widgets.plain.PlainLabel`: what a
server or a file says is never read as markup.
"""

from __future__ import annotations

from typing import overload

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from portal_admin.ui.error_info import ErrorInfo, describe_error
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel

_STYLE = (
    "QFrame#errorLine { border: 1px solid #c62828; border-left: 5px solid #c62828;"
    " border-radius: 3px; background: rgba(198, 40, 40, 0.08); }"
    " QFrame#errorLine QLabel { border: none; background: transparent; }"
)


def _paragraph(parent: QWidget, name: str) -> PlainLabel:
    label = PlainLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class ErrorLine(QFrame):
    """Hidden until a failure (or a plain message) is to be shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorLine")
        self.setStyleSheet(_STYLE)
        set_tone(self, "error")
        #: The failure shown (None: nothing, or a message without a failure behind it).
        self.info: ErrorInfo | None = None
        self._message = ""
        self.summary = _paragraph(self, "errorSummary")
        self.summary.setStyleSheet("font-weight: 600;")
        set_tone(self.summary, "error")  # the theme's error colour, readable in light and dark
        self.message = _paragraph(self, "errorMessage")
        self.details = _paragraph(self, "errorDetails")
        self.details.setStyleSheet("color: palette(placeholder-text);")
        self.copy_button = QPushButton(self)
        self.copy_button.setObjectName("errorCopyButton")
        self.copy_button.setAutoDefault(False)
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

    @overload
    def show_error(self, error: ErrorInfo | BaseException) -> ErrorInfo: ...
    @overload
    def show_error(self, error: None) -> None: ...
    def show_error(self, error: ErrorInfo | BaseException | None) -> ErrorInfo | None:
        """Show a failure (an exception is described first); None hides the line. Returns
        what is shown."""
        if isinstance(error, BaseException):
            error = describe_error(error)
        self.info = error
        self._message = ""
        self.setVisible(error is not None)
        self.retranslateUi()
        self._fit_height()
        return error

    def show_message(self, text: str) -> None:
        """Show ``text`` in the line (no failure behind it)."""
        self.info = None
        self._message = text
        self.setVisible(True)
        self.retranslateUi()
        self._fit_height()

    def clear_error(self) -> None:
        """Hide the line."""
        self.show_error(None)

    def text(self) -> str:
        """Everything shown, as plain text (empty when hidden)."""
        if self.isHidden():
            return ""
        parts = (self.summary, self.message, self.details)
        return "\n".join(p.text() for p in parts if not p.isHidden() and p.text())

    def copy(self) -> None:
        """Copy the failure (message, code, request id) to the clipboard."""
        if self.info is not None:
            QGuiApplication.clipboard().setText(self.info.as_text())

    def _fit_height(self) -> None:
        """Take the height the wrapped texts need at the current width (a QStackedWidget
        does not pass height-for-width through, so the hint alone is too tall or too short)."""
        layout = self.layout()
        # Before its first layout pass the layout reports no height-for-width, and
        # totalHeightForWidth() is then only the frame (1 px): the line stayed a red line.
        if layout is not None and self.width() > 0 and layout.hasHeightForWidth():
            layout.invalidate()  # parts shown or hidden, texts changed: measured afresh
            height = layout.totalHeightForWidth(self.width())
            if height > 0 and height != self.height():
                self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def retranslateUi(self) -> None:
        """Texts in the current language (what the server or the file said stays as it came)."""
        self.copy_button.setText(QCoreApplication.translate("ErrorLine", "Copy"))
        self.copy_button.setAccessibleName(
            QCoreApplication.translate("ErrorLine", "Copy the error, its code and request id")
        )
        self.summary.setAccessibleName(QCoreApplication.translate("ErrorLine", "Error"))
        self.message.setAccessibleName(QCoreApplication.translate("ErrorLine", "Server message"))
        self.details.setAccessibleName(
            QCoreApplication.translate("ErrorLine", "Error code and request id")
        )
        info = self.info
        if info is None:
            self.summary.setText(self._message)
            if self._message:  # a message alone: nothing below it
                for part in (self.message, self.details, self.copy_button):
                    part.setVisible(False)
            return
        self.summary.setText(info.summary)
        show_message = bool(info.message) and info.message != info.summary
        self.message.setText(info.message if show_message else "")
        self.message.setVisible(show_message)
        parts = []
        if info.code:
            error_code = QCoreApplication.translate("ErrorLine", "Error code")
            parts.append(f"{error_code}: {info.code}")
        if info.request_id:
            request_id = QCoreApplication.translate("ErrorLine", "Request id")
            parts.append(f"{request_id}: {info.request_id}")
        self.details.setText("   ".join(parts))
        self.details.setVisible(bool(parts))
        self.copy_button.setVisible(bool(parts) or show_message)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
