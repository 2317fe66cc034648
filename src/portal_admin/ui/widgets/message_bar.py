"""An inline message bar for a panel or dialog: an error (summary, the server's message,
code and request id, selectable) or a notice, with a close button.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QToolButton, QVBoxLayout, QWidget

from portal_admin.ui.error_info import ErrorInfo, error_details
from portal_admin.ui.widgets.plain import PlainLabel

_ERROR_STYLE = (
    "QFrame#messageBar { background: #fdecea; border: 1px solid #e0a39c; border-radius: 4px; }"
)
_NOTICE_STYLE = (
    "QFrame#messageBar { background: #e8f4ea; border: 1px solid #9cc8a4; border-radius: 4px; }"
)


class MessageBar(QFrame):
    """Hidden until something is to be said."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageBar")
        self.info: ErrorInfo | None = None
        self.summary = PlainLabel(self)
        self.summary.setObjectName("messageSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setStyleSheet("font-weight: bold; color: #1a1a1a;")
        self.details = PlainLabel(self)
        self.details.setObjectName("messageDetails")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setStyleSheet("color: #1a1a1a;")
        self.close_button = QToolButton(self)
        self.close_button.setAutoRaise(True)
        self.close_button.setText("\u2715")
        self.close_button.clicked.connect(self.clear)
        text = QVBoxLayout()
        text.setSpacing(2)
        text.addWidget(self.summary)
        text.addWidget(self.details)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 4, 6)
        row.addLayout(text, 1)
        row.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.setVisible(False)
        self.retranslateUi()

    @property
    def text(self) -> str:
        """Everything shown, as plain text (empty when hidden)."""
        if self.isHidden():
            return ""
        return "\n".join(t for t in (self.summary.text(), self.details.text()) if t)

    def show_error(self, info: ErrorInfo) -> None:
        """Show a failure with its code and request id."""
        self.info = info
        self.setStyleSheet(_ERROR_STYLE)
        self.summary.setText(info.summary)
        lines = error_details(
            info,
            QCoreApplication.translate("MessageBar", "Error code: %1"),
            QCoreApplication.translate("MessageBar", "Request id: %1"),
            joiner=" \u00b7 ",
            http_status=True,
        )
        self.details.setText("\n".join(lines))
        self.details.setVisible(bool(lines))
        self.setAccessibleDescription(info.as_text())
        self.setVisible(True)

    def show_notice(self, text: str) -> None:
        """Show a success or information text."""
        self.info = None
        self.setStyleSheet(_NOTICE_STYLE)
        self.summary.setText(text)
        self.details.setText("")
        self.details.setVisible(False)
        self.setAccessibleDescription(text)
        self.setVisible(True)

    def clear(self) -> None:
        """Hide the bar."""
        self.info = None
        self.summary.setText("")
        self.details.setText("")
        self.setVisible(False)

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setAccessibleName(QCoreApplication.translate("MessageBar", "Message"))
        self.summary.setAccessibleName(QCoreApplication.translate("MessageBar", "Message summary"))
        self.details.setAccessibleName(QCoreApplication.translate("MessageBar", "Message details"))
        self.close_button.setToolTip(QCoreApplication.translate("MessageBar", "Dismiss"))
        self.close_button.setAccessibleName(
            QCoreApplication.translate("MessageBar", "Dismiss the message")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
