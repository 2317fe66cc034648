"""Export… and Import… of connection profiles (files of ``connection/profile_file.py``).

File dialogs are opened with ``open()``; an import first shows what it would add and replace
(:class:`ImportPreview`), and a file with a fault names the field at fault and imports nothing.
A file never holds a password, token or the portal access code.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QVBoxLayout,
    QWidget,
)

from portal_admin.connection.profile_file import (
    ImportPlan,
    ProfileFileError,
    export_profiles,
    load_profiles,
    merge_import,
    plan_import,
)
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.profiles.store import Profile
from portal_admin.ui.widgets.plain import PlainLabel


def file_problem(exc: ProfileFileError) -> str:
    """A translated sentence naming the field at fault (the reason stays as the core says)."""
    if exc.field:
        return fill(
            QCoreApplication.translate(
                "ProfileTransfer",
                "The file cannot be imported: %1 %2. Nothing was imported.",
            ),
            exc.field,
            exc.reason,
        )
    return fill(
        QCoreApplication.translate(
            "ProfileTransfer", "The file cannot be imported: %1. Nothing was imported."
        ),
        exc.reason,
    )


class ImportPreview(QDialog):
    """What an import would do: profiles added, replaced, and skipped (managed or built-in)."""

    def __init__(self, plan: ImportPlan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importPreview")
        self.plan = plan
        self.summary = PlainLabel(self)
        self.summary.setObjectName("importSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.replace = QCheckBox(self)
        self.replace.setObjectName("replaceExisting")
        self.replace.setChecked(True)
        self.replace.setVisible(bool(plan.replaced))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.import_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.import_button.setEnabled(bool(plan.added or plan.replaced))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.replace)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(420)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        plan = self.plan
        self.setWindowTitle(QCoreApplication.translate("ProfileTransfer", "Import profiles"))
        lines = []
        if plan.added:
            lines.append(
                fill(
                    QCoreApplication.translate("ProfileTransfer", "Adds: %1"), ", ".join(plan.added)
                )
            )
        if plan.replaced:
            lines.append(
                fill(
                    QCoreApplication.translate("ProfileTransfer", "Replaces: %1"),
                    ", ".join(plan.replaced),
                )
            )
        if plan.blocked:
            lines.append(
                fill(
                    QCoreApplication.translate(
                        "ProfileTransfer", "Skips (managed or built-in, never replaced): %1"
                    ),
                    ", ".join(plan.blocked),
                )
            )
        if not plan.profiles:
            lines.append(
                QCoreApplication.translate("ProfileTransfer", "The file holds no profile.")
            )
        self.summary.setText("\n".join(lines))
        self.replace.setText(
            QCoreApplication.translate("ProfileTransfer", "Replace my profiles of the same name")
        )
        self.import_button.setText(QCoreApplication.translate("ProfileTransfer", "&Import"))


class ProfileTransfer(QObject):
    """Export… and Import… for the profiles ``profiles()`` returns; results through signals."""

    #: A file was written: its path and the number of profiles in it.
    exported = Signal(str, int)
    #: An import was accepted: the whole new list of profiles, ready for ``store.save``.
    imported = Signal(object)
    #: Something went wrong (a translated sentence); nothing was written or imported.
    problem = Signal(str)

    def __init__(self, profiles: Callable[[], list[Profile]], parent: QWidget) -> None:
        super().__init__(parent)
        self._profiles = profiles
        self._parent = parent
        self.file_dialog: QFileDialog | None = None
        self.preview: ImportPreview | None = None

    def _dialog(self, title: str, save: bool) -> QFileDialog:
        dialog = QFileDialog(self._parent, title)
        dialog.setNameFilters(
            [
                QCoreApplication.translate("ProfileTransfer", "Profile files (*.json)"),
                QCoreApplication.translate("ProfileTransfer", "All files (*)"),
            ]
        )
        if save:
            dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
            dialog.setDefaultSuffix("json")
            dialog.selectFile("portal-admin-profiles.json")
        else:
            dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        self.file_dialog = dialog
        return dialog

    def export(self) -> None:
        """Ask where to export every profile (the built-in sandbox is never exported)."""
        dialog = self._dialog(
            QCoreApplication.translate("ProfileTransfer", "Export profiles"), save=True
        )
        dialog.fileSelected.connect(self.write)
        dialog.open()

    def write(self, path: str) -> bool:
        """Write the profiles to ``path`` (without access codes)."""
        try:
            count = export_profiles(self._profiles(), Path(path))
        except ProfileFileError as exc:
            self.problem.emit(
                fill(
                    QCoreApplication.translate(
                        "ProfileTransfer", "The profiles cannot be exported: %1 %2."
                    ),
                    exc.field,
                    exc.reason,
                )
            )
            return False
        except OSError as exc:
            self.problem.emit(
                fill(
                    QCoreApplication.translate(
                        "ProfileTransfer", "The file could not be written: %1"
                    ),
                    exc.strerror or str(exc),
                )
            )
            return False
        self.exported.emit(path, count)
        return True

    def import_(self) -> None:
        """Ask for a profile file to import."""
        dialog = self._dialog(
            QCoreApplication.translate("ProfileTransfer", "Import profiles"), save=False
        )
        dialog.fileSelected.connect(self.read)
        dialog.open()

    def read(self, path: str) -> ImportPreview | None:
        """Check ``path`` and show what importing it would do; None when it has a fault."""
        try:
            incoming = load_profiles(Path(path))
        except ProfileFileError as exc:
            self.problem.emit(file_problem(exc))
            return None
        existing = self._profiles()
        preview = ImportPreview(plan_import(existing, incoming), self._parent)
        preview.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        preview.accepted.connect(
            lambda: self.imported.emit(
                merge_import(existing, incoming, replace=preview.replace.isChecked())
            )
        )
        self.preview = preview
        preview.open()
        return preview
