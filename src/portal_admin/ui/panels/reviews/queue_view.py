"""The queue as shown: the table over :class:`~.queue_model.QueueModel`, its keys (K, R, D
decide; N the next undecided; J the justification), the selection, the next undecided item,
and the line below it that describes the current item (its flags with their reasons, the
reviewer's own account, its latest decision)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QItemSelectionModel, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from portal_admin.reviews import Campaign, CampaignError, Decision, Item, Query
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.widgets.plain import PlainLabel

from . import queue_columns
from .queue_model import QueueModel, decision_words, flag_words, reason_words

#: What each key of the queue decides.
KEYS = {
    Qt.Key.Key_K: Decision.KEEP,
    Qt.Key.Key_R: Decision.REVOKE,
    Qt.Key.Key_D: Decision.DONT_KNOW,
}


class QueueView(QObject):
    """The queue's table and the item's line (children of ``parent``, laid out by it)."""

    #: The current row or the selection moved (once per turn of the loop).
    moved = Signal()
    #: K, R or D pressed in the queue: the :class:`Decision`.
    decisionKey = Signal(object)
    #: J pressed in the queue.
    justifyKey = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.model = QueueModel(parent)
        self.table = QTableView(parent)
        self.table.setObjectName("campaignQueue")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        queue_columns.lay_out(self.table)
        # the item's detail once per move (a move changes both the current row and the selection)
        self._moved = QTimer(self)
        self._moved.setSingleShot(True)
        self._moved.setInterval(0)
        self._moved.timeout.connect(self.moved)
        self.table.selectionModel().currentRowChanged.connect(self._moved.start)
        self.table.selectionModel().selectionChanged.connect(self._moved.start)
        self.table.installEventFilter(self)
        self.detail = PlainLabel(parent)
        self.detail.setObjectName("campaignItemDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.PlainText)

    def later(self) -> None:
        """Describe the current item on the next turn of the loop."""
        self._moved.start()

    def eventFilter(self, watched: Any, event: Any) -> bool:
        """The queue's keys: K, R, D decide; N goes to the next undecided; J to the field."""
        if watched is self.table and event.type() == event.Type.KeyPress:
            mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            if mods == Qt.KeyboardModifier.NoModifier:
                key = event.key()
                if key in KEYS:
                    self.decisionKey.emit(KEYS[key])
                    return True
                if key == Qt.Key.Key_N:
                    self.next_undecided()
                    return True
                if key == Qt.Key.Key_J:
                    self.justifyKey.emit()
                    return True
        return super().eventFilter(watched, event)

    # -- the selection ---------------------------------------------------------------------------

    def current(self) -> Item | None:
        """The item of the current row."""
        return self.model.item(self.table.currentIndex().row())

    def selected_rows(self) -> list[int]:
        """The selected rows (the current row when none is)."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        if not rows and self.table.currentIndex().isValid():
            rows = [self.table.currentIndex().row()]
        return rows

    def selected_ids(self) -> list[str]:
        """Ids of the selected items (every item the filter keeps when all rows are)."""
        rows = self.selected_rows()
        campaign = self.model.campaign
        if campaign is None or not rows:
            return []
        if len(rows) == self.model.rowCount() and len(rows) > 1:
            return campaign.ids(self.model.query)
        found = (self.model.item(r) for r in rows)
        return [i.id for i in found if i is not None]

    def next_undecided(self, after: int | None = None) -> int | None:
        """Select the next undecided item the filter keeps (after the current one, then from
        the top); its row, or None when every item is decided."""
        campaign = self.model.campaign
        if campaign is None:
            return None
        if after is None:
            current = self.current()
            after = current.seq if current is not None else 0
        base = self.model.query
        undecided = Query(
            **{**{f: getattr(base, f) for f in base.__dataclass_fields__}, "decision": "UNDECIDED"}
        )
        try:
            found = campaign.page(undecided, after=after, limit=1) or campaign.page(
                undecided, limit=1
            )
        except CampaignError as exc:
            self.model.refused.emit(exc)
            return None
        if not found:
            self.detail.setText(
                QCoreApplication.translate("Campaigns", "Every item the filter shows is decided.")
            )
            return None
        row = self.model.row_of(found[0].seq)
        if row is None:
            return None
        self.table.selectionModel().setCurrentIndex(
            self.model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.table.scrollTo(self.model.index(row, 0))
        return row

    # -- the item's line -------------------------------------------------------------------------

    def describe(self) -> Item | None:
        """Describe the current item (or the count selected) below the queue; the item."""
        campaign = self.model.campaign
        item = self.current() if campaign else None
        rows = len(self.table.selectionModel().selectedRows()) if campaign else 0
        if item is None or campaign is None:
            self.detail.setText("")
            return None
        lines = [f"{item.label} — {item.id}"]
        if rows > 1:
            lines = [
                fill(
                    QCoreApplication.translate(
                        "Campaigns",
                        "%1 items selected: one decision and one justification for all.",
                    ),
                    rows,
                )
            ]
        else:
            try:
                lines += self._item_lines(campaign, item)
            except CampaignError as exc:
                self.model.refused.emit(exc)
        self.detail.setText("\n".join(lines))
        return item

    def _item_lines(self, campaign: Campaign, item: Item) -> list[str]:
        """The item's flags with their reasons, whether it is the reviewer's own account, and
        its latest decision (``CampaignError`` when the file cannot be read)."""
        lines: list[str] = []
        for flag in campaign.flags_of([item.seq]).get(item.seq, []) if item.flag_count else []:
            lines.append(f"{flag_words(flag.code)}: {reason_words(flag)}")
        if item.id in self.model.own:
            lines.append(
                QCoreApplication.translate(
                    "Campaigns", "Your own account: another reviewer decides it."
                )
            )
        decided = campaign.decision_of(item)
        if decided is not None:
            when = format_datetime(decided.decided_at)
            said = QCoreApplication.translate("Campaigns", "%1 by %2 on %3: %4")
            lines.append(
                fill(said, decision_words(decided.decision), decided.reviewer, when,
                     decided.justification)
            )  # fmt: skip
        return lines

    def is_flagged(self, item: Item) -> bool:
        """The item has a flag, or is the reviewer's own account."""
        return bool(item.flag_count) or item.id in self.model.own

    def retranslate(self) -> None:
        self.table.setAccessibleName(QCoreApplication.translate("Campaigns", "Review queue"))
        queue_columns.size_decision(self.table)
