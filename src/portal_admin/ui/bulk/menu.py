"""The "Bulk changes" button of the accounts and invitations panels."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from portal_admin.ui.panels.base import PanelBase

from .dialog import BulkDialog, Sources
from .words import KINDS, word


class BulkButton(QToolButton):
    """A button with one menu entry per bulk action; each opens a :class:`BulkDialog`."""

    def __init__(
        self,
        panel: PanelBase,
        kinds: Sequence[str],
        sources: Callable[[], Sources],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent or panel)
        self.setObjectName("bulkButton")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.panel = panel
        self.sources = sources
        self.dialog: BulkDialog | None = None
        menu = QMenu(self)
        self.entries = {kind: menu.addAction("") for kind in kinds}
        for kind, entry in self.entries.items():
            entry.setObjectName(f"bulk-{kind}")
            entry.triggered.connect(lambda _=False, k=kind: self.open_dialog(k))
        self.setMenu(menu)
        self.retranslateUi()

    def open_dialog(self, kind: str) -> BulkDialog:
        """Open the bulk window for ``kind`` with the panel's current targets."""
        dialog = BulkDialog(self.panel, self.sources(), kind)
        self.dialog = dialog
        dialog.show()
        return dialog

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setText(QCoreApplication.translate("BulkButton", "Bulk changes"))
        self.setAccessibleName(QCoreApplication.translate("BulkButton", "Change many rows at once"))
        for kind, entry in self.entries.items():
            entry.setText(word(KINDS, kind) + "\u2026")
