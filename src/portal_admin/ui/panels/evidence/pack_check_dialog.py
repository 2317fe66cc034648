"""What checking an evidence pack found, signer first.

The dialog says who signed the pack (this installation's key, a trusted key by its name, the
key the person pinned, or a key they do not trust) with the key's fingerprint (selectable,
copyable), then the verdict (intact, signed by a key not trusted and what to do about it,
changed, not a pack), then what was found wrong, each in the interface's language. A pack
signed by a key not trusted offers *Trust this key…*; the panel checks the pack again once
the key is added. The check itself runs in the panel (``SnapshotsPanel.verify_file``).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLayout,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.evidence.pack import PackVerification
from portal_admin.evidence.trust import TrustedKey, TrustStore
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from .trust_dialog import AddKeyDialog, fingerprint_field, open_add_key

#: The problem that means the pack's key did not sign it.
SIGNATURE_FAILS = "the manifest's signature does not verify"

#: What a pack check finds, as ``evidence.pack.verify_pack`` says it: a fixed sentence, or
#: ``WHAT: NAME`` (``changed: accounts.csv``); a problem not listed here is shown as written.
PACK_PROBLEMS = {
    "changed": QT_TRANSLATE_NOOP("PackCheck", "changed: %1"),
    "removed": QT_TRANSLATE_NOOP("PackCheck", "removed: %1"),
    "added": QT_TRANSLATE_NOOP("PackCheck", "added: %1"),
    "duplicated": QT_TRANSLATE_NOOP("PackCheck", "in the zip twice: %1"),
    "damaged": QT_TRANSLATE_NOOP("PackCheck", "damaged, cannot be read: %1"),
    "encrypted": QT_TRANSLATE_NOOP("PackCheck", "encrypted (no pack is): %1"),
    "unknown compression": QT_TRANSLATE_NOOP("PackCheck", "compressed in a way no pack is: %1"),
    "expands too much": QT_TRANSLATE_NOOP(
        "PackCheck", "expands far more than a pack's file can (not read): %1"
    ),
    "named twice in the manifest": QT_TRANSLATE_NOOP(
        "PackCheck", "named twice in the manifest: %1"
    ),
    "no such file": QT_TRANSLATE_NOOP("PackCheck", "the file does not exist"),
    "not a zip file": QT_TRANSLATE_NOOP("PackCheck", "it is not a zip file"),
    "too many files for a pack": QT_TRANSLATE_NOOP(
        "PackCheck", "it holds far more files than a pack does"
    ),
    "larger than a pack may be": QT_TRANSLATE_NOOP(
        "PackCheck", "its files together are larger than a pack may be"
    ),
    "no manifest or no signature": QT_TRANSLATE_NOOP("PackCheck", "it has no signed manifest"),
    "the manifest cannot be read": QT_TRANSLATE_NOOP("PackCheck", "its manifest cannot be read"),
    "the manifest is too large": QT_TRANSLATE_NOOP(
        "PackCheck", "its manifest is larger than a pack's can be"
    ),
    "the signature cannot be read": QT_TRANSLATE_NOOP("PackCheck", "its signature cannot be read"),
    "made by a newer program": QT_TRANSLATE_NOOP(
        "PackCheck", "it was made by a newer version of the program"
    ),
    SIGNATURE_FAILS: QT_TRANSLATE_NOOP("PackCheck", "the manifest's signature does not verify"),
    "public_key.pem is not the manifest's key": QT_TRANSLATE_NOOP(
        "PackCheck", "public_key.pem is not the key that signed the manifest"
    ),
    "signed by another key than the fingerprint given": QT_TRANSLATE_NOOP(
        "PackCheck", "it was signed by another key than the one pinned"
    ),
}

#: Who signed, by ``PackVerification.trust``.
SIGNERS = {
    "own": QT_TRANSLATE_NOOP("PackCheck", "this installation's key"),
    "trusted": QT_TRANSLATE_NOOP("PackCheck", "the trusted key “%1”"),
    "pinned": QT_TRANSLATE_NOOP("PackCheck", "the key you pinned"),
    "untrusted": QT_TRANSLATE_NOOP("PackCheck", "a key you do not trust"),
}

#: Tones (ui/theme/tones.py) of a good, doubtful and bad finding: they follow the theme.
_GOOD, _WARN, _BAD = "success", "warning", "error"


def _tr(text: str) -> str:
    return QCoreApplication.translate("PackCheck", text)


def problem_text(text: str) -> str:
    """One problem of a check, in the interface's language (unknown ones as written)."""
    kind, _, name = text.partition(": ")
    if name and kind in PACK_PROBLEMS:
        return fill(QCoreApplication.translate("PackCheck", PACK_PROBLEMS[kind]), name)
    if text in PACK_PROBLEMS:
        return QCoreApplication.translate("PackCheck", PACK_PROBLEMS[text])
    return text


def signer_text(check: PackVerification) -> str:
    """Who signed the pack, as the line after "Signed by"."""
    if SIGNATURE_FAILS in check.problems:
        return QCoreApplication.translate(
            "PackCheck",
            "unknown (the signature does not verify; the key below is only what the pack claims)",
        )
    if check.trust in SIGNERS and check.fingerprint:
        return fill(_tr(SIGNERS[check.trust]), check.signer_name)
    return QCoreApplication.translate("PackCheck", "unknown (no signing key could be read)")


def verdict_text(check: PackVerification) -> tuple[str, str]:
    """(the verdict, what to do about it) of a check."""
    name = check.path.name
    if check.status == "intact":
        return (
            fill(
                QCoreApplication.translate(
                    "PackCheck", "The pack %1 is intact: every file matches its signed manifest."
                ),
                name,
            ),
            "",
        )
    if check.status == "untrusted":
        return (
            fill(
                QCoreApplication.translate(
                    "PackCheck", "The pack %1 is not verified: a key you do not trust signed it."
                ),
                name,
            ),
            QCoreApplication.translate(
                "PackCheck",
                "Its files match its manifest, but anyone can make a key and sign a pack with"
                " it. Compare the fingerprint above with the one the signer reads to you from"
                " their program's Help > About, by another channel (in person or by"
                " telephone). If they are the same, trust the key and check the pack again.",
            ),
        )
    if check.status == "changed":
        return (
            fill(
                QCoreApplication.translate(
                    "PackCheck", "The pack %1 was changed after it was signed."
                ),
                name,
            ),
            "",
        )
    return (
        fill(QCoreApplication.translate("PackCheck", "%1 is not an evidence pack."), name),
        "",
    )


def _tones(check: PackVerification) -> tuple[str, str]:
    """(the signer's tone, the verdict's tone)."""
    if SIGNATURE_FAILS in check.problems or not check.fingerprint:
        signer = _BAD
    else:
        signer = _GOOD if check.trust in ("own", "trusted", "pinned") else _WARN
    verdict = {"intact": _GOOD, "untrusted": _WARN}.get(check.status, _BAD)
    return signer, verdict


def _bold(font: QFont, *, larger: bool = False) -> QFont:
    font = QFont(font)
    font.setBold(True)
    if larger and font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF() * 1.2)
    return font


class PackCheckDialog(QDialog):
    """One pack's check; :meth:`show_check` fills it (and opens it)."""

    #: Check this pack (a ``Path``) again: a key was trusted, or the person asked.
    recheckRequested = Signal(object)
    #: The person wants the list of trusted keys.
    trustedKeysRequested = Signal()

    def __init__(self, store: TrustStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("packCheckDialog")
        self.store = store
        self.check: PackVerification | None = None
        self.own: str | None = None
        self.add_dialog: AddKeyDialog | None = None
        self.file_label = PlainLabel(self)
        self.file = PlainLabel(self)
        self.file.setObjectName("packFile")
        self.file.setTextFormat(Qt.TextFormat.PlainText)
        self.file.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.signer_label = PlainLabel(self)
        self.signer = PlainLabel(self)
        self.signer.setObjectName("packSigner")
        self.signer.setFont(_bold(self.signer.font()))
        self.signer.setWordWrap(True)
        self.signer.setTextFormat(Qt.TextFormat.PlainText)
        self.signer.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fingerprint_label = PlainLabel(self)
        self.fingerprint = fingerprint_field(self)
        self.fingerprint.setObjectName("packFingerprint")
        self.fingerprint_label.setBuddy(self.fingerprint)
        self.copy_button = QPushButton(self)
        self.copy_button.setObjectName("packCopyFingerprint")
        self.copy_button.clicked.connect(self.copy_fingerprint)
        self.verdict = PlainLabel(self)
        self.verdict.setObjectName("packVerdict")
        self.verdict.setFont(_bold(self.verdict.font(), larger=True))
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.PlainText)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.advice = PlainLabel(self)
        self.advice.setObjectName("packAdvice")
        self.advice.setWordWrap(True)
        self.advice.setTextFormat(Qt.TextFormat.PlainText)
        self.advice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problems_label = PlainLabel(self)
        self.problems = QListWidget(self)
        self.problems.setObjectName("packProblems")
        self.problems_label.setBuddy(self.problems)
        self.trust_button = QPushButton(self)
        self.trust_button.setObjectName("packTrustKey")
        self.trust_button.clicked.connect(lambda: self.ask_trust())
        self.keys_button = QPushButton(self)
        self.keys_button.setObjectName("packTrustedKeys")
        self.keys_button.clicked.connect(self.trustedKeysRequested)
        self.again_button = QPushButton(self)
        self.again_button.setObjectName("packCheckAgain")
        self.again_button.clicked.connect(self._again)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)

        key_row = QHBoxLayout()
        key_row.addWidget(self.fingerprint, 1)
        key_row.addWidget(self.copy_button)
        form = QFormLayout()
        form.addRow(self.file_label, self.file)
        form.addRow(self.signer_label, self.signer)
        form.addRow(self.fingerprint_label, key_row)
        buttons = QHBoxLayout()
        for button in (self.trust_button, self.keys_button, self.again_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.buttons)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addSpacing(6)
        layout.addWidget(self.verdict)
        layout.addWidget(self.advice)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.problems, 1)
        layout.addStretch(0)  # takes the room while no problem is listed
        layout.addLayout(buttons)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        self.retranslateUi()

    # -- the check -----------------------------------------------------------------------------

    def show_check(self, check: PackVerification, own: str | None = None) -> None:
        """Show ``check`` (``own``: this installation's fingerprint, if known) and open."""
        self.check = check
        self.own = own
        self._describe()
        self.adjustSize()  # a verdict, advice and problems of their own
        if not self.isVisible():
            self.open()
            self.buttons.setFocus()  # Enter or Escape closes; trusting is asked for

    @property
    def text(self) -> str:
        """Everything the dialog says, in the order shown (tests, accessibility)."""
        parts = [
            f"{self.file_label.text()} {self.file.text()}",
            f"{self.signer_label.text()} {self.signer.text()}",
            f"{self.fingerprint_label.text()} {self.fingerprint.text()}",
            self.verdict.text(),
            self.advice.text(),
            *(self.problems.item(i).text() for i in range(self.problems.count())),
        ]
        return "\n".join(p for p in parts if p.strip())

    def _describe(self) -> None:
        check = self.check
        if check is None:
            return
        signer_tone, verdict_tone = _tones(check)
        self.file.setText(check.path.name)
        self.file.setToolTip(plain_tooltip(str(check.path)))
        self.signer.setText(signer_text(check))
        set_tone(self.signer, signer_tone)
        self.fingerprint.setText(check.fingerprint)
        self.fingerprint.setCursorPosition(0)
        has_key = bool(check.fingerprint)
        for widget in (self.fingerprint_label, self.fingerprint, self.copy_button):
            widget.setVisible(has_key)
        verdict, advice = verdict_text(check)
        self.verdict.setText(verdict)
        set_tone(self.verdict, verdict_tone)
        self.advice.setText(advice)
        self.advice.setVisible(bool(advice))
        self.problems.clear()
        self.problems.addItems([problem_text(p) for p in check.problems])
        self.problems_label.setVisible(bool(check.problems))
        self.problems.setVisible(bool(check.problems))
        self.trust_button.setVisible(check.status == "untrusted" and has_key)
        self.setAccessibleDescription(self.text)

    def _again(self) -> None:
        if self.check is not None:
            self.recheckRequested.emit(self.check.path)

    def copy_fingerprint(self) -> None:
        """Put the signer's fingerprint on the clipboard."""
        if self.check is not None and self.check.fingerprint:
            QGuiApplication.clipboard().setText(self.check.fingerprint)

    def ask_trust(self) -> AddKeyDialog | None:
        """Ask for a name for the signer's key and trust it; the pack is checked again."""
        check = self.check
        if check is None or not check.fingerprint:
            return None
        self.add_dialog = open_add_key(
            self.store, self, self._trusted, fingerprint=check.fingerprint, own=self.own
        )
        return self.add_dialog

    def _trusted(self, _key: TrustedKey) -> None:
        self.add_dialog = None
        if self.check is not None:
            self.recheckRequested.emit(self.check.path)

    @property
    def path(self) -> Path | None:
        """The pack shown."""
        return None if self.check is None else self.check.path

    # -- language ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("PackCheck", "Evidence pack check"))
        self.file_label.setText(QCoreApplication.translate("PackCheck", "Pack:"))
        self.signer_label.setText(QCoreApplication.translate("PackCheck", "Signed by:"))
        self.fingerprint_label.setText(QCoreApplication.translate("PackCheck", "&Fingerprint:"))
        self.fingerprint.setAccessibleName(
            QCoreApplication.translate("PackCheck", "Fingerprint of the signing key")
        )
        self.copy_button.setText(QCoreApplication.translate("PackCheck", "Copy"))
        self.copy_button.setToolTip(QCoreApplication.translate("PackCheck", "Copy the fingerprint"))
        self.problems_label.setText(QCoreApplication.translate("PackCheck", "What was found:"))
        self.problems.setAccessibleName(QCoreApplication.translate("PackCheck", "What was found"))
        self.trust_button.setText(QCoreApplication.translate("PackCheck", "Trust this key…"))
        self.keys_button.setText(QCoreApplication.translate("PackCheck", "Trusted keys…"))
        self.again_button.setText(QCoreApplication.translate("PackCheck", "Check again"))
        self._describe()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
