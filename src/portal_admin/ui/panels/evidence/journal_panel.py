"""The Journal panel: the changes this computer sent, whether the chain verifies, exports.

Read only, so the kiosk shows it too. The file is read and verified in a worker thread (a
long journal must not stall the window).
"""

from __future__ import annotations

import asyncio
import json
import logging
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
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

from portal_admin.evidence import checkpoints, journal, keys, pack, trust
from portal_admin.ui.file_work import FileWork, in_worker
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.operation_titles import OUTCOMES, change_sentence, operation_title
from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets import file_dialogs
from portal_admin.ui.widgets.message_bar import MessageBar
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from . import packing

if TYPE_CHECKING:
    from ..jobs.revert_plan import RevertWindow

COLUMNS = (
    ("seq", QT_TRANSLATE_NOOP("JournalPanel", "#")),
    ("time", QT_TRANSLATE_NOOP("JournalPanel", "Time")),
    ("account", QT_TRANSLATE_NOOP("JournalPanel", "Account")),
    ("operation", QT_TRANSLATE_NOOP("JournalPanel", "Operation")),
    ("targets", QT_TRANSLATE_NOOP("JournalPanel", "Targets")),
    ("fields", QT_TRANSLATE_NOOP("JournalPanel", "Change")),
    ("outcome", QT_TRANSLATE_NOOP("JournalPanel", "Outcome")),
    ("code", QT_TRANSLATE_NOOP("JournalPanel", "Code")),
    ("request_id", QT_TRANSLATE_NOOP("JournalPanel", "Request id")),
)
#: Rows shown at most (the newest); exports write every matching record.
SHOWN = 5000
#: Account names asked of the server at most per reading of the journal.
NAMES_READ = 200

log = logging.getLogger(__name__)


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v)}" for k, v in sorted(value.items()))
    return "" if value is None else str(value)


def _change(record: dict[str, Any]) -> str:
    """The change as a person reads it: fields set, and before → after where known."""
    text = _text(record.get("fields"))
    before, after = record.get("before"), record.get("after")
    if before or after:
        moved = f"{_text(before)} → {_text(after)}"
        text = f"{text} ({moved})" if text else moved
    return text


#: An intent whose outcome record is missing: the program stopped before the answer.
PENDING = QT_TRANSLATE_NOOP("JournalPanel", "Sent, outcome not recorded")


def shown(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows: every change, and each intent (a change about to be sent) that no change
    names, in file order; the intents that have their outcome are not shown twice."""
    answered = {r.get("intent_seq") for r in records if r.get("kind") == "change"}
    return [
        r
        for r in records
        if r.get("kind") == "change" or (r.get("kind") == "intent" and r.get("seq") not in answered)
    ]


def cell(record: dict[str, Any], key: str) -> str:
    """One cell of the table: the operation by its title, the change as a sentence."""
    if key == "fields":
        return change_sentence(record)
    if key == "operation":
        return operation_title(record.get("operation"))
    if key == "time":
        return format_datetime(record.get("time"), seconds=True)
    if key == "outcome":
        if record.get("kind") == "intent":
            return QCoreApplication.translate("JournalPanel", PENDING)
        outcome = str(record.get("outcome", ""))
        return QCoreApplication.translate("JournalPanel", OUTCOMES.get(outcome, outcome))
    return _text(record.get(key))


def code_of(record: dict[str, Any], key: str) -> str:
    """What a cell shows in codes (its tooltip, beside the full text)."""
    if key == "fields":
        return _change(record)
    if key in ("operation", "outcome"):
        return _text(record.get(key))
    return ""


def with_code(text: str, code: str) -> str:
    """``text`` and, below it when it differs, ``code`` (a tooltip's text)."""
    return text if code in ("", text) else f"{text}\n{code}"


def export_labels(record: dict[str, Any]) -> tuple[str, str, str]:
    """A record's labels for the CSV export: its operation, outcome and change as shown."""
    return cell(record, "operation"), cell(record, "outcome"), cell(record, "fields")


def read_journal(
    path: Path, key_store: keys.SecretStore | None
) -> tuple[list[dict[str, Any]], list[str], journal.Verification]:
    """The records shown, what the text filter searches and the verification (in a worker
    thread: a plain function, so that the thread never holds the panel, which must be deleted
    on the GUI thread)."""
    records = shown(list(journal.read(path)))
    # What the text filter searches, made once here: not on every keystroke.
    # The codes and the words shown (an operation's title, the change's sentence).
    texts = [
        " ".join(
            (json.dumps(r, ensure_ascii=False), cell(r, "operation"), cell(r, "fields"))
        ).casefold()
        for r in records
    ]

    def mine() -> str | None:  # read only when the journal has checkpoints
        return trust.own_fingerprint(key_store)

    return records, texts, journal.verify(path, expected_key=mine)


class JournalPanel(PanelBase):
    """The journal of changes."""

    def __init__(
        self,
        context: PanelContext,
        parent: QWidget | None = None,
        path: Path | None = None,
        key_store: keys.SecretStore | None = None,
    ) -> None:
        super().__init__(context, parent)
        self.setObjectName("journalPanel")
        self.path = path or journal.default_journal_path()
        self.key_store = key_store or context.extras.get("evidence_key_store")
        self.message = MessageBar(self)
        self.records: list[dict[str, Any]] = []
        self._texts: list[str] = []
        self.verification: journal.Verification | None = None
        self.chain = PlainLabel(self)
        self.chain.setObjectName("journalChain")
        self.chain.setWordWrap(True)
        self.chain.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text = QLineEdit(self)
        self.text.setObjectName("journalFilter")
        self.text.setClearButtonEnabled(True)
        self.outcome = QComboBox(self)
        self.outcome.setObjectName("journalOutcome")
        for code in ("", "ok", "failed", "unknown"):
            self.outcome.addItem(code, code)
        # F5 too; the panel also follows the file (another window, the command line).
        self.refresh_button = QPushButton(self)
        self.refresh_button.setObjectName("journalRefresh")
        self.refresh_button.clicked.connect(self.refresh)
        self.export_csv = QPushButton(self)
        self.export_json = QPushButton(self)
        self.export_pack = QPushButton(self)
        self.export_pack.setObjectName("journalPack")
        self.export_csv.clicked.connect(lambda: self._export("csv"))
        self.export_json.clicked.connect(lambda: self._export("json"))
        self.export_pack.clicked.connect(lambda: self._export("zip"))
        # Revert… (#30): the selected changes set back, as a bulk job; hidden in the kiosk.
        self.revert_button = QPushButton(self)
        self.revert_button.setObjectName("journalRevert")
        self.revert_button.clicked.connect(self.open_revert)
        self.shown_rows: list[dict[str, Any]] = []
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("journalTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setResizeContentsPrecision(40)
        # Read only: the menu copies the selected records (several at once).
        self.table_actions = TableActions(self.table, id_column=len(COLUMNS) - 1)
        self.table_actions.set_multi_select()
        self.table_actions.add_row_buttons(self.revert_button)
        self.table.itemSelectionChanged.connect(self.apply_permissions)
        self._fitted = False
        self.text.textChanged.connect(self._show)
        self.outcome.currentIndexChanged.connect(self._show)
        top = QHBoxLayout()
        top.addWidget(self.text, 1)
        top.addWidget(self.outcome)
        top.addWidget(self.refresh_button)
        top.addWidget(self.export_csv)
        top.addWidget(self.export_json)
        top.addWidget(self.export_pack)
        top.addWidget(self.revert_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.chain)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        #: Account ids -> names, read from the signed-in server ("" when it has none).
        self.names: dict[str, str] = {}
        self._naming: asyncio.Task[Any] | None = None
        self.watch_files(lambda: (self.path, checkpoints.checkpoints_path(self.path)))
        self.retranslateUi()

    async def reload(self) -> object:
        """Read and verify the journal (in a worker thread); the accounts' names follow."""
        self.records, self._texts, self.verification = await in_worker(
            read_journal, self.path, self.key_store
        )
        self._show()
        self.loaded = True
        if self._naming is None or self._naming.done():
            self._naming = self.spawn(self.read_names())
        return self.records

    def _account_targets(self, record: dict[str, Any]) -> list[str]:
        """The targets of ``record`` that are accounts of the signed-in server."""
        operation = str(record.get("operation") or "")
        if not operation.startswith("accounts.") or self.client is None:
            return []
        if str(record.get("server", "")) != str(self.client.base_url):
            return []  # an id of another server names nobody here
        targets = record.get("targets")
        return [t for t in targets if isinstance(t, str)] if isinstance(targets, list) else []

    async def read_names(self) -> int:
        """Ask the server for the names of the accounts the rows shown name (a few at a time,
        at most ``NAMES_READ`` a time); returns how many were found."""
        wanted = list(
            dict.fromkeys(
                t for r in self.shown_rows for t in self._account_targets(r) if t not in self.names
            )
        )[:NAMES_READ]
        if not wanted:
            return 0
        gate = asyncio.Semaphore(4)

        async def one(account_id: str) -> None:
            async with gate:
                try:
                    account = await self.client.accounts.get(account_id)
                except Exception as exc:  # gone, or not readable: the id stays
                    log.info("no name for a journal target: %s", type(exc).__name__)
                    self.names[account_id] = ""
                    return
            self.names[account_id] = str(account.account_name or account.account_email or "")

        await asyncio.gather(*(one(t) for t in wanted))
        self._show()
        return sum(1 for t in wanted if self.names.get(t))

    def targets_text(self, record: dict[str, Any]) -> str:
        """The targets as a person reads them: an account's name where known, else its id."""
        targets = record.get("targets")
        if not isinstance(targets, list):
            return cell(record, "targets")
        return ", ".join(self.names.get(str(t)) or str(t) for t in targets)

    def refresh(self) -> None:
        """F5: read the journal again."""
        self.start_reload()

    def matching(self) -> list[dict[str, Any]]:
        """The records the filters keep."""
        needle = self.text.text().strip().casefold()
        outcome = self.outcome.currentData()
        return [
            record
            for record, text in zip(self.records, self._texts, strict=True)
            if (not outcome or record.get("outcome") == outcome)
            and (
                not needle
                or needle in text
                or (self.names and needle in self.targets_text(record).casefold())
            )
        ]

    def _show(self, *_args: object) -> None:
        rows = self.shown_rows = self.matching()[-SHOWN:][::-1]  # newest first
        self.table.setRowCount(len(rows))
        for r, record in enumerate(rows):
            for c, (key, _title) in enumerate(COLUMNS):
                if key == "targets":  # names from the server, the ids a hover away
                    item = QTableWidgetItem(self.targets_text(record))
                    # outside text (names from the server, ids from the journal) escaped
                    item.setToolTip(plain_tooltip(with_code(item.text(), cell(record, key))))
                    self.table.setItem(r, c, item)
                    continue
                text = cell(record, key)
                item = QTableWidgetItem(text)
                code = code_of(record, key)
                # the full text (a cell may be cut short), and the codes behind a label
                item.setToolTip(plain_tooltip(with_code(text, code)))
                self.table.setItem(r, c, item)
        if rows and not self._fitted:
            self._fitted = True
            self.table.resizeColumnsToContents()
        self._describe_chain()
        self.apply_permissions()

    def selected_seqs(self) -> list[int]:
        """The seqs of the selected records (changes, or intents without their outcome)."""
        numbers = self.table_actions.selected_numbers()
        picked = [self.shown_rows[n].get("seq") for n in numbers if n < len(self.shown_rows)]
        return sorted(s for s in picked if isinstance(s, int) and not isinstance(s, bool))

    def apply_permissions(self) -> None:
        """Revert…: for the selected records; hidden in a read-only (kiosk) session."""
        picked = bool(self.selected_seqs())
        self.allow(self.revert_button, "accounts.status", enabled=picked)

    def open_revert(self) -> RevertWindow | None:
        """Plan the revert of the selected records in the revert window (nothing is sent)."""
        from ..jobs.revert_plan import RevertWindow

        seqs = self.selected_seqs()
        if not seqs or self.permissions.read_only:
            return None
        window = RevertWindow(self, seqs=seqs, journal_path=self.path)
        window.show()
        window.planning = self.spawn(window.plan())
        return window

    def _describe_chain(self) -> None:
        v = self.verification
        if v is None:
            self.chain.setText("")
        elif v.ok and not v.records:
            self.chain.setText(
                QCoreApplication.translate(
                    "JournalPanel", "The journal is empty: no change was sent from this computer."
                )
            )
            set_tone(self.chain, None)
            self.chain.setStyleSheet("")
        elif v.ok:
            text = fill(
                QCoreApplication.translate(
                    "JournalPanel", "The chain verifies: %1 records, head %2."
                ),
                v.records,
                v.head,
            )
            if v.breaks:
                text += " " + fill(
                    QCoreApplication.translate(
                        "JournalPanel", "%1 new segment(s) after a cut-off record (a crash)."
                    ),
                    len(v.breaks),
                )
            if v.unauthenticated:
                text += " " + fill(
                    QCoreApplication.translate(
                        "JournalPanel",
                        "But %1 record(s) are not authenticated (the first: record %2): no "
                        "checkpoint of this installation vouches for them and this program did "
                        "not write them. A revert leaves them alone unless their job file "
                        "confirms them.",
                    ),
                    len(v.unauthenticated),
                    v.unauthenticated[0],
                )
            self.chain.setText(text)
            set_tone(self.chain, "warning" if v.unauthenticated else "success")
            self.chain.setStyleSheet("")
        elif not v.problems:  # the chain verifies, its signed checkpoints do not agree
            self.chain.setText(
                fill(
                    QCoreApplication.translate(
                        "JournalPanel", "The journal does not match its signed checkpoints: %1."
                    ),
                    v.anchor[0],
                )
            )
            set_tone(self.chain, "error")
            self.chain.setStyleSheet("font-weight: bold")
        else:
            first = v.problems[0]
            self.chain.setText(
                fill(
                    QCoreApplication.translate(
                        "JournalPanel", "The chain is BROKEN at line %1 (record %2): %3."
                    ),
                    first.line,
                    first.seq if first.seq is not None else "?",
                    first.reason,
                )
            )
            set_tone(self.chain, "error")
            self.chain.setStyleSheet("font-weight: bold")

    def _export(self, kind: str) -> None:
        name = f"journal.{kind}"
        file_dialogs.ask_save(self, name, kind, lambda path: self.spawn(self.export(path, kind)))

    async def export(self, path: Path, kind: str) -> int:
        """Write the records the filters keep as CSV, JSON or a signed pack ("zip")."""
        records = self.matching()
        if kind == "zip":
            manifest = await packing.pack_work(
                path, lambda: self._pack_source(records), self.key_store, self.message.show_error
            ).run()
            if manifest is None:
                return 0
            self.message.show_notice(packing.written(path, manifest))
            return len(records)
        if kind == "csv":  # the labels as shown, beside the codes
            labels = {id(r): export_labels(r) for r in records}
            work = partial(journal.export_csv, records, path, ",", lambda r: labels[id(r)])
        else:
            work = partial(journal.export_json, records, path)
        n = await FileWork(work, self.message.show_error, what="journal export").run()
        if n is None:
            return 0
        self.message.show_notice(
            fill(QCoreApplication.translate("JournalPanel", "%1 records written to %2."), n, path)
        )
        return n

    def _pack_source(
        self, records: list[dict[str, Any]]
    ) -> tuple[str, dict[str, pack.Table], dict[str, Any]]:
        v = self.verification
        times = [str(r.get("time", "")) for r in records]
        summary = {
            "records": len(records),
            "since": min(times, default=""),
            "until": max(times, default=""),
            "filter": self.text.text().strip(),
            "outcome": self.outcome.currentData() or "",
            "journal head": v.head if v else "",
            "journal intact": bool(v and v.ok),
        }
        marks = checkpoints.lines(checkpoints.checkpoints_path(self.path))
        summary["checkpoints"] = len(marks)
        return "journal", pack.journal_tables(records, marks), summary

    def retranslateUi(self) -> None:
        self.table.setHorizontalHeaderLabels(
            [QCoreApplication.translate("JournalPanel", title) for _k, title in COLUMNS]
        )
        self.text.setPlaceholderText(
            QCoreApplication.translate("JournalPanel", "Filter by account, operation or id")
        )
        self.text.setAccessibleName(QCoreApplication.translate("JournalPanel", "Journal filter"))
        labels = (
            QCoreApplication.translate("JournalPanel", "All outcomes"),
            *(QCoreApplication.translate("JournalPanel", w) for w in OUTCOMES.values()),
        )
        for i, label in enumerate(labels):
            self.outcome.setItemText(i, label)
        self.outcome.setAccessibleName(QCoreApplication.translate("JournalPanel", "Outcome filter"))
        self.refresh_button.setText(QCoreApplication.translate("JournalPanel", "Refresh"))
        self.refresh_button.setToolTip(
            QCoreApplication.translate("JournalPanel", "Read the journal again (F5)")
        )
        self.export_csv.setText(QCoreApplication.translate("JournalPanel", "Export CSV…"))
        self.export_json.setText(QCoreApplication.translate("JournalPanel", "Export JSON…"))
        self.export_pack.setText(QCoreApplication.translate("JournalPanel", "Evidence pack…"))
        self.revert_button.setText(QCoreApplication.translate("JournalPanel", "&Revert\u2026"))
        self.revert_button.setAccessibleDescription(
            QCoreApplication.translate(
                "JournalPanel", "Set the selected changes back to their values before"
            )
        )
        self.export_pack.setToolTip(
            QCoreApplication.translate(
                "JournalPanel", "A signed zip of the records shown: CSV and a report"
            )
        )
        self.table.setAccessibleName(
            QCoreApplication.translate("JournalPanel", "Journal of changes")
        )
        self.setAccessibleName(QCoreApplication.translate("JournalPanel", "Journal"))
        self._describe_chain()
