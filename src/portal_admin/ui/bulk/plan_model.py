"""The lines of a bulk job as a table: target, before, new, state and reason ("before": the
value read when the job was planned, which stays true of the line after the job has run)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from portal_admin.jobs.plan import changed_field
from portal_admin.ui.enum_labels import value_label
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.widgets.plain import plain_tooltip

from .words import REASONS, STATES, word

Index = QModelIndex | QPersistentModelIndex

HEADERS = (
    QT_TRANSLATE_NOOP("BulkPlan", "Target"),
    QT_TRANSLATE_NOOP("BulkPlan", "Before"),
    QT_TRANSLATE_NOOP("BulkPlan", "New"),
    QT_TRANSLATE_NOOP("BulkPlan", "State"),
    QT_TRANSLATE_NOOP("BulkPlan", "Reason or error"),
)


class PlanModel(QAbstractTableModel):
    """Read-only rows of (label, current, new, state, reason or error code): values as the
    person's labels, their codes in the tooltip; every cell's whole text in its tooltip."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        #: Each line as the job has it: label, current, new, state, skip, error code, field.
        self._lines: list[tuple[str, str, str, str, str, str, str]] = []
        self._rows: list[tuple[str, str, str, str, str]] = []
        self._tips: list[tuple[str, str, str, str, str]] = []

    def show_job(self, job: Any) -> None:
        """Show a job's lines, each value in words for the field the job changes."""
        self.set_items(job.items(), changed_field(job))

    def set_items(self, items: Any, field: str | None = None) -> None:
        """Show the job's lines (``jobs.Item`` objects); ``field`` names what they change."""
        self.beginResetModel()
        self._lines = [
            (
                i.label,
                i.current,
                i.after if i.after is not None else i.new,
                str(i.state),
                i.skip or "",
                i.error_code or "",
                field or str(i.record.get("key") or ""),
            )
            for i in items
        ]
        self._word()
        self.endResetModel()

    def retranslate(self) -> None:
        """Say every line again in the current language."""
        self._word()
        if self._lines:
            last = self.index(len(self._lines) - 1, len(HEADERS) - 1)
            self.dataChanged.emit(self.index(0, 0), last)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(HEADERS) - 1)

    def _word(self) -> None:
        self._rows, self._tips = [], []
        for label, current, new, state, skip, error, field in self._lines:
            row = (
                label,
                value_label(field, current) if field else current,
                value_label(field, new) if field else new,
                word(STATES, state),
                word(REASONS, skip) if skip else error,
            )
            self._rows.append(row)
            code = skip or error
            tips = (label, _with_code(row[1], current), _with_code(row[2], new), row[3])
            self._tips.append((*tips, _with_code(row[4], code)))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(self._tips[index.row()][index.column()])
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation is Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("BulkPlan", HEADERS[section])
        return None


def _with_code(text: str, code: str) -> str:
    """A label with its code after it, when they differ ("Suspended (SUSPENDED)")."""
    return f"{text} ({code})" if code and code != text else text
