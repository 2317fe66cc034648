"""A campaign from a snapshot: which snapshot, the name, the due date, how access is revoked
and where the file goes. Not modal; it asks the panel to create (``createRequested``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDate, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from portal_admin.evidence import snapshot as snapshots
from portal_admin.reviews import Settings
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel


def _tr(text: str) -> str:
    return QCoreApplication.translate("CampaignCreate", text)


class CreateDialog(QDialog):
    """Choose a snapshot and the campaign's settings."""

    createRequested = Signal(Path, Path, object)

    def __init__(self, folder: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("campaignCreate")
        self.folder = folder
        self.snapshot = QComboBox(self)
        self.snapshot.setObjectName("campaignSnapshot")
        self.name = QLineEdit(self)
        self.name.setObjectName("campaignName")
        self.due = QDateEdit(self)
        self.due.setObjectName("campaignDueDate")
        self.due.setCalendarPopup(True)
        self.due.setDisplayFormat("yyyy-MM-dd")
        soon = datetime.now(UTC).date() + timedelta(days=30)
        self.due.setDate(QDate(soon.year, soon.month, soon.day))
        self.revocation = QComboBox(self)
        self.revocation.setObjectName("campaignRevocation")
        self.file = QLineEdit(self)
        self.file.setObjectName("campaignFile")
        self.error = PlainLabel(self)
        self.error.setObjectName("campaignCreateError")
        self.error.setWordWrap(True)
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # the engine's words name files
        set_tone(self.error, "error")
        self.error.hide()
        self.name.textChanged.connect(self._suggest_file)
        self.form = QFormLayout()
        self.labels = [PlainLabel(self) for _ in range(5)]
        for label, field in zip(
            self.labels,
            (self.snapshot, self.name, self.due, self.revocation, self.file),
            strict=True,
        ):
            label.setBuddy(field)
            self.form.addRow(label, field)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.request)
        self.buttons.rejected.connect(self.hide)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.retranslateUi()
        self.resize(560, 0)

    def fill_snapshots(self, chosen: Path | None = None) -> None:
        """The complete snapshots of the folder, newest first (and ``chosen``, selected)."""
        self.snapshot.clear()
        found = snapshots.list_snapshots(self.folder)
        if chosen is not None and all(s.path != chosen for s in found):
            try:
                found.insert(0, snapshots.open_snapshot(chosen))
            except snapshots.SnapshotError:
                chosen = None
        for each in found:
            when = format_datetime(each.meta.get("finished"))
            self.snapshot.addItem(f"{when}  {each.meta.get('server', '')}", each.path)
        if chosen is not None:
            self.snapshot.setCurrentIndex(max(0, self.snapshot.findData(chosen)))

    def _suggest_file(self, name: str) -> None:
        slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name.strip()).strip("-") or "campaign"
        self.file.setText(str(self.folder / f"{slug}.review"))

    def settings(self) -> Settings:
        """The settings as entered."""
        return Settings(
            self.name.text().strip(),
            self.due.date().toString("yyyy-MM-dd"),
            str(self.revocation.currentData()),
        )

    def request(self) -> None:
        """Ask for the campaign (the panel creates it and hides this dialog)."""
        path = self.snapshot.currentData()
        if path is None:
            self.show_error(
                QCoreApplication.translate(
                    "CampaignCreate", "There is no snapshot yet: take one in Snapshots first."
                )
            )
            return
        if not self.name.text().strip():
            self.show_error(
                QCoreApplication.translate("CampaignCreate", "Give the campaign a name.")
            )
            return
        self.error.hide()
        self.createRequested.emit(Path(self.file.text().strip()), Path(path), self.settings())

    def show_error(self, text: str) -> None:
        """Say why nothing was created."""
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def retranslateUi(self) -> None:
        self.setWindowTitle(
            QCoreApplication.translate("CampaignCreate", "New access-review campaign")
        )
        for label, text in zip(
            self.labels,
            (
                QCoreApplication.translate("CampaignCreate", "&Snapshot:"),
                QCoreApplication.translate("CampaignCreate", "&Name:"),
                QCoreApplication.translate("CampaignCreate", "&Due:"),
                QCoreApplication.translate("CampaignCreate", "&Revoke by:"),
                QCoreApplication.translate("CampaignCreate", "&File:"),
            ),
            strict=True,
        ):
            label.setText(text)
        current = self.revocation.currentIndex()
        self.revocation.clear()
        self.revocation.addItem(
            QCoreApplication.translate("CampaignCreate", "Suspending the account"), "SUSPEND"
        )
        self.revocation.addItem(
            QCoreApplication.translate("CampaignCreate", "Deactivating the account"), "DEACTIVATE"
        )
        self.revocation.setCurrentIndex(max(current, 0))
