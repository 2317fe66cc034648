"""The sign-in chart as a table: its textual equivalent, one row per day with the same numbers
(day, successful, failed, total), for screen readers and keyboard users."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from portal_admin.ui.i18n.dates import format_date

from .chart_data import DayCount

_Index = QModelIndex | QPersistentModelIndex


def _headers() -> tuple[str, ...]:
    return (
        QCoreApplication.translate("SignInChart", "Day"),
        QCoreApplication.translate("SignInChart", "Successful"),
        QCoreApplication.translate("SignInChart", "Failed"),
        QCoreApplication.translate("SignInChart", "Total"),
    )


class DayCountModel(QAbstractTableModel):
    """The chart's days as rows: the day (the locale's short date), successful, failed and
    total sign-ins. Column titles are the chart's legend, so a screen reader announces them."""

    COLUMNS = 4

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.days: tuple[DayCount, ...] = ()
        self.locale = QLocale()

    def set_days(self, days: Sequence[DayCount]) -> None:
        """Show ``days`` (the chart's, oldest first)."""
        self.beginResetModel()
        self.days = tuple(days)
        self.endResetModel()

    def set_locale(self, locale: QLocale) -> None:
        """Format dates and numbers for ``locale`` (the chart's)."""
        self.locale = locale
        self.retranslate()

    def retranslate(self) -> None:
        """Titles and texts in the current language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.COLUMNS - 1)
        if self.days:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self.days) - 1, self.COLUMNS - 1)
            )

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.days)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.COLUMNS

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.days):
            return None
        day = self.days[index.row()]
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            if column == 0:
                return format_date(day.day, self.locale)
            return self.locale.toString((day.success, day.failure, day.total)[column - 1])
        if role == Qt.ItemDataRole.UserRole:
            return (day.day, day.success, day.failure, day.total)[column]
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole)
            and 0 <= section < self.COLUMNS
        ):
            return _headers()[section]
        return super().headerData(section, orientation, role)
