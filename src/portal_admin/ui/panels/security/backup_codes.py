"""The new backup codes, shown exactly once: a monospace grid with Copy and Save….

The codes live only in this dialog's labels while it is open; closing it clears them. They
are never logged. In tour mode (screenshots) placeholders are shown instead.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QStandardPaths, Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.files.atomic import atomic_open
from portal_admin.files.portable import make_private
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.widgets.plain import PlainLabel

log = logging.getLogger(__name__)

MASK = "\u2022\u2022\u2022\u2022-\u2022\u2022\u2022\u2022"
COLUMNS = 2


def write_private_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, readable and writable by the owner only (0600)."""
    with atomic_open(path, encoding="utf-8", private=True) as fh:
        fh.write(text)
    make_private(path)


def codes_text(codes: Sequence[str], title: str) -> str:
    """The codes as plain text, one a line, under ``title``."""
    return title + "\n\n" + "\n".join(codes) + "\n"


class BackupCodesDialog(QDialog):
    """Shows a new set of backup codes once, with Copy and Save…."""

    def __init__(
        self, codes: Sequence[str], *, masked: bool = False, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("backupCodesDialog")
        self.setModal(True)
        self.masked = masked
        self._codes: list[str] = [MASK] * len(codes) if masked else list(codes)
        self.intro = PlainLabel(self)
        self.intro.setWordWrap(True)
        self.intro.setObjectName("backupCodesIntro")
        self.grid = QWidget(self)
        self.grid.setObjectName("backupCodesGrid")
        grid = QGridLayout(self.grid)
        grid.setHorizontalSpacing(32)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.code_labels: list[QLabel] = []
        for n, code in enumerate(self._codes):
            label = PlainLabel(code, self.grid)
            label.setFont(font)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setObjectName(f"backupCode{n}")
            grid.addWidget(label, n // COLUMNS, n % COLUMNS)
            self.code_labels.append(label)
        self.status = PlainLabel(self)
        self.status.setObjectName("backupCodesStatus")
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = QPushButton(self)
        self.copy_button.setObjectName("copyCodes")
        self.save_button = QPushButton(self)
        self.save_button.setObjectName("saveCodes")
        self.buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.rejected.connect(self.reject)
        self.copy_button.clicked.connect(self.copy)
        self.save_button.clicked.connect(self.choose_file)
        for button in (self.copy_button, self.save_button):
            button.setEnabled(not masked and bool(codes))
        self.file_dialog: QFileDialog | None = None
        #: The codes being written (``save_to``, started by the file dialog).
        self.saving: asyncio.Task[bool] | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.grid, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.finished.connect(self.wipe)
        self.setMinimumWidth(440)
        self.retranslateUi()

    @property
    def codes(self) -> tuple[str, ...]:
        """The codes shown (empty once the dialog has closed)."""
        return tuple(self._codes)

    def text(self) -> str:
        """The codes as the clipboard and the file get them."""
        return codes_text(
            self._codes,
            QCoreApplication.translate(
                "BackupCodesDialog", "System Portal backup codes (each works once)"
            ),
        )

    def copy(self) -> None:
        """Copy the codes to the clipboard."""
        if self.masked or not self._codes:
            return
        QGuiApplication.clipboard().setText(self.text())
        self.status.setText(
            QCoreApplication.translate("BackupCodesDialog", "Copied to the clipboard.")
        )

    def choose_file(self) -> None:
        """Ask where to save the codes (a file dialog opened with open(), not exec())."""
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        dialog = QFileDialog(
            self,
            QCoreApplication.translate("BackupCodesDialog", "Save backup codes"),
            str(Path(folder or Path.home())),
        )
        dialog.setObjectName("saveCodesFileDialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter(QCoreApplication.translate("BackupCodesDialog", "Text files (*.txt)"))
        dialog.setDefaultSuffix("txt")
        dialog.selectFile("backup-codes.txt")
        dialog.fileSelected.connect(self._file_chosen)
        dialog.finished.connect(self._file_dialog_done)
        self.file_dialog = dialog
        dialog.open()

    def _file_dialog_done(self, _result: int) -> None:
        if self.file_dialog is not None:
            self.file_dialog.deleteLater()
            self.file_dialog = None

    def _file_chosen(self, name: str) -> None:
        if name:
            self.saving = asyncio.ensure_future(self.save_to(Path(name)))

    async def save_to(self, path: Path) -> bool:
        """Write the codes to ``path`` (owner-only, atomically, in a worker thread); True when
        saved."""
        if self.masked or not self._codes:
            return False
        try:
            await in_worker(write_private_text, path, self.text())
        except OSError as exc:
            log.warning("saving backup codes failed: %s", type(exc).__name__)
            self.status.setText(
                fill(
                    QCoreApplication.translate("BackupCodesDialog", "Could not save the file: %1"),
                    exc.strerror or exc,
                )
            )
            return False
        self.status.setText(
            fill(
                QCoreApplication.translate(
                    "BackupCodesDialog", "Saved to %1 (readable by you only)."
                ),
                str(path),
            )
        )
        return True

    def wipe(self, *_args: object) -> None:
        """Forget the codes: clear every label and drop the list."""
        for label in self.code_labels:
            label.clear()
        self._codes = []
        self.copy_button.setEnabled(False)
        self.save_button.setEnabled(False)
        if self.file_dialog is not None:
            self.file_dialog.fileSelected.disconnect(self._file_chosen)
            self.file_dialog.reject()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("BackupCodesDialog", "New backup codes"))
        self.intro.setText(
            QCoreApplication.translate(
                "BackupCodesDialog",
                "Keep these codes somewhere safe. Each code signs you in once when you cannot"
                " use your other methods. They are shown only now: after you close this"
                " window they cannot be shown again. Your previous codes no longer work.",
            )
        )
        self.copy_button.setText(QCoreApplication.translate("BackupCodesDialog", "&Copy"))
        self.copy_button.setAccessibleName(
            QCoreApplication.translate("BackupCodesDialog", "Copy the codes")
        )
        self.save_button.setText(QCoreApplication.translate("BackupCodesDialog", "&Save\u2026"))
        self.save_button.setAccessibleName(
            QCoreApplication.translate("BackupCodesDialog", "Save the codes to a file")
        )
        self.grid.setAccessibleName(QCoreApplication.translate("BackupCodesDialog", "Backup codes"))
        self.status.setAccessibleName(QCoreApplication.translate("BackupCodesDialog", "Status"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
