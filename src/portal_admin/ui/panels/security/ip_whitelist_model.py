"""The IP whitelist's entries as a table model: each entry checked as it changes, with its
kind or the reason it is not valid (translated, in the panel's context)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor

from portal_admin.client.records import IpEntry
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.widgets.plain import plain_tooltip

from .ip_rules import EntryCheck, EntryKind, Problem, check_entry

AnyIndex = QModelIndex | QPersistentModelIndex
_CONTEXT = "IpWhitelistPanel"
INVALID_TEXT = QColor("#b00020")
INVALID_BACKGROUND = QColor("#fdecea")

HEADERS = (
    QT_TRANSLATE_NOOP("IpWhitelistPanel", "Address or network"),
    QT_TRANSLATE_NOOP("IpWhitelistPanel", "Kind"),
    QT_TRANSLATE_NOOP("IpWhitelistPanel", "Added"),
)
ENTRY, KIND, ADDED = range(3)

KIND_TEXT = {
    EntryKind.IPV4: QT_TRANSLATE_NOOP("IpWhitelistPanel", "IPv4 address"),
    EntryKind.IPV6: QT_TRANSLATE_NOOP("IpWhitelistPanel", "IPv6 address"),
    EntryKind.IPV4_NETWORK: QT_TRANSLATE_NOOP("IpWhitelistPanel", "IPv4 network (CIDR)"),
    EntryKind.IPV6_NETWORK: QT_TRANSLATE_NOOP("IpWhitelistPanel", "IPv6 network (CIDR)"),
}
PROBLEM_TEXT = {
    Problem.EMPTY: QT_TRANSLATE_NOOP("IpWhitelistPanel", "Enter an address or a network."),
    Problem.TOO_LONG: QT_TRANSLATE_NOOP("IpWhitelistPanel", "Too long for an address."),
    Problem.HOST_BITS: QT_TRANSLATE_NOOP(
        "IpWhitelistPanel", "Host bits are set: use the network address."
    ),
    Problem.BAD_PREFIX: QT_TRANSLATE_NOOP("IpWhitelistPanel", "The prefix length is not valid."),
    Problem.NOT_AN_ADDRESS: QT_TRANSLATE_NOOP(
        "IpWhitelistPanel", "Not an IPv4 or IPv6 address or CIDR network."
    ),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate(_CONTEXT, text)


def describe_check(check: EntryCheck) -> str:
    """What an entry is, or why it is not valid (translated)."""
    if check.problem is not None:
        return _tr(PROBLEM_TEXT[check.problem])
    assert check.kind is not None
    return _tr(KIND_TEXT[check.kind])


class EntriesModel(QAbstractTableModel):
    """Whitelist entries being edited; each checked as it changes."""

    #: Emitted when the number of invalid entries or the edited state may have changed.
    validityChanged = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._texts: list[str] = []
        self._checks: list[EntryCheck] = []
        self._created: dict[str, datetime] = {}
        self._saved: list[str] = []

    # -- content -------------------------------------------------------------------------------

    def set_entries(self, entries: Sequence[IpEntry]) -> None:
        """Show the server's entries (they become the saved state)."""
        self.beginResetModel()
        self._texts = [e.ip for e in entries]
        self._checks = [check_entry(t) for t in self._texts]
        self._created = {}
        for entry in entries:
            created = entry.created_at
            if created is not None:
                self._created[entry.ip] = created
        self._saved = list(self._texts)
        self.endResetModel()
        self.validityChanged.emit()

    def rebase(self, entries: Sequence[IpEntry]) -> None:
        """Take ``entries`` as the saved state, keeping the edits."""
        self._saved = [e.ip for e in entries]
        for entry in entries:
            created = entry.created_at
            if created is not None:
                self._created[entry.ip] = created
        self.validityChanged.emit()

    def entries(self) -> list[str]:
        """The entries as typed (trimmed)."""
        return [t.strip() for t in self._texts]

    def checks(self) -> tuple[EntryCheck, ...]:
        """The check of every entry."""
        return tuple(self._checks)

    @property
    def invalid_count(self) -> int:
        """How many entries are not valid."""
        return sum(not c.valid for c in self._checks)

    @property
    def all_valid(self) -> bool:
        """True when every entry is valid."""
        return self.invalid_count == 0

    @property
    def dirty(self) -> bool:
        """True when the entries differ from the saved ones."""
        return self.entries() != self._saved

    def add_entry(self, text: str) -> int:
        """Append ``text``; returns its row."""
        row = len(self._texts)
        self.beginInsertRows(QModelIndex(), row, row)
        self._texts.append(text.strip())
        self._checks.append(check_entry(text))
        self.endInsertRows()
        self.validityChanged.emit()
        return row

    def remove_row(self, row: int) -> None:
        """Remove the entry at ``row``."""
        if not 0 <= row < len(self._texts):
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._texts[row]
        del self._checks[row]
        self.endRemoveRows()
        self.validityChanged.emit()

    # -- Qt model API --------------------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._texts)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._texts):
            return None
        row, column = index.row(), index.column()
        check = self._checks[row]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if column == ENTRY:
                return self._texts[row]
            if column == KIND:
                return describe_check(check)
            created = self._created.get(self._texts[row].strip())
            return format_datetime(created) if created else ""
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(describe_check(check))
        if not check.valid and column in (ENTRY, KIND):
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(INVALID_TEXT)
            if role == Qt.ItemDataRole.BackgroundRole:
                return QBrush(INVALID_BACKGROUND)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return describe_check(check)
        return None

    def setData(self, index: AnyIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if (
            not index.isValid()
            or index.column() != ENTRY
            or role != Qt.ItemDataRole.EditRole
            or not 0 <= index.row() < len(self._texts)
        ):
            return False
        text = str(value) if value is not None else ""
        row = index.row()
        self._texts[row] = text
        self._checks[row] = check_entry(text)
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(HEADERS) - 1))
        self.validityChanged.emit()
        return True

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(HEADERS)
        ):
            return _tr(HEADERS[section])
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )
        if index.column() == ENTRY:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def retranslate(self) -> None:
        """Headers and cells in the current language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(HEADERS) - 1)
        if self._texts:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self._texts) - 1, len(HEADERS) - 1)
            )
