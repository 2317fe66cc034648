"""The lines of a bulk job as a table: target, current, new, state and reason."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP

from .words import REASONS, STATES, word

Index = QModelIndex | QPersistentModelIndex

HEADERS = (
    QT_TRANSLATE_NOOP("BulkPlan", "Target"),
    QT_TRANSLATE_NOOP("BulkPlan", "Current"),
    QT_TRANSLATE_NOOP("BulkPlan", "New"),
    QT_TRANSLATE_NOOP("BulkPlan", "State"),
    QT_TRANSLATE_NOOP("BulkPlan", "Reason or error"),
)


class PlanModel(QAbstractTableModel):
    """Read-only rows of (label, current, new, state, reason or error code)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, str, str, str, str]] = []

    def set_items(self, items: Any) -> None:
        """Show the job's lines (``jobs.Item`` objects)."""
        self.beginResetModel()
        self._rows = [
            (
                i.label,
                i.current,
                i.after if i.after is not None else i.new,
                word(STATES, str(i.state)),
                word(REASONS, i.skip) if i.skip else (i.error_code or ""),
            )
            for i in items
        ]
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._rows[index.row()][index.column()]
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation is Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("BulkPlan", HEADERS[section])
        return None
