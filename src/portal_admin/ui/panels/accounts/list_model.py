"""A small table model over a plain list of records (lists the API does not page)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from portal_admin.ui.lists.paged_model import Column, RowRole
from portal_admin.ui.widgets.plain import plain_tooltip

AnyIndex = QModelIndex | QPersistentModelIndex


class RecordListModel(QAbstractTableModel):
    """A short list of records (not paged) shown with :class:`Column` definitions."""

    def __init__(self, columns: Sequence[Column[Any]], parent: Any = None) -> None:
        super().__init__(parent)
        self.columns = tuple(columns)
        self._rows: list[Any] = []

    @property
    def rows(self) -> tuple[Any, ...]:
        """The records shown."""
        return tuple(self._rows)

    def set_records(self, records: Sequence[Any]) -> None:
        """Show ``records`` (replaces everything)."""
        self.beginResetModel()
        self._rows = list(records)
        self.endResetModel()

    def remove(self, biz_id: str) -> bool:
        """Drop the record with ``biz_id``; True when it was shown."""
        for number, row in enumerate(self._rows):
            if getattr(row, "biz_id", None) == biz_id:
                self.beginRemoveRows(QModelIndex(), number, number)
                del self._rows[number]
                self.endRemoveRows()
                return True
        return False

    def replace(self, record: Any) -> None:
        """Put a fresh copy of a shown record in place (matched by ``biz_id``)."""
        for number, row in enumerate(self._rows):
            if getattr(row, "biz_id", None) == record.biz_id:
                self._rows[number] = record
                last = len(self.columns) - 1
                self.dataChanged.emit(self.index(number, 0), self.index(number, last))

    def row_of(self, biz_id: str) -> int:
        """The row of a record, or -1."""
        return next(
            (n for n, r in enumerate(self._rows) if getattr(r, "biz_id", None) == biz_id), -1
        )

    def insert(self, record: Any, row: int = 0) -> None:
        """Add ``record`` at ``row``."""
        row = max(0, min(row, len(self._rows)))
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows.insert(row, record)
        self.endInsertRows()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        row = self._rows[index.row()]
        column = self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.text(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(column.text(row))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(column.alignment.value)
        if role == RowRole:
            return row
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].title()
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )

    def retranslate(self) -> None:
        """Headers in the current language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.columns) - 1)
