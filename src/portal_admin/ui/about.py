"""Help > About: the program's version, the Qt and Python it runs on, and the fingerprint of
the key that signs this installation's evidence packs (to be recorded independently)."""

from __future__ import annotations

import contextlib
import platform
import threading
from typing import Any

import PySide6
from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal, qVersion
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from portal_admin import __version__

from .text import fill


def versions() -> dict[str, str]:
    """The versions the About dialog shows (and ``--self-check`` prints)."""
    return {
        "portal-admin": __version__,
        "Qt": qVersion(),
        "PySide6": PySide6.__version__,
        "Python": platform.python_version(),
    }


def signing_fingerprint(store: Any = None) -> str | None:
    """The fingerprint of the installation's evidence-signing key (made on first use), or
    None when there is no usable keyring."""
    from portal_admin.evidence import keys

    try:
        return keys.fingerprint(keys.signing_key(store).public_key())
    except keys.KeyUnavailable:
        return None


class AboutDialog(QDialog):
    """A small non-modal dialog; open it with ``open()``."""

    #: The signing key's fingerprint (or None), read from the keyring in a worker thread.
    fingerprintRead = Signal(object)

    def __init__(self, parent: QWidget | None = None, key_store: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        #: "" while the keyring is read; None: no usable keyring.
        self.fingerprint: str | None = ""
        self.key = QLabel(self)
        self.key.setObjectName("aboutSigningKey")
        self.key.setWordWrap(True)
        self.key.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fingerprintRead.connect(self._show_fingerprint)

        def read() -> None:
            fingerprint = signing_fingerprint(key_store)
            with contextlib.suppress(RuntimeError):  # the dialog was deleted meanwhile
                self.fingerprintRead.emit(fingerprint)  # queued to the window's thread

        threading.Thread(target=read, name="portal-admin-about-key", daemon=True).start()
        self.title = QLabel(self)
        self.title.setStyleSheet("font-size: 15pt; font-weight: bold;")
        self.version = QLabel(self)
        self.version.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.runtime = QLabel(self)
        self.runtime.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.blurb = QLabel(self)
        self.blurb.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.title, self.version, self.blurb, self.runtime, self.key):
            layout.addWidget(widget)
        layout.addSpacing(8)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(420)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        v = versions()
        self.setWindowTitle(QCoreApplication.translate("AboutDialog", "About System Portal Admin"))
        self.title.setText(QCoreApplication.translate("AboutDialog", "System Portal Admin"))
        self.version.setText(
            fill(QCoreApplication.translate("AboutDialog", "Version %1"), v["portal-admin"])
        )
        self.blurb.setText(
            QCoreApplication.translate(
                "AboutDialog",
                "Desktop administration for the System Portal, with a built-in sandbox server.",
            )
        )
        self.runtime.setText(
            fill(
                QCoreApplication.translate("AboutDialog", "Qt %1 (PySide6 %2), Python %3"),
                v["Qt"],
                v["PySide6"],
                v["Python"],
            )
        )
        self.version.setAccessibleName(QCoreApplication.translate("AboutDialog", "Version"))
        self.runtime.setAccessibleName(
            QCoreApplication.translate("AboutDialog", "Qt and Python versions")
        )
        self._describe_key()

    def _show_fingerprint(self, fingerprint: str | None) -> None:
        self.fingerprint = fingerprint
        self._describe_key()

    def _describe_key(self) -> None:
        if self.fingerprint == "":
            text = QCoreApplication.translate(
                "AboutDialog", "Evidence signing key: reading the keyring…"
            )
        elif self.fingerprint is None:
            text = QCoreApplication.translate(
                "AboutDialog", "Evidence signing key: none (no usable keyring on this computer)"
            )
        else:
            text = fill(
                QCoreApplication.translate("AboutDialog", "Evidence signing key: %1"),
                self.fingerprint,
            )
        self.key.setText(text)
        self.key.setAccessibleName(
            QCoreApplication.translate("AboutDialog", "Evidence signing key fingerprint")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
