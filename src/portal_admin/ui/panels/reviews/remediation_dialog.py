"""Remediate…: who signed the campaign off, before anything is planned. Each sign-off's
reviewer, the server account they were signed in as, their key's fingerprint (selectable,
with Copy) and whether this installation trusts that key. A sign-off by a key this
installation does not trust is refused for remediation until the key is trusted: "Trust this
key…" opens the Trusted keys' own Add dialog with the fingerprint (compare it with the
reviewer's by another channel first), "Trusted keys…" the list itself; the check is then made
again. The separation-of-duties warning names who is the administrator, by key or account.

The dialog shows and asks; the panel checks (in a worker thread) and plans. Every text from
the file is plain text."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from portal_admin.evidence.trust import TrustedKey, TrustStore
from portal_admin.reviews import Signoff, Verification
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.panels.evidence.trust_dialog import (
    AddKeyDialog,
    TrustedKeysDialog,
    fingerprint_field,
    open_add_key,
)
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel

from . import signers
from .plain import plain

COLUMNS = (
    QT_TRANSLATE_NOOP("CampaignRemediation", "Reviewer"),
    QT_TRANSLATE_NOOP("CampaignRemediation", "Trust"),
    QT_TRANSLATE_NOOP("CampaignRemediation", "Signed in as"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("CampaignRemediation", text)


class RemediationDialog(QDialog):
    """The sign-offs and their trust, the separation-of-duties warning, and Plan."""

    #: Plan the remediation (every signer trusted).
    planRequested = Signal()
    #: The trusted keys changed: check the sign-offs again.
    recheckRequested = Signal()

    def __init__(self, store: TrustStore, own: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("campaignRemediationDialog")
        self.store = store
        self.own = own
        self.check: Verification | None = None
        self.campaign = ""
        self.reasons: list[str] = []
        self.add_dialog: AddKeyDialog | None = None
        self.keys_dialog: TrustedKeysDialog | None = None
        self.intro = PlainLabel(self)
        self.intro.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("campaignSigners")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for column in (0, 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        # the selected signer's key, whole, to read out and compare
        self.fingerprint_label = PlainLabel(self)
        self.fingerprint = fingerprint_field(self)
        self.fingerprint.setObjectName("campaignSignerFingerprint")
        self.fingerprint_label.setBuddy(self.fingerprint)
        self.copy_button = QPushButton(self)
        self.copy_button.setObjectName("campaignCopyFingerprint")
        self.copy_button.clicked.connect(self.copy_fingerprint)
        self.trust_button = QPushButton(self)
        self.trust_button.setObjectName("campaignTrustKey")
        self.trust_button.clicked.connect(lambda: self.ask_trust())
        self.keys_button = QPushButton(self)
        self.keys_button.setObjectName("campaignTrustedKeys")
        self.keys_button.clicked.connect(lambda: self.open_trusted_keys())
        self.duties = PlainLabel(self)
        self.duties.setObjectName("campaignSeparation")
        self.duties.setWordWrap(True)
        set_tone(self.duties, "error")
        self.refused = PlainLabel(self)
        self.refused.setObjectName("campaignRemediationRefused")
        self.refused.setWordWrap(True)
        set_tone(self.refused, "error")
        plain(self.intro, self.duties, self.refused)
        for label in (self.duties, self.refused):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(self)
        self.plan_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.plan_button.setObjectName("campaignPlanRemediation")
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.plan_button.clicked.connect(self.planRequested)
        self.buttons.rejected.connect(self.reject)
        key = QHBoxLayout()
        key.addWidget(self.fingerprint_label)
        key.addWidget(self.fingerprint, 1)
        key.addWidget(self.copy_button)
        row = QHBoxLayout()
        for button in (self.trust_button, self.keys_button):
            row.addWidget(button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addLayout(key)
        layout.addLayout(row)
        layout.addWidget(self.refused)
        layout.addWidget(self.duties)
        layout.addWidget(self.buttons)
        self.resize(max(860, self.fingerprint.minimumWidth() + 320), 420)
        self.retranslateUi()

    # -- what is shown ---------------------------------------------------------------------------

    def show_check(self, campaign: str, check: Verification, reasons: list[str]) -> None:
        """Show ``check``'s sign-offs of ``campaign`` (its title) and ``reasons`` (why the
        administrator is one of the reviewers; empty: they are not)."""
        self.campaign = campaign
        self.check = check
        self.reasons = reasons
        chosen = self.selected()
        self.table.setRowCount(len(check.signoffs))
        for row, s in enumerate(check.signoffs):
            cells = (s.reviewer, signers.trust_words(s), signers.account_words(s))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == 1 and not s.trusted:  # the verdict that stops remediation
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(row, column, item)
        fingerprints = [s.fingerprint for s in check.signoffs]
        untrusted = [r for r, s in enumerate(check.signoffs) if not s.trusted]
        if chosen is not None and chosen.fingerprint in fingerprints:
            target = fingerprints.index(chosen.fingerprint)  # the row chosen stays chosen
        else:
            target = untrusted[0] if untrusted else 0
        if check.signoffs:
            self.table.selectRow(target)
        self._describe()

    def selected(self) -> Signoff | None:
        """The sign-off of the selected row."""
        rows = self.table.selectionModel().selectedRows()
        if self.check is None or not rows or rows[0].row() >= len(self.check.signoffs):
            return None
        return self.check.signoffs[rows[0].row()]

    def _selection_changed(self) -> None:
        chosen = self.selected()
        self.fingerprint.setText(chosen.fingerprint if chosen is not None else "")
        self.copy_button.setEnabled(chosen is not None)
        self.trust_button.setEnabled(chosen is not None and not chosen.trusted)

    def _describe(self) -> None:
        check = self.check
        self.setWindowTitle(
            fill(QCoreApplication.translate("CampaignRemediation", "Remediate “%1”"), self.campaign)
        )
        self._selection_changed()
        if check is None:
            return
        untrusted = len(check.untrusted)
        if check.status == "unsigned":
            refused = QCoreApplication.translate(
                "CampaignRemediation",
                "Nothing in this campaign is signed off: there is nothing to remediate.",
            )
        elif check.status != "intact":
            refused = QCoreApplication.translate(
                "CampaignRemediation",
                "The campaign changed since it was signed off: it is not remediated. Verify"
                " names what changed.",
            )
        elif untrusted:
            refused = QCoreApplication.translate(
                "CampaignRemediation",
                "Remediation is refused until every signer's key is trusted here; not trusted:"
                " %n. Compare each fingerprint with the reviewer's by another channel (in"
                " person or by telephone), then trust the key.",
                None,
                untrusted,
            )
        elif check.old_format:
            refused = QCoreApplication.translate(
                "CampaignRemediation",
                "A sign-off was made by an earlier version of the program and does not cover"
                " the revocation action: the reviewer signs off again with this version.",
            )
        else:
            refused = ""
        self.refused.setText(refused)
        self.refused.setVisible(bool(refused))
        self.plan_button.setEnabled(not refused)
        if self.reasons:
            self.duties.setText(
                QCoreApplication.translate(
                    "CampaignRemediation",
                    "Separation of duties: you are one of the reviewers of what this"
                    " remediation carries out. Another administrator should run it.",
                )
                + "\n"
                + "\n".join(self.reasons)
            )
        self.duties.setVisible(bool(self.reasons))

    # -- keys ------------------------------------------------------------------------------------

    def copy_fingerprint(self) -> None:
        """Put the selected signer's fingerprint on the clipboard."""
        chosen = self.selected()
        if chosen is not None:
            QGuiApplication.clipboard().setText(chosen.fingerprint)

    def ask_trust(self) -> AddKeyDialog | None:
        """Trust the selected signer's key (the Trusted keys' Add dialog, the fingerprint
        given); the sign-offs are checked again once it is added."""
        chosen = self.selected()
        if chosen is None or chosen.trusted:
            return None
        self.add_dialog = open_add_key(
            self.store, self, self._trusted, fingerprint=chosen.fingerprint, own=self.own
        )
        return self.add_dialog

    def _trusted(self, _key: TrustedKey) -> None:
        self.add_dialog = None
        self.recheckRequested.emit()

    def open_trusted_keys(self) -> TrustedKeysDialog:
        """The list of trusted keys (a change checks the sign-offs again)."""
        dialog = TrustedKeysDialog(self.store, self.own, self)
        dialog.changed.connect(self.recheckRequested)
        dialog.finished.connect(dialog.deleteLater)
        self.keys_dialog = dialog
        dialog.open()
        return dialog

    # -- language --------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.intro.setText(
            QCoreApplication.translate(
                "CampaignRemediation",
                "The signed-off Revokes are carried out as a bulk job, planned from each"
                " account's state now. Check who signed off first: compare each key's"
                " fingerprint with the one the reviewer gave you by another channel.",
            )
        )
        self.table.setHorizontalHeaderLabels([_tr(c) for c in COLUMNS])
        self.table.setAccessibleName(QCoreApplication.translate("CampaignRemediation", "Sign-offs"))
        self.copy_button.setText(QCoreApplication.translate("CampaignRemediation", "&Copy"))
        self.copy_button.setToolTip(
            QCoreApplication.translate("CampaignRemediation", "Copy the fingerprint")
        )
        self.fingerprint_label.setText(
            QCoreApplication.translate("CampaignRemediation", "Key &fingerprint:")
        )
        self.trust_button.setText(
            QCoreApplication.translate("CampaignRemediation", "&Trust this key…")
        )
        self.keys_button.setText(
            QCoreApplication.translate("CampaignRemediation", "Trusted &keys…")
        )
        self.plan_button.setText(
            QCoreApplication.translate("CampaignRemediation", "&Plan the remediation")
        )
        self.duties.setAccessibleName(
            QCoreApplication.translate("CampaignRemediation", "Separation of duties")
        )
        self.refused.setAccessibleName(
            QCoreApplication.translate("CampaignRemediation", "Why remediation is refused")
        )
        if self.check is not None:
            self.show_check(self.campaign, self.check, self.reasons)
        else:
            self._describe()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
