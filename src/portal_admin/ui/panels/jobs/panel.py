"""The Jobs panel: the bulk jobs kept on this computer, their state, result and resumption."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from portal_admin import jobs
from portal_admin.ui.file_work import FileWork, in_worker
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.base import PanelBase, async_slot
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.widgets.error_line import ErrorLine
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from ...bulk.dialog import JOBS_TOPIC, OPEN, BulkDialog, Sources
from ...bulk.words import KINDS, PAUSES, STATES, word

log = logging.getLogger(__name__)

COLUMNS = (
    QT_TRANSLATE_NOOP("JobsPanel", "Job"),
    QT_TRANSLATE_NOOP("JobsPanel", "Action"),
    QT_TRANSLATE_NOOP("JobsPanel", "State"),
    QT_TRANSLATE_NOOP("JobsPanel", "Done"),
    QT_TRANSLATE_NOOP("JobsPanel", "Failed"),
    QT_TRANSLATE_NOOP("JobsPanel", "Skipped"),
    QT_TRANSLATE_NOOP("JobsPanel", "Left"),
    QT_TRANSLATE_NOOP("JobsPanel", "Created"),
    QT_TRANSLATE_NOOP("JobsPanel", "Account"),
)
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
INVITATION_KINDS = frozenset({"invite", "cancel-invitation"})


#: One job as the panel lists it.
JobRow = jobs.JobSummary


def read_jobs(folder: Path | None = None) -> list[JobRow]:
    """Every readable job file, newest first (the jobs this program runs are not interrupted)."""
    return jobs.read_summaries(folder, running_here=OPEN)


class JobsPanel(PanelBase):
    """Bulk jobs: list, result, resume."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("jobsPanel")
        self.rows: list[JobRow] = []
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("jobsTable")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.note = PlainLabel(self)
        self.note.setObjectName("jobsNote")
        self.note.setWordWrap(True)
        self.refresh_button = QPushButton(self)
        self.refresh_button.clicked.connect(self.refresh)
        self.resume_button = QPushButton(self)
        self.resume_button.setObjectName("jobsResume")
        self.resume_button.clicked.connect(self._on_resume)
        self.show_button = QPushButton(self)
        self.show_button.setObjectName("jobsShow")
        self.show_button.clicked.connect(self._on_show)
        # Revert the job… (#30): its changes set back, as a bulk job; hidden in the kiosk.
        self.revert_button = QPushButton(self)
        self.revert_button.setObjectName("jobsRevert")
        self.revert_button.clicked.connect(self.revert_selected)
        self.folder_note = PlainLabel(self)
        self.folder_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Several jobs may be selected to copy them; Show and Resume take one. Enter shows it.
        # Job files are not deleted from here.
        self.table_actions = TableActions(self.table, id_column=0, row_of=lambda r: self.rows[r])
        self.table_actions.set_multi_select()
        self.table_actions.add_row_buttons(self.show_button, self.resume_button, self.revert_button)
        self.table_actions.rowActivated.connect(lambda _row: self._on_show())
        #: A job file that cannot be opened (damaged, removed, another user's) is said here.
        self.error = ErrorLine(self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.show_button)
        buttons.addWidget(self.resume_button)
        buttons.addWidget(self.revert_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addLayout(buttons)
        layout.addWidget(self.error)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.folder_note)
        self.runner.changed.connect(self._topics_changed)
        # Jobs run by the command line beside the program, or by another window, show too.
        self.watch_files(lambda: (jobs.jobs_dir(),))
        self.retranslateUi()

    def _topics_changed(self, topics: frozenset[str]) -> None:
        """A job run in this program changed (not any change anywhere: an account edited, a
        channel saved): read the job files again, now if shown, else when next shown."""
        if JOBS_TOPIC in topics:
            self.reload_when_shown()

    def refresh(self) -> None:
        """Read the job files again (F5)."""
        self.start_reload()

    async def reload(self) -> object:
        """Read the job files (in a worker thread) and show them."""
        self.rows = await in_worker(read_jobs)
        self._fill()
        self.loaded = True
        return self.rows

    def _fill(self) -> None:
        self.table.setRowCount(len(self.rows))
        for r, row in enumerate(self.rows):
            left = row.counts.get("planned", 0) + row.counts.get("sending", 0)
            cells = (
                row.id,
                word(KINDS, row.kind),
                word(STATES, row.state),
                row.counts.get("done", 0),
                row.counts.get("failed", 0) + row.counts.get("unknown", 0),
                row.counts.get("skipped", 0),
                left,
                format_datetime(row.created),  # local time, in the reader's format
                row.account,
            )
            # what the job file holds, for the words and the local time shown
            codes = {1: row.kind, 2: row.state, 7: row.created}
            for c, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                if isinstance(value, int):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                if codes.get(c):
                    item.setToolTip(plain_tooltip(codes[c]))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self._selection_changed()

    def selected(self) -> JobRow | None:
        """The selected job (None unless exactly one is selected)."""
        rows = self.table_actions.selected_numbers()
        return self.rows[rows[0]] if len(rows) == 1 and rows[0] < len(self.rows) else None

    def _selection_changed(self) -> None:
        row = self.selected()
        several = len(self.table_actions.selected_numbers()) > 1
        one = QCoreApplication.translate("JobsPanel", "Select one job.") if several else ""
        self.show_button.setEnabled(row is not None)
        self.show_button.setToolTip(plain_tooltip(one))
        self.allow(
            self.resume_button,
            "accounts.status",
            one or None,
            enabled=row is not None and row.resumable,
        )
        self.allow(
            self.revert_button,
            "accounts.status",
            one or None,
            enabled=row is not None and row.state != "running" and row.id not in OPEN,
        )
        if row is not None and row.pause_reason and row.state == "paused":
            self.note.setText(word(PAUSES, row.pause_reason))
        else:
            self.retranslate_note()

    def _on_show(self) -> None:
        self.spawn(self.show_selected())  # a task the panel keeps (wait_idle waits for it)

    async def show_selected(self) -> BulkDialog | None:
        """Show the selected job's window: the one running it, or its lines (the job file
        read in a worker thread; one that cannot be read is said above the list)."""
        row = self.selected()
        if row is None:
            return None
        dialog = OPEN.get(row.id)
        if dialog is None:
            job = await self._open_job(row)
            if job is None:
                return None
            dialog = self._dialog(row)
            dialog.show_job(job)
        dialog.show()
        dialog.raise_()
        return dialog

    async def _open_job(self, row: JobRow) -> jobs.JobFile | None:
        """The job file of ``row``, opened in a worker thread (None: said in ``error``)."""
        self.error.clear_error()
        work = FileWork(lambda: jobs.JobFile.open(row.path), self.error.show_error, what="job file")
        return await work.run()

    def _dialog(self, row: JobRow) -> BulkDialog:
        if row.kind == "revert":
            from .revert_plan import run_window

            return run_window(self)
        area = "invitations" if row.kind in INVITATION_KINDS else "accounts"
        return BulkDialog(self, Sources(area), row.kind)

    def revert_selected(self) -> Any:
        """Plan the revert of the selected job in the revert window (nothing is sent)."""
        from .revert_plan import RevertWindow

        row = self.selected()
        if row is None or self.permissions.read_only:
            return None
        window = RevertWindow(self, job_id=row.id)
        window.show()
        window.planning = self.spawn(window.plan())
        return window

    @async_slot()
    async def _on_resume(self) -> None:
        await self.resume_selected()

    async def resume_selected(self) -> jobs.Progress | None:
        """Resume the selected paused or interrupted job in its window."""
        row = self.selected()
        if row is None or not row.resumable:
            return None
        job = await self._open_job(row)
        if job is None:
            return None
        dialog = self._dialog(row)
        dialog.show()
        progress = await dialog.run(job)
        await self.reload()
        return progress

    def apply_permissions(self) -> None:
        self._selection_changed()  # Resume: as the account may, and for one resumable job

    def retranslate_note(self) -> None:
        self.note.setText(
            QCoreApplication.translate(
                "JobsPanel",
                "Bulk changes made from this computer. A paused or interrupted job can be "
                "resumed: targets whose outcome was not known are read back first, so nothing "
                "is changed twice.",
            )
        )

    def retranslateUi(self) -> None:
        self.table.setHorizontalHeaderLabels(
            [QCoreApplication.translate("JobsPanel", c) for c in COLUMNS]
        )
        self.refresh_button.setText(QCoreApplication.translate("JobsPanel", "Refresh"))
        self.resume_button.setText(QCoreApplication.translate("JobsPanel", "&Resume"))
        self.show_button.setText(QCoreApplication.translate("JobsPanel", "&Show\u2026"))
        self.revert_button.setText(QCoreApplication.translate("JobsPanel", "Rever&t the job\u2026"))
        self.table.setAccessibleName(QCoreApplication.translate("JobsPanel", "Bulk jobs"))
        self.folder_note.setText(
            fill(QCoreApplication.translate("JobsPanel", "Job files: %1"), jobs.jobs_dir())
        )
        self.setAccessibleName(QCoreApplication.translate("JobsPanel", "Jobs"))
        self.retranslate_note()
        if self.rows:
            self._fill()
