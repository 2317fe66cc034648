"""The main window's status bar: the busy indicator, the connection and Secure Channel states,
the keyring notice and the last request id (selectable, copyable)."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLineEdit, QProgressBar, QStatusBar

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip


class ConnectionState(StrEnum):
    """The connection to the server, as the status bar shows it."""

    DISCONNECTED = QT_TRANSLATE_NOOP("ConnectionState", "Not connected")
    CONNECTING = QT_TRANSLATE_NOOP("ConnectionState", "Connecting\u2026")
    CONNECTED = QT_TRANSLATE_NOOP("ConnectionState", "Connected")
    OFFLINE = QT_TRANSLATE_NOOP("ConnectionState", "Server unreachable")

    def label(self) -> str:
        """The translated text."""
        return QCoreApplication.translate("ConnectionState", self.value)


class ChannelState(StrEnum):
    """The Secure Channel session, as the status bar shows it."""

    NONE = QT_TRANSLATE_NOOP("ChannelState", "Secure Channel: none")
    ESTABLISHED = QT_TRANSLATE_NOOP("ChannelState", "Secure Channel: established")
    FAILED = QT_TRANSLATE_NOOP("ChannelState", "Secure Channel: failed")

    def label(self) -> str:
        """The translated text."""
        return QCoreApplication.translate("ChannelState", self.value)


class StatusBar:
    """The widgets of the window's status bar and what they show (the window owns the bar)."""

    def __init__(self, bar: QStatusBar) -> None:
        self._busy_sources: set[str] = set()
        self._connection = ConnectionState.DISCONNECTED
        self._channel = ChannelState.NONE
        self.busy = QProgressBar(bar)
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(110)
        self.busy.setMaximumHeight(14)
        self.busy.setVisible(False)
        self.connection_label = PlainLabel(bar)
        self.channel_label = PlainLabel(bar)
        self.request_label = PlainLabel(bar)
        #: Shown when no keyring can keep the sign-in: it lasts only while the program runs.
        self.keyring_notice = PlainLabel(bar)
        self.keyring_notice.setObjectName("keyringNotice")
        set_tone(self.keyring_notice, "warning")
        self.keyring_notice.setVisible(False)
        self.request_id = QLineEdit(bar)
        self.request_id.setReadOnly(True)
        self.request_id.setFrame(False)
        self.request_id.setMinimumWidth(280)
        self.request_id.setMaximumWidth(320)
        bar.addWidget(self.busy)
        bar.addWidget(self.connection_label)
        bar.addWidget(self.channel_label)
        bar.addWidget(self.keyring_notice)
        bar.addPermanentWidget(self.request_label)
        bar.addPermanentWidget(self.request_id)

    def set_busy(self, source: str, busy: bool) -> None:
        """Show the busy indicator while any ``source`` (operations, network) is busy."""
        if busy:
            self._busy_sources.add(source)
        else:
            self._busy_sources.discard(source)
        self.busy.setVisible(bool(self._busy_sources))

    def set_connection_state(self, state: ConnectionState) -> None:
        """Show the connection state."""
        self._connection = state
        self.connection_label.setText(state.label())

    def set_channel_state(self, state: ChannelState) -> None:
        """Show the Secure Channel state."""
        self._channel = state
        self.channel_label.setText(state.label())

    def show_keyring_notice(self, reason: str = "") -> None:
        """Say that the sign-in is kept in memory only (no keyring on this computer)."""
        self.keyring_notice.setToolTip(plain_tooltip(reason))
        self.keyring_notice.setVisible(True)
        self._keyring_text()

    def _keyring_text(self) -> None:
        self.keyring_notice.setText(
            QCoreApplication.translate(
                "MainWindow", "No keyring: the sign-in is kept in memory only"
            )
        )
        self.keyring_notice.setAccessibleName(self.keyring_notice.text())

    def set_request_id(self, request_id: str) -> None:
        """Show the latest request id (selectable, copyable)."""
        self.request_id.setText(request_id)
        self.request_id.setCursorPosition(0)

    def retranslateUi(self) -> None:
        """Every text in the current language (the window's context, ``MainWindow``)."""
        self.connection_label.setText(self._connection.label())
        self.connection_label.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Connection state")
        )
        self.channel_label.setText(self._channel.label())
        self.channel_label.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Secure Channel state")
        )
        self.request_label.setText(QCoreApplication.translate("MainWindow", "Last request id:"))
        if self.keyring_notice.isVisible():
            self._keyring_text()
        self.request_id.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Last request id")
        )
        self.request_id.setPlaceholderText(QCoreApplication.translate("MainWindow", "none yet"))
        self.busy.setAccessibleName(QCoreApplication.translate("MainWindow", "Working"))
