"""Once per key file: a strip in the main window saying that this computer has no usable
keyring, so the evidence-signing key is kept in a file readable by its owner only, where that
file is, and what that means. Help > About shows the same place afterwards.

The key is read (made on first use) and the "told" mark written in worker threads; the strip
asks nothing and blocks nothing (no dialog: a kiosk auditor's work goes on under it).
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QWidget

from portal_admin.evidence import keys
from portal_admin.files.atomic import atomic_write_text
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel

log = logging.getLogger(__name__)

#: Beside the key file: the key file's path once the person has been told of it.
TOLD_NAME = "signing-key.told"


def _told_mark(place: keys.KeyPlace) -> Path:
    assert place.path is not None
    return place.path.with_name(TOLD_NAME)


def place_to_tell() -> keys.KeyPlace | None:
    """The key file's place when the person has not been told of it yet (the key is made
    here if there is none); None for a keyring, a key told of, or a key that cannot be read.
    Blocks: a worker thread's."""
    store = keys.installation_store()
    try:
        keys.signing_key(store)
    except keys.KeyUnavailable as exc:
        log.warning("the evidence-signing key cannot be read: %s", exc)
        return None
    place = keys.place_of(store)
    if place.kind != "file" or place.path is None:
        return None
    try:
        told = _told_mark(place).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        told = ""
    return None if told == str(place.path) else place


def remember_told(place: keys.KeyPlace) -> None:
    """Mark the key file as told of (a worker thread's); a failure only means telling again."""
    try:
        atomic_write_text(_told_mark(place), f"{place.path}\n")
    except OSError as exc:
        log.warning("could not remember that the key file was shown: %s", exc)


class KeyNotice(QFrame):
    """The strip: hidden until :meth:`show_place`; "Got it" hides it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("keyNotice")
        self.setStyleSheet(  # the theme's colours, light or dark
            "QFrame#keyNotice { background: palette(alternate-base);"
            " border-bottom: 1px solid palette(mid); }"
        )
        self.place: keys.KeyPlace | None = None
        self.text = PlainLabel(self)
        self.text.setObjectName("keyNoticeText")
        self.text.setTextFormat(Qt.TextFormat.PlainText)  # a path is shown as it is
        self.text.setWordWrap(True)
        set_tone(self.text, "warning")
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.dismiss = QPushButton(self)
        self.dismiss.setObjectName("keyNoticeDismiss")
        self.dismiss.clicked.connect(self.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 6, 12, 6)
        row.addWidget(self.text, 1)
        row.addWidget(self.dismiss, 0, Qt.AlignmentFlag.AlignVCenter)
        self.setVisible(False)
        self.retranslateUi()

    def show_place(self, place: keys.KeyPlace) -> None:
        """Tell where the key file is."""
        self.place = place
        self.retranslateUi()
        self.setVisible(True)

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.dismiss.setText(QCoreApplication.translate("KeyNotice", "Got it"))
        if self.place is None:
            return
        self.text.setText(
            fill(
                QCoreApplication.translate(
                    "KeyNotice",
                    "This computer has no usable keyring, so the key that signs your evidence "
                    "packs, review decisions and journal checkpoints is kept in a file only you "
                    "can read: %1. Whoever can read that file can sign as this installation: "
                    "keep it, and its backups, to yourself. Help > About shows it again.",
                ),
                str(self.place.path),
            )
        )
        self.text.setAccessibleName(
            QCoreApplication.translate("KeyNotice", "Where the signing key is kept")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
