"""The changes between two snapshots: counts per kind, filters, a table, CSV export."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from portal_admin.evidence.diff import Change, SnapshotDiff
from portal_admin.evidence.value_labels import Labels, served_label, snapshot_labels
from portal_admin.ui.enum_labels import field_label, value_label
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

COLUMNS = (
    QT_TRANSLATE_NOOP("SnapshotDiff", "What"),
    QT_TRANSLATE_NOOP("SnapshotDiff", "Change"),
    QT_TRANSLATE_NOOP("SnapshotDiff", "Id"),
    QT_TRANSLATE_NOOP("SnapshotDiff", "Name or e-mail"),
    QT_TRANSLATE_NOOP("SnapshotDiff", "Field"),
    QT_TRANSLATE_NOOP("SnapshotDiff", "Before"),
    QT_TRANSLATE_NOOP("SnapshotDiff", "After"),
)
#: The kinds of change, as the diff names them, and their words.
KINDS = {
    "account": QT_TRANSLATE_NOOP("SnapshotDiff", "Accounts"),
    "role": QT_TRANSLATE_NOOP("SnapshotDiff", "Roles"),
    "invitation": QT_TRANSLATE_NOOP("SnapshotDiff", "Invitations"),
    "whitelist": QT_TRANSLATE_NOOP("SnapshotDiff", "IP whitelist"),
    "mfa": QT_TRANSLATE_NOOP("SnapshotDiff", "MFA"),
    "channel": QT_TRANSLATE_NOOP("SnapshotDiff", "Channels"),
    "channel type": QT_TRANSLATE_NOOP("SnapshotDiff", "Channel types"),
    "setting": QT_TRANSLATE_NOOP("SnapshotDiff", "Settings"),
}
CHANGES = {
    "added": QT_TRANSLATE_NOOP("SnapshotDiff", "added"),
    "removed": QT_TRANSLATE_NOOP("SnapshotDiff", "removed"),
    "changed": QT_TRANSLATE_NOOP("SnapshotDiff", "changed"),
}
#: Rows shown at most; the export writes every change.
SHOWN = 5000


def _tr(text: str) -> str:
    return QCoreApplication.translate("SnapshotDiff", text)


class DiffView(QWidget):
    """One diff; empty until :meth:`show_diff`."""

    #: "csv" or "pack": the person asked to export what is shown.
    exportRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("snapshotDiff")
        self.diff: SnapshotDiff | None = None
        #: The server's labels each snapshot keeps (old, new).
        self._labels: tuple[Labels, Labels] = ({}, {})
        self._matching = 0
        self.title = PlainLabel(self)
        self.title.setObjectName("diffTitle")
        self.title.setStyleSheet("font-weight: bold")
        self.title.setWordWrap(True)
        self.counts = PlainLabel(self)
        self.counts.setObjectName("diffCounts")
        self.counts.setWordWrap(True)
        self.kind = QComboBox(self)
        self.kind.setObjectName("diffKind")
        self.kind.addItem("", "")
        for code in KINDS:
            self.kind.addItem("", code)
        self.text = QLineEdit(self)
        self.text.setObjectName("diffFilter")
        self.text.setClearButtonEnabled(True)
        self.export_csv = QPushButton(self)
        self.export_csv.setObjectName("diffExportCsv")
        self.export_pack = QPushButton(self)
        self.export_pack.setObjectName("diffExportPack")
        self.export_csv.clicked.connect(lambda: self.exportRequested.emit("csv"))
        self.export_pack.clicked.connect(lambda: self.exportRequested.emit("pack"))
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("diffTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setResizeContentsPrecision(40)  # fit to 40 rows, not all
        # Read only: the menu copies the selected changes (several at once), ids too.
        self.table_actions = TableActions(self.table, id_column=2)
        self.table_actions.set_multi_select()
        self.note = PlainLabel(self)
        self.note.setObjectName("diffNote")
        self.kind.currentIndexChanged.connect(self._fill)
        self.text.textChanged.connect(self._fill)
        filters = QHBoxLayout()
        filters.addWidget(self.kind)
        filters.addWidget(self.text, 1)
        filters.addWidget(self.export_csv)
        filters.addWidget(self.export_pack)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.counts)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)
        self.retranslateUi()

    def show_diff(self, diff: SnapshotDiff) -> None:
        """Show ``diff`` (filters kept)."""
        self.diff = diff
        self._labels = (snapshot_labels(diff.old), snapshot_labels(diff.new))
        self._fill()
        self.table.resizeColumnsToContents()
        self.retranslateUi()

    def shown(self) -> list[Change]:
        """The changes the filters keep."""
        if self.diff is None:
            return []
        return list(self.diff.filtered(self.kind.currentData() or None, self.text.text()))

    def _fill(self, *_args: object) -> None:
        changes = self.shown()
        rows = changes[:SHOWN]
        self.table.setRowCount(len(rows))
        for r, c in enumerate(rows):
            for col, (value, code) in enumerate(self.cells(c)):
                item = QTableWidgetItem(value)
                # the full text (a cell may be cut short), and the code where a label shows
                item.setToolTip(plain_tooltip(value if code in ("", value) else f"{value}\n{code}"))
                self.table.setItem(r, col, item)
        self._matching = len(changes)
        self._describe_rows()

    def cells(self, c: Change) -> tuple[tuple[str, str], ...]:
        """A change's cells as shown, each with the code it shows (the field's name, the
        values' codes): labels from the snapshots, else the program's own, else in words."""
        old, new = self._labels
        before = served_label(old, c.kind, c.field, c.before)
        after = served_label(new, c.kind, c.field, c.after)
        return (
            (_tr(KINDS.get(c.kind, c.kind)), c.kind),
            (_tr(CHANGES.get(c.change, c.change)), c.change),
            (c.id, ""),
            (c.label, ""),
            (field_label(c.field) if c.field else "", c.field),
            (value_label(c.field, c.before, before, row_kind=c.kind), c.before),
            (value_label(c.field, c.after, after, row_kind=c.kind), c.after),
        )

    def _describe_rows(self) -> None:
        matching = self._matching
        if self.diff is None:
            self.note.setText("")
        elif matching > SHOWN:
            self.note.setText(
                fill(
                    QCoreApplication.translate(
                        "SnapshotDiff",
                        "The first %1 of %2 changes are shown; exports hold all of them.",
                    ),
                    SHOWN,
                    matching,
                )
            )
        else:
            self.note.setText(
                fill(
                    QCoreApplication.translate("SnapshotDiff", "%1 of %2 changes shown."),
                    matching,
                    len(self.diff.changes),
                )
            )

    def retranslateUi(self) -> None:
        self.table.setHorizontalHeaderLabels([_tr(t) for t in COLUMNS])
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS)):  # each title whole, in every language
            header.resizeSection(
                column, max(header.sectionSize(column), header.sectionSizeHint(column))
            )
        self.kind.setItemText(0, QCoreApplication.translate("SnapshotDiff", "All kinds"))
        for i, code in enumerate(KINDS, start=1):
            self.kind.setItemText(i, _tr(KINDS[code]))
        self.kind.setAccessibleName(QCoreApplication.translate("SnapshotDiff", "Kind of change"))
        self.text.setPlaceholderText(
            QCoreApplication.translate("SnapshotDiff", "Filter by id, name or value")
        )
        self.text.setAccessibleName(QCoreApplication.translate("SnapshotDiff", "Change filter"))
        self.export_csv.setText(QCoreApplication.translate("SnapshotDiff", "Export CSV…"))
        self.export_pack.setText(QCoreApplication.translate("SnapshotDiff", "Evidence pack…"))
        self.table.setAccessibleName(
            QCoreApplication.translate("SnapshotDiff", "Changes between the snapshots")
        )
        for button in (self.export_csv, self.export_pack):
            button.setEnabled(self.diff is not None)
        d = self.diff
        if d is None:
            self.title.setText(
                QCoreApplication.translate(
                    "SnapshotDiff", "Choose two snapshots and compare them, or take a new one."
                )
            )
            self.counts.setText("")
            return
        self.title.setText(
            fill(
                QCoreApplication.translate(
                    "SnapshotDiff", "Changes from the snapshot of %1 to the snapshot of %2"
                ),
                taken_at(d.old.meta.get("finished")),
                taken_at(d.new.meta.get("finished")),
            )
        )
        counts = d.counts()
        if not counts:
            self.counts.setText(
                QCoreApplication.translate(
                    "SnapshotDiff", "No change: the two snapshots hold the same access."
                )
            )
        else:
            parts = [
                fill(
                    QCoreApplication.translate("SnapshotDiff", "%1 %2: %3"),
                    _tr(KINDS.get(kind, kind)),
                    _tr(CHANGES[change]),
                    n,
                )
                for (kind, change), n in sorted(counts.items())
            ]
            self.counts.setText(" · ".join(parts))
        self._describe_rows()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
            self._fill()  # the kinds and changes in the table are words too
        super().changeEvent(event)


def taken_at(value: object) -> str:
    """When a snapshot was taken (an ISO time), to the second in local time; "?" unknown."""
    return format_datetime(value, seconds=True) or "?"
