"""The review queue's model: a table over the campaign's SQL (``Campaign.count`` and
``Campaign.page_at``), fetched a page at a time and kept in a few cached pages, so a queue of
100,000 items costs a count and the pages on screen."""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from portal_admin.reviews import Campaign, Item, Query
from portal_admin.ui import enum_labels
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.widgets.plain import plain_tooltip

Index = QModelIndex | QPersistentModelIndex

COLUMNS = (
    QT_TRANSLATE_NOOP("ReviewQueue", "Item"),
    QT_TRANSLATE_NOOP("ReviewQueue", "Kind"),
    QT_TRANSLATE_NOOP("ReviewQueue", "Name"),
    QT_TRANSLATE_NOOP("ReviewQueue", "Status"),
    QT_TRANSLATE_NOOP("ReviewQueue", "Portal"),
    QT_TRANSLATE_NOOP("ReviewQueue", "Institution"),
    QT_TRANSLATE_NOOP("ReviewQueue", "Flags"),
    QT_TRANSLATE_NOOP("ReviewQueue", "Decision"),
)
#: The model's column of the decision (shown second: ``queue_columns``).
DECISION_COLUMN = 7
DECISIONS = {
    "KEEP": QT_TRANSLATE_NOOP("ReviewQueue", "Keep"),
    "REVOKE": QT_TRANSLATE_NOOP("ReviewQueue", "Revoke"),
    "DONT_KNOW": QT_TRANSLATE_NOOP("ReviewQueue", "Don't know"),
}
KINDS = {
    "account": QT_TRANSLATE_NOOP("ReviewQueue", "Account"),
    "role": QT_TRANSLATE_NOOP("ReviewQueue", "Role"),
    "invitation": QT_TRANSLATE_NOOP("ReviewQueue", "Invitation"),
}
FLAGS = {
    "NEW": QT_TRANSLATE_NOOP("ReviewQueue", "New"),
    "REACTIVATED": QT_TRANSLATE_NOOP("ReviewQueue", "Reactivated"),
    "ADMIN": QT_TRANSLATE_NOOP("ReviewQueue", "Administrator"),
    "STALE": QT_TRANSLATE_NOOP("ReviewQueue", "Not updated"),
    "EXPIRED": QT_TRANSLATE_NOOP("ReviewQueue", "Expired"),
    "WRITE": QT_TRANSLATE_NOOP("ReviewQueue", "Writes"),
    "OWN": QT_TRANSLATE_NOOP("ReviewQueue", "Own account"),
}
#: Rows fetched at once, and pages kept.
PAGE = 200
KEPT_PAGES = 16
#: The data role of a row's :class:`~portal_admin.reviews.Item`.
ITEM_ROLE = Qt.ItemDataRole.UserRole + 1
_DISPLAY = Qt.ItemDataRole.DisplayRole.value
_TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
_ITEM = int(ITEM_ROLE)
#: The roles answered (a view asks for a dozen per cell: the others cost nothing).
_ANSWERED = frozenset({_DISPLAY, _TOOLTIP, _ITEM})
_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


def _tr(text: str) -> str:
    return QCoreApplication.translate("ReviewQueue", text)


def flag_words(code: str) -> str:
    """A flag's short name in the current language (the code when unknown)."""
    return _tr(FLAGS[code]) if code in FLAGS else code


#: A flag's reason as the engine words it (English, kept in the file), and the same sentence
#: in the program's languages: (pattern, template); each group fills %1, %2 ...
_REASONS = (
    (
        r"not updated for (\d+) days \(since ([\d-]+)\)",
        QT_TRANSLATE_NOOP("ReviewQueue", "not updated for %1 days (since %2)"),
    ),
    (r"pending, expired on ([\d-]+)", QT_TRANSLATE_NOOP("ReviewQueue", "pending, expired on %1")),
    (
        r"holds write permissions: (.+)",
        QT_TRANSLATE_NOOP("ReviewQueue", "holds write permissions: %1"),
    ),
    (
        r"a system-portal \(administrator\) account",
        QT_TRANSLATE_NOOP("ReviewQueue", "a system-portal (administrator) account"),
    ),
    (
        r"the reviewer's own account: another reviewer decides it",
        QT_TRANSLATE_NOOP("ReviewQueue", "the reviewer's own account: another reviewer decides it"),
    ),
    (
        r"not in the earlier snapshot(?: of ([\d-]+))?",
        QT_TRANSLATE_NOOP("ReviewQueue", "not in the earlier snapshot %1"),
    ),
    (
        r"not in the earlier campaign's scope(?: of ([\d-]+))?",
        QT_TRANSLATE_NOOP("ReviewQueue", "not in the earlier campaign's scope %1"),
    ),
)


def reason_words(reason: str) -> str:
    """A flag's reason in the current language (as the engine wrote it when unknown)."""
    for pattern, template in _REASONS:
        found = re.fullmatch(pattern, reason)
        if found:
            return fill(_tr(template), *(g or "" for g in found.groups())).strip()
    return reason


def decision_words(code: str | None) -> str:
    """A decision in the current language (empty: undecided)."""
    return _tr(DECISIONS[code]) if code in DECISIONS else ""


class QueueModel(QAbstractTableModel):
    """The filtered queue in campaign order; rows are fetched from SQL when first shown."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.campaign: Campaign | None = None
        self.query = Query()
        self._count = 0
        self._pages: OrderedDict[int, list[Item]] = OrderedDict()
        self._flags: dict[int, list[str]] = {}
        #: Ids of the reviewer's own account (marked; decisions on them are refused).
        self.own: set[str] = set()

    # -- what is shown ---------------------------------------------------------------------------

    def set_campaign(self, campaign: Campaign | None, query: Query | None = None) -> None:
        """Show ``campaign`` (None: nothing) filtered by ``query``."""
        self.beginResetModel()
        self.campaign = campaign
        self.query = query or Query()
        self._forget()
        self.endResetModel()

    def set_query(self, query: Query) -> None:
        """Filter again."""
        self.set_campaign(self.campaign, query)

    def _forget(self) -> None:
        self._pages.clear()
        self._flags.clear()
        self._count = self.campaign.count(self.query) if self.campaign is not None else 0

    def reload(self, changed: set[str] | None = None) -> None:
        """Read again after decisions: when the filter depends on the decision every row may
        move (reset); otherwise only the ``changed`` items' rows are read again."""
        if self.campaign is None:
            return
        if self.query.decision is not None or changed is None:
            self.beginResetModel()
            self._forget()
            self.endResetModel()
            return
        for number, items in list(self._pages.items()):
            if any(i.id in changed for i in items):
                del self._pages[number]
                first = number * PAGE
                self.dataChanged.emit(
                    self.index(first, 0), self.index(first + len(items) - 1, len(COLUMNS) - 1)
                )

    def item(self, row: int) -> Item | None:
        """The item on ``row`` (fetched if needed), or None."""
        if self.campaign is None or not 0 <= row < self._count:
            return None
        number = row // PAGE
        page = self._pages.get(number)
        if page is None:
            page = self.campaign.page_at(self.query, offset=number * PAGE, limit=PAGE)
            self._pages[number] = page
            flags = self.campaign.flags_of([i.seq for i in page if i.flag_count])
            self._flags.update({seq: [f.code for f in found] for seq, found in flags.items()})
            while len(self._pages) > KEPT_PAGES:
                self._pages.popitem(last=False)
        else:
            self._pages.move_to_end(number)
        at = row - number * PAGE
        return page[at] if at < len(page) else None

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _ROW_FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def flag_codes(self, item: Item) -> list[str]:
        """The item's flag codes, OWN for the reviewer's own account whatever the file says."""
        codes = list(self._flags.get(item.seq, ()))
        if item.id in self.own and "OWN" not in codes:
            codes.append("OWN")
        return codes

    def row_of(self, seq: int) -> int | None:
        """The row of item ``seq`` in the filtered queue (None: the filter hides it)."""
        if self.campaign is None:
            return None
        for number, items in self._pages.items():  # on a page read already: no SQL
            if items and items[0].seq <= seq <= items[-1].seq:
                for at, item in enumerate(items):
                    if item.seq == seq:
                        return number * PAGE + at
        where, args = self.query.where()
        conn = self.campaign.conn
        found = conn.execute(
            f"SELECT 1 FROM items WHERE seq = ? AND {where}",  # noqa: S608
            [seq, *args],
        ).fetchone()
        if found is None:
            return None
        row = conn.execute(
            f"SELECT count(*) FROM items WHERE seq < ? AND {where}",  # noqa: S608
            [seq, *args],
        )
        return int(row.fetchone()[0])

    # -- Qt --------------------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        role = role if isinstance(role, int) else int(role)
        if role not in _ANSWERED or not index.isValid():
            return None
        column = index.column()
        if role == _TOOLTIP and column != 0:
            return None
        item = self.item(index.row())
        if item is None:
            return None
        if role == _ITEM:
            return item
        if role == _DISPLAY:
            return self._text(item, column)
        return plain_tooltip(item.id)  # the file's: shown literally

    def _text(self, item: Item, column: int) -> str:
        if column == 0:
            return item.label
        if column == 1:
            return _tr(KINDS.get(item.kind, item.kind))
        if column == 6:
            return ", ".join(flag_words(code) for code in self.flag_codes(item))
        if column == DECISION_COLUMN:
            return decision_words(item.decision)
        if column == 3 and item.status:
            kind = (
                enum_labels.INVITATION_STATUS
                if item.kind == "invitation"
                else (enum_labels.ACCOUNT_STATUS)
            )
            return enum_labels.own_label(kind, item.status) or item.status
        if column == 4 and item.portal:
            return enum_labels.own_label(enum_labels.PORTAL_TYPE, item.portal) or item.portal
        value = (item.name, item.status, item.portal, item.institution)[column - 2]
        return value or ""

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            return _tr(COLUMNS[section])
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1)
        return None
