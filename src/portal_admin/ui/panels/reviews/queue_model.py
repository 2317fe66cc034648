"""The review queue's model: a table over the campaign's SQL (``Campaign.count`` and
``Campaign.page_at``), fetched a page at a time and kept in a few cached pages, so a queue of
100,000 items costs a count and the pages on screen."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from portal_admin.reviews import Campaign, CampaignError, Flag, Item, Query, flags
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


#: A flag's reason in the program's languages, by the engine's reason code
#: (``reviews/flags.py``): its parameters fill %1, %2 ...
REASONS = {
    "NEW_SNAPSHOT": QT_TRANSLATE_NOOP("ReviewQueue", "not in the earlier snapshot %1"),
    "NEW_CAMPAIGN": QT_TRANSLATE_NOOP("ReviewQueue", "not in the earlier campaign's scope %1"),
    "REACTIVATED_SNAPSHOT": QT_TRANSLATE_NOOP(
        "ReviewQueue", "%1 in the earlier snapshot %2, %3 now"
    ),
    "REACTIVATED_CAMPAIGN": QT_TRANSLATE_NOOP(
        "ReviewQueue", "%1 in the earlier campaign's scope %2, %3 now"
    ),
    "ADMIN": QT_TRANSLATE_NOOP("ReviewQueue", "a system-portal (administrator) account"),
    "STALE": QT_TRANSLATE_NOOP("ReviewQueue", "not updated for %1 days (since %2)"),
    "EXPIRED": QT_TRANSLATE_NOOP("ReviewQueue", "pending, expired on %1"),
    "WRITE": QT_TRANSLATE_NOOP("ReviewQueue", "holds write permissions: %1"),
    "OWN": QT_TRANSLATE_NOOP(
        "ReviewQueue", "the reviewer's own account: another reviewer decides it"
    ),
}


def reason_words(flag: Flag) -> str:
    """A flag's reason in the current language, from the engine's reason code (as the file
    words it when the engine did not write it)."""
    reason = flags.reason_of(flag.code, flag.reason)
    if reason is None or reason.code not in REASONS:
        return flag.reason
    params = reason.params
    if reason.code.startswith("REACTIVATED_"):  # statuses, in words
        then, on, now = params
        status = enum_labels.ACCOUNT_STATUS
        params = (enum_labels.own_label(status, then) or then, on,
                  enum_labels.own_label(status, now) or now)  # fmt: skip
    return " ".join(fill(_tr(REASONS[reason.code]), *params).split())


def decision_words(code: str | None) -> str:
    """A decision in the current language (empty: undecided)."""
    return _tr(DECISIONS[code]) if code in DECISIONS else ""


class QueueModel(QAbstractTableModel):
    """The filtered queue in campaign order; rows are fetched from SQL when first shown. A
    read the engine refuses (a page of a file damaged or edited behind the program's back)
    shows no rows for that page and is said once, by :attr:`refused`: never an exception out
    of ``data()``, never the same failing read again at each repaint."""

    #: A read of the file refused: the engine's ``CampaignError`` (DAMAGED, TOO_SLOW, ...).
    refused = Signal(object)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.campaign: Campaign | None = None
        self.query = Query()
        self._count = 0
        self._pages: OrderedDict[int, list[Item]] = OrderedDict()
        self._flags: dict[int, list[str]] = {}
        #: Pages whose read was refused (not read again until the queue is read anew).
        self._unreadable: set[int] = set()
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
        self._unreadable.clear()
        self._count = 0
        if self.campaign is not None:
            try:
                self._count = self.campaign.count(self.query)
            except CampaignError as exc:
                self.refused.emit(exc)

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
            if number in self._unreadable:
                return None
            try:
                page = self._read(self.campaign, number)
            except CampaignError as exc:
                self._unreadable.add(number)
                self.refused.emit(exc)
                return None
        else:
            self._pages.move_to_end(number)
        at = row - number * PAGE
        return page[at] if at < len(page) else None

    def _read(self, campaign: Campaign, number: int) -> list[Item]:
        """Page ``number`` and its items' flag codes, kept (``CampaignError`` when refused)."""
        page = campaign.page_at(self.query, offset=number * PAGE, limit=PAGE)
        flags = campaign.flags_of([i.seq for i in page if i.flag_count])
        self._pages[number] = page
        self._flags.update({seq: [f.code for f in found] for seq, found in flags.items()})
        while len(self._pages) > KEPT_PAGES:
            self._pages.popitem(last=False)
        return page

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
        try:
            return self.campaign.position(self.query, seq)
        except CampaignError as exc:
            self.refused.emit(exc)
            return None

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
