"""Dialogs of CSV export: options (file, delimiter) and progress with cancel; the flow."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QStandardPaths, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.files.csv_rules import DELIMITERS
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.widgets.dialogs import ask
from portal_admin.ui.widgets.plain import PlainLabel

from .csv_export import export_csv
from .paged_model import Column, Query

log = logging.getLogger(__name__)


class ExportOptionsDialog(QDialog):
    """Where to save and which delimiter to use."""

    def __init__(self, suggested: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exportOptionsDialog")
        self.path_edit = QLineEdit(str(suggested), self)
        self.browse_button = QPushButton(self)
        self.browse_button.clicked.connect(self._browse)
        self.delimiter = QComboBox(self)
        for key in DELIMITERS:
            self.delimiter.addItem("", key)
        self.path_label = PlainLabel(self)
        self.delimiter_label = PlainLabel(self)
        self.path_label.setBuddy(self.path_edit)
        self.delimiter_label.setBuddy(self.delimiter)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(self.browse_button)
        form = QFormLayout()
        form.addRow(self.path_label, row)
        form.addRow(self.delimiter_label, self.delimiter)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.path_edit.textChanged.connect(self._validate)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self._file_dialog: QFileDialog | None = None
        self.setMinimumWidth(480)
        self.retranslateUi()

    @property
    def path(self) -> Path:
        """The chosen file."""
        return Path(self.path_edit.text().strip()).expanduser()

    @property
    def delimiter_char(self) -> str:
        """The chosen delimiter."""
        return DELIMITERS[str(self.delimiter.currentData())]

    def _validate(self) -> None:
        ok = bool(self.path_edit.text().strip())
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setEnabled(ok)

    def _browse(self) -> None:
        dialog = QFileDialog(
            self, QCoreApplication.translate("ExportDialog", "Export to CSV"), str(self.path)
        )
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter(QCoreApplication.translate("ExportDialog", "CSV files (*.csv)"))
        dialog.setDefaultSuffix("csv")
        dialog.fileSelected.connect(self.path_edit.setText)
        self._file_dialog = dialog
        dialog.open()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("ExportDialog", "Export to CSV"))
        self.path_label.setText(QCoreApplication.translate("ExportDialog", "&File:"))
        self.delimiter_label.setText(QCoreApplication.translate("ExportDialog", "&Delimiter:"))
        self.browse_button.setText(QCoreApplication.translate("ExportDialog", "Browse\u2026"))
        names = {
            "comma": QCoreApplication.translate("ExportDialog", "Comma (,)"),
            "semicolon": QCoreApplication.translate("ExportDialog", "Semicolon (;)"),
            "tab": QCoreApplication.translate("ExportDialog", "Tab"),
        }
        for i in range(self.delimiter.count()):
            self.delimiter.setItemText(i, names[str(self.delimiter.itemData(i))])
        self.path_edit.setAccessibleName(QCoreApplication.translate("ExportDialog", "Export file"))
        self.browse_button.setAccessibleName(
            QCoreApplication.translate("ExportDialog", "Choose the export file")
        )
        self.delimiter.setAccessibleName(QCoreApplication.translate("ExportDialog", "Delimiter"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


class ExportProgressDialog(QDialog):
    """A progress bar and a Cancel button (no nested event loop, unlike QProgressDialog)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exportProgressDialog")
        self.label = PlainLabel(self)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 0)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(380)
        self.set_progress(0, 0)

    def set_progress(self, done: int, total: int) -> None:
        """Show ``done`` of ``total`` rows."""
        self.setWindowTitle(QCoreApplication.translate("ExportDialog", "Exporting"))
        self.bar.setAccessibleName(QCoreApplication.translate("ExportDialog", "Export progress"))
        if total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(done)
        self.label.setText(
            fill(
                QCoreApplication.translate("ExportDialog", "Exported %1 of %2 rows\u2026"),
                done,
                total or "?",
            )
        )


class ExportDoneBox(QMessageBox):
    """Says the export is done: how many rows, to which file, with an Open folder button."""

    def __init__(self, path: Path, rows: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exportDoneBox")
        self.path = path
        self.rows = rows
        self.setIcon(QMessageBox.Icon.Information)
        self.setTextFormat(Qt.TextFormat.PlainText)  # the file's name is the person's text
        self.open_folder_button = self.addButton(
            QCoreApplication.translate("ExportDialog", "Open folder"),
            QMessageBox.ButtonRole.ActionRole,
        )
        self.open_folder_button.setObjectName("exportOpenFolder")
        self.ok_button = self.addButton(QMessageBox.StandardButton.Ok)
        self.setDefaultButton(self.ok_button)
        self.setEscapeButton(self.ok_button)
        self.buttonClicked.connect(self._clicked)
        self.retranslateUi()

    def _clicked(self, button: QAbstractButton) -> None:
        if button is self.open_folder_button:
            self.open_folder()

    def open_folder(self) -> bool:
        """Show the file's folder in the system's file manager."""
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.path.parent)))

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("ExportDialog", "Export finished"))
        n = self.rows
        done = QCoreApplication.translate("ExportDialog", "%n row(s) exported to %1.", None, n)
        self.setText(fill(done, self.path))
        self.open_folder_button.setText(QCoreApplication.translate("ExportDialog", "Open folder"))
        self.open_folder_button.setAccessibleName(
            QCoreApplication.translate("ExportDialog", "Open the folder of the exported file")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


async def run_export(
    parent: QWidget | None,
    columns: Sequence[Column[Any]],
    query: Query[Any],
    suggested_name: str,
) -> Path | None:
    """Ask for options, export with progress and cancel; the written file, or None.

    In a kiosk session the file carries the read-only marking; an export the kiosk policy
    forbids is refused (its buttons are hidden too).
    """
    from portal_admin.ui.kiosk import marking as kiosk_marking

    marking = kiosk_marking.current()
    if marking is not None and not marking.csv_export:
        log.warning("CSV export refused: the kiosk policy forbids it")
        return None
    footer = kiosk_marking.csv_footer(marking) if marking is not None else None
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    options = ExportOptionsDialog(Path(folder or Path.home()) / suggested_name, parent)
    try:
        if await ask(options) != QDialog.DialogCode.Accepted:
            return None
        path, delimiter = options.path, options.delimiter_char
    finally:
        options.deleteLater()
    progress = ExportProgressDialog(parent)
    task = asyncio.ensure_future(
        export_csv(
            path,
            columns,
            query,
            delimiter=delimiter,
            progress=progress.set_progress,
            footer=footer,
        )
    )
    progress.rejected.connect(task.cancel)
    progress.open()
    try:
        rows = await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if not task.cancelled() or (current is not None and current.cancelling()):
            raise
        log.info("export to %s cancelled", path)
        return None
    finally:
        progress.rejected.disconnect(task.cancel)
        progress.done(QDialog.DialogCode.Accepted)
        progress.deleteLater()
    log.info("exported %d rows to %s", rows, path)
    done = ExportDoneBox(path, rows, parent)
    done.finished.connect(done.deleteLater)
    done.open()  # window-modal, no nested loop; the export is over either way
    return path
