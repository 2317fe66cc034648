"""Help > About: the program's version, its licence, the Qt and Python it runs on, the
fingerprint of the key that signs this installation's evidence packs (to be recorded
independently) and where that key is kept (the system keyring, or the owner-only key file),
and the third-party notices that travel with the program."""

from __future__ import annotations

import logging
import platform
import threading
from concurrent.futures import Future
from typing import Any

import PySide6
from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, qVersion
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin import __version__, licensing
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.widgets.plain import PlainLabel

log = logging.getLogger(__name__)


def versions() -> dict[str, str]:
    """The versions the About dialog shows (and ``--self-check`` prints)."""
    return {
        "portal-admin": __version__,
        "Qt": qVersion(),
        "PySide6": PySide6.__version__,
        "Python": platform.python_version(),
    }


def signing_key_shown(store: Any = None) -> tuple[str | None, Any]:
    """The installation key's fingerprint (made on first use; None when it can be neither
    read nor made) and where it is kept (``keys.KeyPlace``). Blocks: a worker thread's."""
    from portal_admin.evidence import keys

    store = store if store is not None else keys.installation_store()
    try:
        fingerprint: str | None = keys.fingerprint(keys.signing_key(store).public_key())
    except keys.KeyUnavailable:
        fingerprint = None
    return fingerprint, keys.place_of(store)


class NoticesDialog(QDialog):
    """The third-party notices shipped with this copy, read-only; open it with ``open()``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noticesDialog")
        self.notices = licensing.notices_text()
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("noticesText")
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(self.buttons)
        self.resize(760, 560)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        """Texts in the current language (the notices themselves stay as their authors wrote)."""
        self.setWindowTitle(QCoreApplication.translate("AboutDialog", "Third-party notices"))
        self.text.setAccessibleName(
            QCoreApplication.translate("AboutDialog", "Third-party notices")
        )
        self.text.setPlainText(
            self.notices
            or QCoreApplication.translate(
                "AboutDialog",
                "This copy was not built with its third-party notices: they are written when "
                "the installers are built (packaging/build.py).",
            )
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


class AboutDialog(QDialog):
    """A small non-modal dialog; open it with ``open()``."""

    def __init__(self, parent: QWidget | None = None, key_store: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        #: "" while the key is read; None: it can be neither read nor made.
        self.fingerprint: str | None = ""
        #: Where the key is kept (``keys.KeyPlace``), once read.
        self.place: Any = None
        self.key = PlainLabel(self)
        self.key.setObjectName("aboutSigningKey")
        self.key.setWordWrap(True)
        self.key.setTextFormat(Qt.TextFormat.PlainText)  # a path is shown as it is
        self.key.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # The keyring is read in a worker thread that touches no Qt object: a dialog closed
        # meanwhile cannot be reached from it (emitting on a dying QObject from another
        # thread crashed). The dialog's own timer picks the answer up.
        future: Future[tuple[str | None, Any]] = Future()

        def read() -> None:
            try:
                future.set_result(signing_key_shown(key_store))
            except BaseException as exc:  # handed to the window's thread
                future.set_exception(exc)

        threading.Thread(target=read, name="portal-admin-about-key", daemon=True).start()
        self._key_future = future
        self._key_timer = QTimer(self)
        self._key_timer.setInterval(25)
        self._key_timer.timeout.connect(self._key_read)
        self._key_timer.start()
        self.title = PlainLabel(self)
        self.title.setStyleSheet("font-size: 15pt; font-weight: bold;")
        self.version = PlainLabel(self)
        self.version.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.runtime = PlainLabel(self)
        self.runtime.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.blurb = PlainLabel(self)
        self.blurb.setWordWrap(True)
        self.licence = PlainLabel(self)
        self.licence.setObjectName("aboutLicence")
        self.licence.setWordWrap(True)
        self.notices_dialog: NoticesDialog | None = None
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)
        self.notices_button = QPushButton(self)
        self.notices_button.setObjectName("aboutNotices")
        self.buttons.addButton(self.notices_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.notices_button.clicked.connect(self.show_notices)
        layout = QVBoxLayout(self)
        for widget in (self.title, self.version, self.blurb, self.licence, self.runtime, self.key):
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
        self.licence.setText(
            fill(
                QCoreApplication.translate("AboutDialog", "Licensed under the %1 (%2)."),
                licensing.LICENCE_NAME,
                licensing.LICENCE,
            )
        )
        self.notices_button.setText(
            QCoreApplication.translate("AboutDialog", "Third-party notices…")
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

    def show_notices(self) -> NoticesDialog:
        """Open the third-party notices beside this dialog (no nested event loop)."""
        if self.notices_dialog is None:
            self.notices_dialog = NoticesDialog(self)
        self.notices_dialog.open()
        return self.notices_dialog

    def _key_read(self) -> None:
        if not self._key_future.done():
            return
        self._key_timer.stop()
        try:
            fingerprint, place = self._key_future.result()
        except Exception:  # signing_key_shown answers None for a key that cannot be read
            log.warning("the signing key's fingerprint could not be read", exc_info=True)
            fingerprint, place = None, None
        self.place = place
        self._show_fingerprint(fingerprint)

    def _show_fingerprint(self, fingerprint: str | None) -> None:
        self.fingerprint = fingerprint
        self._describe_key()
        self.adjustSize()  # the place's line makes the dialog taller

    def _describe_key(self) -> None:
        if self.fingerprint == "":
            text = QCoreApplication.translate("AboutDialog", "Evidence signing key: reading…")
        elif self.fingerprint is None:
            text = QCoreApplication.translate(
                "AboutDialog",
                "Evidence signing key: none (it can be neither read nor made on this computer)",
            )
        else:
            text = fill(
                QCoreApplication.translate("AboutDialog", "Evidence signing key: %1"),
                self.fingerprint,
            )
            place = self.place
            if place is not None and place.kind == "file":
                text += "\n" + fill(
                    QCoreApplication.translate(
                        "AboutDialog",
                        "Kept in the key file %1, readable by you only (this computer has no"
                        " usable keyring).",
                    ),
                    str(place.path),
                )
            elif place is not None and place.kind == "keyring":
                text += "\n" + QCoreApplication.translate(
                    "AboutDialog", "Kept in the system keyring."
                )
        self.key.setText(text)
        self.key.setAccessibleName(
            QCoreApplication.translate("AboutDialog", "Evidence signing key fingerprint")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
