"""Asking the name of a saved view: the name, and a warning when it replaces a view."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from portal_admin.files.saved_views import MAX_NAME, ViewNameError, clean_name
from portal_admin.ui.widgets.plain import PlainLabel


class ViewNameDialog(QDialog):
    """The name of a view to save; OK only for a usable name."""

    def __init__(self, existing: list[str], suggested: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("viewNameDialog")
        self.setWindowTitle(QCoreApplication.translate("SavedViews", "Save view"))
        self._existing = {n.casefold(): n for n in existing}
        self.edit = QLineEdit(suggested, self)
        self.edit.setObjectName("viewName")
        self.edit.setMaxLength(MAX_NAME)
        self.edit.setAccessibleName(QCoreApplication.translate("SavedViews", "View name"))
        self.note = PlainLabel(self)
        self.note.setObjectName("viewNameNote")
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(QCoreApplication.translate("SavedViews", "&Name:"), self.edit)
        layout = QVBoxLayout(self)
        layout.addWidget(
            PlainLabel(
                QCoreApplication.translate(
                    "SavedViews",
                    "The filters, sort and columns of this list are kept on this computer.",
                )
            )
        )
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.edit.textChanged.connect(self._check)
        self.edit.selectAll()
        self._check()

    def name(self) -> str:
        """The name typed, cleaned (spaces folded); an existing view's own spelling when it
        names one in other letter case (saving replaces it)."""
        name = " ".join(self.edit.text().split())
        return self._existing.get(name.casefold(), name)

    def _check(self) -> None:
        try:
            name = clean_name(self.edit.text())
        except ViewNameError:
            name = ""
        replaced = self._existing.get(name.casefold()) if name else None
        self.note.setText(
            QCoreApplication.translate(
                "SavedViews", "A view of this name exists: saving replaces it."
            )
            if replaced
            else ""
        )
        self.note.setVisible(bool(replaced))
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setEnabled(bool(name))
