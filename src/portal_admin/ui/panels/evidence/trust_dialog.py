"""Trusted keys: the signing keys whose evidence packs this computer accepts as verified.

The list is this computer's own (``evidence/trust.py``: a small file in the user data
folder, the one ``portal-admin-cli evidence trust`` manages); nothing is sent to a server, so
the kiosk offers it too. This installation's own key is always trusted and listed first; it
cannot be removed. A key is added with its fingerprint and a name, after comparing the
fingerprint with its owner's by another channel. The store's calls are small file reads and
writes, made on the window's thread. Every dialog here is opened with ``open()``.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from portal_admin.evidence.trust import (
    TrustedKey,
    TrustError,
    TrustStore,
    imitates_own_key,
    normalize_fingerprint,
)
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.error_line import ErrorLine
from portal_admin.ui.widgets.plain import PlainLabel, PlainMessageBox, plain_tooltip

COLUMNS = (
    QT_TRANSLATE_NOOP("TrustedKeys", "Name"),
    QT_TRANSLATE_NOOP("TrustedKeys", "Fingerprint"),
    QT_TRANSLATE_NOOP("TrustedKeys", "Added"),
)
#: The table's role holding a row's fingerprint (the own key's row holds none).
FINGERPRINT_ROLE = Qt.ItemDataRole.UserRole + 1


def _tr(text: str) -> str:
    return QCoreApplication.translate("TrustedKeys", text)


def fingerprint_font() -> QFont:
    """The fixed-width font fingerprints are shown in (their groups line up)."""
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def fingerprint_field(parent: QWidget, text: str = "") -> QLineEdit:
    """A read-only, selectable line holding a fingerprint, wide enough for all of it."""
    field = QLineEdit(parent)
    field.setFont(fingerprint_font())
    field.setReadOnly(True)
    field.setText(text)
    field.setMinimumWidth(field.fontMetrics().horizontalAdvance("0" * 80) + 16)
    return field


def bad_fingerprint() -> str:
    """What is said of a text that is not a key's fingerprint."""
    return QCoreApplication.translate(
        "TrustedKeys",
        "This is not a key fingerprint. A fingerprint is 64 hexadecimal digits (0–9, a–f),"
        " as the signer's About window shows it; spaces do not matter.",
    )


class AddKeyDialog(QDialog):
    """A fingerprint (given by a pack, or typed) and a name; adds the key to the store.

    A refused entry is said in the dialog, which stays open with what was typed.
    """

    #: The key added (a ``TrustedKey``), just before the dialog closes.
    added = Signal(object)

    def __init__(
        self,
        store: TrustStore,
        parent: QWidget | None = None,
        *,
        fingerprint: str = "",
        own: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("addTrustedKeyDialog")
        self.store = store
        self.own = own
        self.from_pack = bool(fingerprint)
        self.intro = PlainLabel(self)
        self.intro.setWordWrap(True)
        self.fingerprint = fingerprint_field(self, fingerprint)
        self.fingerprint.setObjectName("trustFingerprint")
        self.fingerprint.setReadOnly(self.from_pack)
        self.name = QLineEdit(self)
        self.name.setObjectName("trustName")
        self.name.setMaxLength(200)
        self.error = ErrorLine(self)
        self.error.setObjectName("trustError")
        self.fingerprint_label = PlainLabel(self)
        self.fingerprint_label.setBuddy(self.fingerprint)
        self.name_label = PlainLabel(self)
        self.name_label.setBuddy(self.name)
        form = QFormLayout()
        form.addRow(self.fingerprint_label, self.fingerprint)
        form.addRow(self.name_label, self.name)
        self.buttons = QDialogButtonBox(self)
        self.ok_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.ok_button.setObjectName("trustConfirm")
        self.ok_button.setDefault(True)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.ok_button.clicked.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        (self.name if self.from_pack else self.fingerprint).setFocus()
        self.retranslateUi()

    def submit(self) -> TrustedKey | None:
        """Add the key; None, with the reason shown and the form kept, when it is refused."""
        outcome = self._add()
        if isinstance(outcome, TrustedKey):
            self.error.clear_error()
            self.added.emit(outcome)
            self.accept()
            return outcome
        text, focus = outcome
        self.error.show_message(text)
        self.adjustSize()
        self.setAccessibleDescription(text)
        focus.setFocus()
        return None

    def _add(self) -> TrustedKey | tuple[str, QWidget]:
        """The key added, or why not and the field to correct."""
        try:
            fingerprint = normalize_fingerprint(self.fingerprint.text())
        except TrustError:
            return bad_fingerprint(), self.fingerprint
        name = self.name.text().strip()
        if not name:
            return (
                QCoreApplication.translate("TrustedKeys", "Give the key a name: whose key it is."),
                self.name,
            )
        if imitates_own_key(name):
            return (
                QCoreApplication.translate(
                    "TrustedKeys",
                    "This name reads as this installation's own key. Name whose key it is.",
                ),
                self.name,
            )
        if self.own is not None and fingerprint == normalize_fingerprint(self.own):
            return (
                QCoreApplication.translate(
                    "TrustedKeys",
                    "This is this installation's own key: its packs are trusted already.",
                ),
                self.fingerprint,
            )
        try:
            known = self.store.find(fingerprint)
            if known is not None:
                return (
                    fill(
                        QCoreApplication.translate(
                            "TrustedKeys", "This key is trusted already, as “%1”."
                        ),
                        known.name,
                    ),
                    self.name,
                )
            return self.store.add(fingerprint, name)
        except TrustError as exc:
            return (
                fill(
                    QCoreApplication.translate("TrustedKeys", "The key was not added: %1"), str(exc)
                ),
                self.name,
            )
        except OSError as exc:
            return (
                fill(
                    QCoreApplication.translate(
                        "TrustedKeys", "The list of trusted keys could not be saved: %1"
                    ),
                    exc.strerror or str(exc),
                ),
                self.name,
            )

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("TrustedKeys", "Trust a signing key"))
        self.intro.setText(
            QCoreApplication.translate(
                "TrustedKeys",
                "Trust a key only after comparing its fingerprint with the one its owner reads"
                " to you from their program's Help > About, by another channel: in person or"
                " by telephone. Packs it signs will then be shown as verified.",
            )
        )
        self.fingerprint_label.setText(QCoreApplication.translate("TrustedKeys", "&Fingerprint:"))
        self.name_label.setText(QCoreApplication.translate("TrustedKeys", "&Name:"))
        self.name.setPlaceholderText(
            QCoreApplication.translate("TrustedKeys", "Whose key it is, e.g. “Audit team, Lyon”")
        )
        self.fingerprint.setAccessibleName(QCoreApplication.translate("TrustedKeys", "Fingerprint"))
        self.name.setAccessibleName(QCoreApplication.translate("TrustedKeys", "Name"))
        self.error.setAccessibleName(
            QCoreApplication.translate("TrustedKeys", "Why the key was not added")
        )
        self.ok_button.setText(QCoreApplication.translate("TrustedKeys", "Trust this key"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


def open_add_key(
    store: TrustStore,
    parent: QWidget,
    on_added: Callable[[TrustedKey], object],
    *,
    fingerprint: str = "",
    own: str | None = None,
) -> AddKeyDialog:
    """Open the form that adds a key (window-modal, deleted when closed); ``on_added`` gets the
    key added."""
    dialog = AddKeyDialog(store, parent, fingerprint=fingerprint, own=own)
    dialog.added.connect(on_added)
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


class TrustedKeysDialog(QDialog):
    """This installation's key and the trusted keys, with Add and Remove (confirmed)."""

    #: The list changed (a key added or removed): a check shown elsewhere may be redone.
    changed = Signal()

    def __init__(
        self, store: TrustStore, own: str | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("trustedKeysDialog")
        self.store = store
        self.own = own
        self.keys: list[TrustedKey] = []
        #: Why the list cannot be read or changed ("" when it can).
        self.problem = ""
        self.add_dialog: AddKeyDialog | None = None
        self.confirm_box: QMessageBox | None = None
        self.intro = PlainLabel(self)
        self.intro.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("trustedKeysTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.note = PlainLabel(self)
        self.note.setObjectName("trustedKeysNote")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.add_button = QPushButton(self)
        self.add_button.setObjectName("trustAdd")
        self.remove_button = QPushButton(self)
        self.remove_button.setObjectName("trustRemove")
        self.copy_button = QPushButton(self)
        self.copy_button.setObjectName("trustCopy")
        self.add_button.clicked.connect(lambda: self.ask_add())
        self.remove_button.clicked.connect(lambda: self.ask_remove())
        self.copy_button.clicked.connect(self.copy_fingerprint)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        for button in (self.add_button, self.remove_button, self.copy_button):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(self.buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)
        layout.addLayout(row)
        self.resize(max(760, self.table.fontMetrics().horizontalAdvance("0" * 80) + 320), 400)
        self.retranslateUi()
        self.reload()

    # -- the list ------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the trusted keys again and list them (a damaged list is said, not raised)."""
        self.problem = ""
        try:
            self.keys = self.store.keys()
        except (TrustError, OSError) as exc:
            self.keys = []
            self.problem = str(exc)
        self._fill()

    def _fill(self) -> None:
        rows: list[tuple[str, str, str, str | None]] = []
        if self.own:
            rows.append(
                (QCoreApplication.translate("TrustedKeys", "This installation"), self.own, "", None)
            )
        rows.extend(
            (k.name, k.fingerprint, format_datetime(k.added), k.fingerprint) for k in self.keys
        )
        self.table.setRowCount(len(rows))
        for r, (name, fingerprint, added, removable) in enumerate(rows):
            for c, value in enumerate((name, fingerprint, added)):
                item = QTableWidgetItem(value)
                item.setData(FINGERPRINT_ROLE, removable)
                item.setToolTip(plain_tooltip(fingerprint))
                if c == 1:
                    item.setFont(fingerprint_font())
                if removable is None:
                    font = item.font()
                    font.setItalic(True)
                    item.setFont(font)
                self.table.setItem(r, c, item)
        self._describe()
        self._selection_changed()

    def _describe(self) -> None:
        lines = []
        if self.problem:
            lines.append(
                fill(
                    QCoreApplication.translate(
                        "TrustedKeys", "The list of trusted keys cannot be read: %1"
                    ),
                    self.problem,
                )
            )
        if not self.own:
            lines.append(
                QCoreApplication.translate(
                    "TrustedKeys",
                    "This installation's own key is not listed: it has not made one yet, or"
                    " this computer's keyring cannot be read.",
                )
            )
        if not self.keys and not self.problem:
            lines.append(QCoreApplication.translate("TrustedKeys", "No other key is trusted yet."))
        self.note.setText("\n".join(lines))
        set_tone(self.note, "error" if self.problem else None)
        self.note.setVisible(bool(lines))

    def selected_fingerprint(self) -> tuple[str, str | None] | None:
        """(fingerprint shown, the removable key's fingerprint or None) of the row selected."""
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 1)
        if item is None:
            return None
        return item.text(), item.data(FINGERPRINT_ROLE)

    def _selection_changed(self) -> None:
        chosen = self.selected_fingerprint()
        self.copy_button.setEnabled(chosen is not None)
        removable = chosen is not None and chosen[1] is not None
        self.remove_button.setEnabled(removable)
        self.remove_button.setToolTip(
            ""
            if removable or chosen is None
            else QCoreApplication.translate(
                "TrustedKeys", "This installation's own key is always trusted."
            )
        )

    def select(self, fingerprint: str) -> None:
        """Select the row of ``fingerprint``."""
        for r in range(self.table.rowCount()):
            item = self.table.item(r, 1)
            if item is not None and item.text() == fingerprint:
                self.table.selectRow(r)
                return

    # -- actions -------------------------------------------------------------------------------

    def copy_fingerprint(self) -> None:
        """Put the selected row's fingerprint on the clipboard."""
        chosen = self.selected_fingerprint()
        if chosen is not None:
            QGuiApplication.clipboard().setText(chosen[0])

    def ask_add(self) -> AddKeyDialog:
        """Open the form that adds a key (its fingerprint typed or pasted, and a name)."""
        self.add_dialog = open_add_key(self.store, self, self._added, own=self.own)
        return self.add_dialog

    def _added(self, key: TrustedKey) -> None:
        self.reload()
        self.select(key.fingerprint)
        self.changed.emit()

    def ask_remove(self) -> QMessageBox | None:
        """Ask before removing the selected key; removes it when confirmed."""
        chosen = self.selected_fingerprint()
        if chosen is None or chosen[1] is None:
            return None
        fingerprint = chosen[1]
        key = next((k for k in self.keys if k.fingerprint == fingerprint), None)
        box = PlainMessageBox(self)
        box.setObjectName("trustRemoveConfirm")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(QCoreApplication.translate("TrustedKeys", "Remove a trusted key"))
        box.setText(
            fill(
                QCoreApplication.translate("TrustedKeys", "Stop trusting the key “%1”?"),
                key.name if key is not None else fingerprint,
            )
        )
        box.setInformativeText(
            fill(
                QCoreApplication.translate(
                    "TrustedKeys",
                    "Fingerprint %1. Packs it signed will be shown as signed by a key you do"
                    " not trust.",
                ),
                fingerprint,
            )
        )
        confirm = box.addButton(
            QCoreApplication.translate("TrustedKeys", "Remove"), QMessageBox.ButtonRole.AcceptRole
        )
        confirm.setObjectName("trustRemoveYes")
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)

        def finished(_result: int) -> None:
            if box.clickedButton() is confirm:
                self.remove(fingerprint)
            box.deleteLater()
            self.confirm_box = None

        box.finished.connect(finished)
        self.confirm_box = box
        box.open()
        return box

    def remove(self, fingerprint: str) -> bool:
        """Remove a trusted key now (True when it was listed)."""
        try:
            removed = self.store.remove(fingerprint)
        except (TrustError, OSError) as exc:
            self.problem = str(getattr(exc, "strerror", None) or exc)
            self._describe()
            return False
        self.reload()
        if removed:
            self.changed.emit()
        return removed

    # -- language ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("TrustedKeys", "Trusted keys"))
        self.intro.setText(
            QCoreApplication.translate(
                "TrustedKeys",
                "Evidence packs signed by these keys are shown as verified. This"
                " installation's own key is always trusted. Add another key only after"
                " comparing its fingerprint with its owner's by another channel.",
            )
        )
        self.table.setHorizontalHeaderLabels([_tr(t) for t in COLUMNS])
        self.table.setAccessibleName(QCoreApplication.translate("TrustedKeys", "Trusted keys"))
        self.add_button.setText(QCoreApplication.translate("TrustedKeys", "Add a key…"))
        self.remove_button.setText(QCoreApplication.translate("TrustedKeys", "Remove…"))
        self.copy_button.setText(QCoreApplication.translate("TrustedKeys", "Copy fingerprint"))
        if self.table.rowCount():
            self._fill()
        else:
            self._describe()
            self._selection_changed()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and hasattr(self, "note"):
            self.retranslateUi()
        super().changeEvent(event)
