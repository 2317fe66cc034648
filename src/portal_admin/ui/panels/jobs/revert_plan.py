"""The revert window: the plan of a revert (journal records, or a whole bulk job), then its run.

A revert is a bulk job (``jobs.plan_records_revert`` / ``jobs.plan_job_revert``, docs/undo.md):
the plan is made first and nothing is sent before Run. Each line shows the value, its value
before, after and now, and whether it is set back or why not and what to do instead. The
number of targets is typed when ``jobs.confirmation_needed`` says so (every revert on
production, and one of more than 100 targets anywhere). Run hands the job to the bulk window
(progress, pause, resume, cancel, the result file); the job is listed in the Jobs panel.

The kiosk offers no revert (the panels hide the action); the engine refuses a read-only
client anyway, and that refusal is shown like any other.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from portal_admin import jobs
from portal_admin.client.errors import ReadOnlyError
from portal_admin.evidence import journal as journal_file
from portal_admin.evidence import trust
from portal_admin.evidence.recorder import journal_at
from portal_admin.jobs.revert import REASON_LIMIT, set_reason
from portal_admin.ui.bulk.dialog import BulkDialog, Sources
from portal_admin.ui.file_work import file_error, in_worker
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.base import PanelBase, async_slot
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip
from portal_admin.ui.widgets.typed_confirm import TypedConfirm

from . import revert_words as words

log = logging.getLogger(__name__)

COLUMNS = (
    QT_TRANSLATE_NOOP("RevertWindow", "Target"),
    QT_TRANSLATE_NOOP("RevertWindow", "Value"),
    QT_TRANSLATE_NOOP("RevertWindow", "Before"),
    QT_TRANSLATE_NOOP("RevertWindow", "After"),
    QT_TRANSLATE_NOOP("RevertWindow", "Now"),
    QT_TRANSLATE_NOOP("RevertWindow", "Plan"),
    QT_TRANSLATE_NOOP("RevertWindow", "Why, and what to do instead"),
)


def translated(source: str) -> str:
    """``source`` in the current language (context ``RevertWindow``)."""
    return QCoreApplication.translate("RevertWindow", source)


def run_window(panel: PanelBase) -> BulkDialog:
    """The bulk window that runs (or shows) a revert's job."""
    dialog = BulkDialog(panel, Sources("accounts"), "revert")
    dialog.setWindowTitle(QCoreApplication.translate("RevertWindow", "Revert"))
    return dialog


class RevertWindow(QDialog):
    """Plan a revert of journal records (``seqs``) or of a bulk job (``job_id``), then run it.

    ``panel`` is the panel that opened it (the Jobs or the Journal panel: its client, context,
    tasks, and the bulk window's parent, which wants a panel too). ``journal_path`` and
    ``folder`` (the job files') default to the user data folder's, as everywhere.
    """

    def __init__(
        self,
        panel: PanelBase,
        *,
        seqs: Sequence[int] = (),
        job_id: str | None = None,
        journal_path: Path | None = None,
        folder: Path | None = None,
    ) -> None:
        super().__init__(panel)
        self.setObjectName("revertWindow")
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.panel = panel
        self.seqs = tuple(seqs)
        self.job_id = job_id
        self.journal_path = journal_path or journal_file.default_journal_path()
        self.folder = folder
        self.job: jobs.JobFile | None = None
        self.run_dialog: BulkDialog | None = None
        #: The task making the plan (set by the panel that opened the window).
        self.planning: asyncio.Task[jobs.JobFile | None] | None = None
        self.state = "idle"  # planning, planned, refused, handed
        #: Set once the window is closed: a plan that arrives then is discarded.
        self.closed = False
        self.heading = PlainLabel(self)
        self.heading.setObjectName("revertHeading")
        self.heading.setWordWrap(True)
        self.summary = PlainLabel(self)
        self.summary.setObjectName("revertSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("revertPlanTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)  # the last column's sentences wrap
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table_actions = TableActions(self.table)
        self.table_actions.set_multi_select()
        self.export_button = QPushButton(self)
        self.export_button.setObjectName("revertExport")
        self.export_button.clicked.connect(self._choose_export)
        self.typed = TypedConfirm(self)
        self.typed.changed.connect(self._update_run_button)
        #: Why, as a bulk change asks (optional; sent with status changes, journaled).
        self.reason_label = PlainLabel(self)
        self.reason = QLineEdit(self)
        self.reason.setObjectName("revertReason")
        self.reason.setMaxLength(REASON_LIMIT)
        self.reason_label.setBuddy(self.reason)
        self.close_button = QPushButton(self)
        self.close_button.clicked.connect(self.close)
        self.run_button = QPushButton(self)
        self.run_button.setObjectName("revertRun")
        self.run_button.clicked.connect(self._on_run)
        buttons = QHBoxLayout()
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        buttons.addWidget(self.reason_label)
        buttons.addWidget(self.reason, 2)
        buttons.addWidget(self.typed)
        buttons.addWidget(self.close_button)
        buttons.addWidget(self.run_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.retranslateUi()
        self._update_run_button()
        self.resize(980, 520)

    # -- planning ------------------------------------------------------------------------------

    async def context(self) -> jobs.JobContext:
        """The signed-in server, profile and account, as jobs record them."""
        return await self.panel.context.job_context()

    def _expected_key(self) -> str | None:
        store = getattr(self.panel, "key_store", None) or self.panel.context.extras.get(
            "evidence_key_store"
        )
        return trust.own_fingerprint(store)

    async def plan(self) -> jobs.JobFile | None:
        """Read the journal and the targets, and show the plan (nothing is sent)."""
        self._discard()
        self.state = "planning"
        self.retranslateUi()
        self._update_run_button()
        client = self.panel.client
        try:
            # What this program just sent may still be queued: on disk first.
            await in_worker(journal_at(self.journal_path).flush)
            context = await self.context()
            options: dict[str, Any] = {
                "journal_path": self.journal_path,
                "expected_key": self._expected_key,
                "folder": self.folder,
            }
            if self.job_id is not None:
                job = await jobs.plan_job_revert(client, self.job_id, context, **options)
            else:
                job = await jobs.plan_records_revert(client, self.seqs, context, **options)
        except (jobs.RevertError, ReadOnlyError) as exc:
            await self._refused(exc)
            return None
        except Exception as exc:
            log.info("revert plan failed: %r", exc)
            self._show_refusal(file_error(exc).as_text())
            return None
        if self.closed:  # closed while planning: the plan is not kept
            job.discard()
            return None
        self.job = job
        self.state = "planned"
        self._fill(job)
        production = bool(self.panel.context.profile.environment.needs_confirmation)
        self.typed.require(jobs.confirmation_needed(job, production), self.panel.context.profile)
        self.retranslateUi()
        self._update_run_button()
        return job

    async def _refused(self, exc: Exception) -> None:
        verification = None
        if getattr(exc, "code", "") == "JOURNAL_BROKEN":  # name its break
            key = self._expected_key
            verification = await in_worker(
                partial(journal_file.verify, self.journal_path, expected_key=key)
            )
        profile = self.panel.context.profile
        signed_in = f"{self.panel.client.base_url}, {profile.name}"
        self._show_refusal(words.refusal(exc, verification=verification, signed_in=signed_in))

    def _show_refusal(self, text: str) -> None:
        self.state = "refused"
        self.refusal = text
        self.table.setRowCount(0)
        self.typed.require(None)
        self.retranslateUi()
        self._update_run_button()

    def _fill(self, job: jobs.JobFile) -> None:
        items = list(job.items())
        self.table.setRowCount(len(items))
        for r, item in enumerate(items):
            record = item.record
            key = str(record.get("key") or "")
            cells = (
                item.label,
                words.key_word(record),
                *(words.shown_value(record.get(k), key) for k in ("before", "after", "now")),
                words.skip_word(item.skip)
                if item.skip
                else QCoreApplication.translate("RevertWindow", "Set back"),
                words.explain(item),
            )
            for c, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setToolTip(plain_tooltip(text))
                self.table.setItem(r, c, cell)
        for c in range(len(COLUMNS) - 1):  # the last one takes the room left, and wraps
            self.table.resizeColumnToContents(c)
            self.table.setColumnWidth(c, min(self.table.columnWidth(c), 220))
        self.table.resizeRowsToContents()

    def lines(self) -> list[list[str]]:
        """The plan's cells as shown (tests and the tour read them)."""

        def text(r: int, c: int) -> str:
            cell = self.table.item(r, c)
            return cell.text() if cell is not None else ""

        columns = range(self.table.columnCount())
        return [[text(r, c) for c in columns] for r in range(self.table.rowCount())]

    # -- running -------------------------------------------------------------------------------

    def to_change(self) -> int:
        """How many values the plan sets back."""
        return self.job.counts()["planned"] if self.job is not None else 0

    def _update_run_button(self, *_args: object) -> None:
        self.run_button.setEnabled(
            self.state == "planned" and self.to_change() > 0 and self.typed.confirmed()
        )
        self.export_button.setEnabled(self.job is not None)

    @async_slot()
    async def _on_run(self) -> None:
        await self.run()

    async def run(self) -> jobs.Progress | None:
        """Run the plan in the bulk window (progress, pause, resume, result); None when it
        cannot run (not planned, nothing to set back, or the number not typed)."""
        if self.job is None or self.to_change() == 0 or not self.typed.confirmed():
            return None
        try:
            await set_reason(self.job, self.reason.text())
        except jobs.RevertError as exc:
            self.summary.setText(words.refusal(exc))
            set_tone(self.summary, "error")
            return None
        job, self.job = self.job, None
        self.state = "handed"
        dialog = self.run_dialog = run_window(self.panel)
        dialog.show()
        self.hide()
        try:
            progress = await dialog.run(job)
        finally:
            refresh = getattr(self.panel, "refresh", None)
            if callable(refresh):
                refresh()
            self.close()
        return progress

    # -- the plan as CSV -----------------------------------------------------------------------

    def _choose_export(self) -> None:
        if self.job is None:
            return
        dialog = QFileDialog(self)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("csv")
        dialog.selectFile(f"{self.job.id}-plan.csv")
        dialog.setNameFilter(QCoreApplication.translate("RevertWindow", "CSV files (*.csv)"))
        dialog.fileSelected.connect(lambda path: self.export(Path(path)))
        dialog.open()

    def export(self, path: Path) -> int:
        """Write the plan as CSV (before, after and now of each line); lines written."""
        if self.job is None:
            return 0
        try:
            return jobs.write_revert_plan(self.job, path)
        except OSError as exc:
            self.summary.setText(
                fill(QCoreApplication.translate("RevertWindow", "%1: %2"), path, exc)
            )
            return 0

    # -- closing -------------------------------------------------------------------------------

    def _discard(self) -> None:
        if self.job is not None:
            self.job.discard()  # a plan not run is not kept
            self.job = None

    def closeEvent(self, event: Any) -> None:
        self.closed = True
        if self.planning is not None and not self.planning.done():
            self.planning.cancel()
        self._discard()
        super().closeEvent(event)

    # -- language ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("RevertWindow", "Revert"))
        if self.job_id is not None:
            self.heading.setText(
                fill(
                    QCoreApplication.translate(
                        "RevertWindow",
                        "Revert every change of bulk job %1 back to its value before.",
                    ),
                    self.job_id,
                )
            )
        else:
            self.heading.setText(
                fill(
                    QCoreApplication.translate(
                        "RevertWindow",
                        "Revert the changes of journal records %1 back to their value before.",
                    ),
                    ", ".join(str(s) for s in self.seqs),
                )
            )
        self.table.setHorizontalHeaderLabels([translated(c) for c in COLUMNS])
        self.table.setAccessibleName(
            QCoreApplication.translate("RevertWindow", "The revert's plan")
        )
        set_tone(self.summary, "error" if self.state == "refused" else None)
        if self.state == "planning":
            self.summary.setText(
                QCoreApplication.translate(
                    "RevertWindow", "Reading and verifying the journal, then the targets\u2026"
                )
            )
        elif self.state == "refused":
            self.summary.setText(getattr(self, "refusal", ""))
        elif self.job is not None:
            skips = ", ".join(
                f"{n} \u00d7 {words.skip_word(code)}"
                for code, n in sorted(self.job.skip_counts().items())
            )
            self.summary.setText(
                fill(
                    QCoreApplication.translate(
                        "RevertWindow", "Nothing has been sent. To set back: %1; skipped: %2."
                    ),
                    self.to_change(),
                    skips or QCoreApplication.translate("RevertWindow", "none"),
                )
            )
        self.export_button.setText(
            QCoreApplication.translate("RevertWindow", "&Export the plan\u2026")
        )
        self.close_button.setText(QCoreApplication.translate("RevertWindow", "Close"))
        # The bulk window's words for the same field (one meaning, one translation).
        self.reason_label.setText(QCoreApplication.translate("BulkDialog", "&Reason:"))
        self.reason.setPlaceholderText(
            QCoreApplication.translate("BulkDialog", "Optional; kept with the change")
        )
        self.run_button.setText(
            fill(
                QCoreApplication.translate("RevertWindow", "&Run the revert (%1)"), self.to_change()
            )
        )
        self.typed.retranslateUi()

    def changeEvent(self, event: Any) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


async def open_revert(panel: PanelBase, **what: Any) -> RevertWindow:
    """Open the revert window for ``seqs=`` or ``job_id=`` and make its plan."""
    window = RevertWindow(panel, **what)
    window.show()
    await window.plan()
    return window


__all__ = ["RevertWindow", "open_revert", "run_window"]
