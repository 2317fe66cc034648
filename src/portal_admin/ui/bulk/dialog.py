"""The bulk-change window: choose the action and the targets, see the plan, run it.

Non-modal: the main window and its other panels stay usable while a job runs. Three pages:

1. **Choose**: the action and its values; the targets (the selected rows, every row matching
   the panel's filter, or an imported / pasted list of emails or ids).
2. **Plan** (the dry run): every target with its current and new value or why it is skipped,
   the counts, the plan's export; the concurrency; on a production profile the number of
   targets must be typed before Run.
3. **Run**: progress, counts, rate and time left; Pause, Resume, Cancel; the result file.

The work is in ``portal_admin.jobs``; the tasks are the panel's (``panel.spawn``), so closing
the main window or signing out stops the runner, and the job stays resumable.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QStackedWidget,
    QVBoxLayout,
)

from portal_admin import jobs
from portal_admin.client.errors import ReadOnlyError
from portal_admin.files.csv_rules import DELIMITERS
from portal_admin.jobs import targets as pick
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.panels.base import PanelBase, async_slot
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel

from ..enum_labels import value_label
from ..error_info import describe_error
from .pages import ChoosePage, PlanPage, RunPage
from .words import IMPORT_ERRORS, KINDS, PAUSES, REASONS, STATES, word

log = logging.getLogger(__name__)

#: The bulk windows open now, by job id (the Jobs panel shows a running one again).
OPEN: dict[str, BulkDialog] = {}
#: What a job run in this program changed, besides its area (``OperationRunner.publish``): the
#: Jobs panel reads the job files again on it, and on no other topic.
JOBS_TOPIC = "jobs"

#: The actions each panel offers.
ACCOUNT_KINDS = ("status", "reset-password", "update")
INVITATION_KINDS = ("invite", "cancel-invitation")


@dataclasses.dataclass
class Sources:
    """Where the targets can come from, as the panel knows them."""

    #: "accounts" or "invitations".
    area: str
    #: The selected rows' records (``Account`` or ``Invitation``).
    selected: Sequence[Any] = ()
    #: The account filter's query arguments (accounts), for "all matching".
    matching: dict[str, Any] | None = None
    #: How many rows match the filter, when known.
    matching_count: int | None = None


class BulkDialog(QDialog):
    """Plan and run one bulk change."""

    def __init__(self, panel: PanelBase, sources: Sources, kind: str | None = None) -> None:
        super().__init__(panel)
        self.setObjectName("bulkDialog")
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.panel = panel
        self.sources = sources
        self.job: jobs.JobFile | None = None
        self.runner: jobs.Runner | None = None
        self.imported: str | None = None
        self.last_progress: jobs.Progress | None = None
        kinds = ACCOUNT_KINDS if sources.area == "accounts" else INVITATION_KINDS
        self.choose_page = ChoosePage(self, kinds, bool(sources.selected))
        self.plan_page = PlanPage(self)
        self.run_page = RunPage(self, self.plan_page.plan_model)
        # The pages' widgets, by the names the dialog's logic (and its tests) use.
        self.kind = self.choose_page.kind
        self.status_action = self.choose_page.status_action
        self.field = self.choose_page.field
        self.value = self.choose_page.value
        self.reason = self.choose_page.reason
        self.message = self.choose_page.message
        self.days = self.choose_page.days
        self.form = self.choose_page.form
        self.labels = self.choose_page.labels
        self.source_group = self.choose_page.source_group
        self.use_selected = self.choose_page.use_selected
        self.use_matching = self.choose_page.use_matching
        self.use_list = self.choose_page.use_list
        self.older = self.choose_page.older
        self.paste = self.choose_page.paste
        self.import_button = self.choose_page.import_button
        self.import_note = self.choose_page.import_note
        self.older_label = self.choose_page.older_label
        self.targets_label = self.choose_page.targets_label
        self.plan_button = self.choose_page.plan_button
        self.close_button = self.choose_page.close_button
        self.summary = self.plan_page.summary
        self.plan_model = self.plan_page.plan_model
        self.table = self.plan_page.table
        self.plan_actions = self.plan_page.plan_actions
        self.export_plan = self.plan_page.export_plan
        self.concurrency_label = self.plan_page.concurrency_label
        self.concurrency = self.plan_page.concurrency
        self.typed = self.plan_page.typed
        self.confirm = self.plan_page.confirm
        self.back = self.plan_page.back
        self.run_button = self.plan_page.run_button
        self.progress = self.run_page.progress
        self.counts = self.run_page.counts
        self.rate = self.run_page.rate
        self.pause_note = self.run_page.pause_note
        self.result_table = self.run_page.result_table
        self.result_actions = self.run_page.result_actions
        self.pause_button = self.run_page.pause_button
        self.cancel_button = self.run_page.cancel_button
        self.save_result = self.run_page.save_result
        self.done_button = self.run_page.done_button
        self.import_button.clicked.connect(self._choose_file)
        self.plan_button.clicked.connect(self._on_plan)
        self.close_button.clicked.connect(self.close)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.export_plan.clicked.connect(lambda: self._save_csv(plan=True))
        self.typed.changed.connect(self._update_run_button)
        self.back.clicked.connect(self._back_to_choose)
        self.run_button.clicked.connect(self._on_run)
        self.pause_button.clicked.connect(self._pause_or_resume)
        self.cancel_button.clicked.connect(self.cancel)
        self.save_result.clicked.connect(lambda: self._save_csv(plan=False))
        self.done_button.clicked.connect(self.close)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.choose_page)
        self.pages.addWidget(self.plan_page)
        self.pages.addWidget(self.run_page)
        self.error = PlainLabel(self)
        self.error.setObjectName("bulkError")
        self.error.setWordWrap(True)
        set_tone(self.error, "error")
        self.error.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.error)
        if kind in kinds:
            self.kind.setCurrentIndex(kinds.index(kind))
        self._kind_changed()
        self.retranslateUi()
        self.resize(760, 560)

    # -- page 1: choose ------------------------------------------------------------------------

    def _kind_changed(self, *_args: object) -> None:
        kind = self.kind.currentData()
        shown = {
            "status": ("status", "reason"),
            "reset-password": (),
            "update": ("field", "value"),
            "invite": ("message", "days"),
            "cancel-invitation": ("reason",),
        }[kind]
        for key in ("status", "field", "value", "reason", "message", "days"):
            self.form.setRowVisible(self.labels[key].buddy(), key in shown)
        invite = kind == "invite"
        self.use_selected.setVisible(not invite)
        self.use_matching.setVisible(not invite)
        self.older.setVisible(kind == "cancel-invitation")
        self.older_label.setVisible(kind == "cancel-invitation")
        if invite:
            self.use_list.setChecked(True)
        self.retranslateUi()

    def _choose_file(self) -> None:
        dialog = QFileDialog(self)
        dialog.setObjectName("bulkImportFile")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilter(
            QCoreApplication.translate("BulkDialog", "Lists (*.csv *.txt);;All files (*)")
        )
        dialog.fileSelected.connect(self.load_file)
        dialog.open()

    def load_file(self, path: str) -> bool:
        """Put the file's text into the list (a clear message when it cannot be read)."""
        try:
            text = jobs.decode(pick.read_file(path))  # at most the bound plus one byte
        except OSError as exc:
            self.show_error(fill(QCoreApplication.translate("BulkDialog", "%1: %2"), path, exc))
            return False
        except jobs.ImportFailed as exc:
            self.show_import_error(exc)
            return False
        self.imported = path
        self.paste.setPlainText(text if len(text) < 200_000 else "")
        self._imported_text = text
        self.use_list.setChecked(True)
        self.import_note.setText(
            fill(QCoreApplication.translate("BulkDialog", "Imported %1"), Path(path).name)
        )
        return True

    def list_text(self) -> str:
        """The imported or pasted list."""
        pasted = self.paste.toPlainText()
        return pasted if pasted.strip() else getattr(self, "_imported_text", "")

    def action(self) -> jobs.Action:
        """The action the form describes."""
        kind = self.kind.currentData()
        if kind == "status":
            return jobs.ChangeStatus(self.status_action.currentData(), self.reason.text() or None)
        if kind == "reset-password":
            return jobs.ResetPassword()
        if kind == "update":
            return jobs.UpdateField(self.field.currentData(), self.value.text().strip())
        if kind == "invite":
            return jobs.Invite(
                message=self.message.text() or None, expiration_days=self.days.value()
            )
        return jobs.CancelInvitation(reason=self.reason.text())

    # -- planning ------------------------------------------------------------------------------

    @async_slot()
    async def _on_plan(self) -> None:
        await self.plan()

    async def plan(self) -> jobs.JobFile | None:
        """Build the plan (nothing is sent) and show it."""
        self.show_error("")
        if self.kind.currentData() == "update" and not self.value.text().strip():
            self.show_error(QCoreApplication.translate("BulkDialog", "Enter the new value."))
            return None
        self.plan_button.setEnabled(False)
        self.plan_button.setText(QCoreApplication.translate("BulkDialog", "Planning\u2026"))
        try:
            client = self.panel.client
            action = self.action()
            found, problems, source = await self._targets(client, action)
            context = await self.panel.context.job_context()
            self.job = await jobs.create_job(
                client,
                action,
                found,
                context,
                problems=problems,
                concurrency=self.concurrency.value(),
                source=source,
            )
        except jobs.ImportFailed as exc:
            self.show_import_error(exc)
            return None
        except ReadOnlyError:
            self.show_error(
                QCoreApplication.translate(
                    "BulkDialog", "This session is read-only: no bulk change can be planned."
                )
            )
            return None
        except Exception as exc:
            self.show_error(describe_error(exc).as_text())
            log.info("bulk plan failed: %r", exc)
            return None
        finally:
            self.plan_button.setEnabled(True)
            self.retranslateUi()
        self.show_plan()
        return self.job

    async def _targets(self, client: Any, action: jobs.Action) -> tuple[Any, list[Any], str]:
        if self.use_list.isChecked():
            listed = jobs.parse_list(self.list_text())
            if self.sources.area == "accounts":
                found, problems = await pick.match_accounts(client, listed)
            elif isinstance(action, jobs.Invite):
                found, problems = pick.invitee_targets(await client.invitations.list(), listed)
            else:
                found, problems = pick.match_invitations(await client.invitations.list(), listed)
            return found, problems, self.imported or "pasted list"
        if self.use_selected.isChecked():
            rows = list(self.sources.selected)
            if self.sources.area == "accounts":
                return [jobs.actions.account_target(r) for r in rows], [], "selected rows"
            return [jobs.actions.invitation_target(r) for r in rows], [], "selected rows"
        if self.sources.area == "accounts":
            return pick.all_accounts(client, **(self.sources.matching or {})), [], "filter"
        cutoff = dt.datetime.now(dt.UTC) - dt.timedelta(days=self.older.value())
        pending = [
            jobs.actions.invitation_target(i)
            for i in await client.invitations.list()
            if i.invitation_status is not None
            and i.invitation_status.is_("PENDING")
            and i.created_at is not None
            and i.created_at <= cutoff
        ]
        return pending, [], f"pending older than {self.older.value()} days"

    # -- page 2: plan --------------------------------------------------------------------------

    @property
    def production(self) -> bool:
        """True when every change on this profile is confirmed first."""
        return bool(self.panel.context.profile.environment.needs_confirmation)

    def to_change(self) -> int:
        """How many targets the plan changes."""
        return self.job.counts()["planned"] if self.job else 0

    def show_plan(self) -> None:
        """The plan page for ``self.job``."""
        assert self.job is not None
        self.plan_model.show_job(self.job)
        self.pages.setCurrentIndex(1)
        self.typed.require(
            jobs.confirmation_needed(self.job, self.production), self.panel.context.profile
        )
        self.retranslateUi()
        self._update_run_button()

    def _update_run_button(self, *_args: object) -> None:
        count = self.to_change()
        confirmed = self.typed.confirmed()
        self.run_button.setEnabled(count > 0 and confirmed and self.runner is None)

    def _back_to_choose(self) -> None:
        if self.job is not None and self.runner is None:
            self.job.discard()  # a plan not run is not kept
            self.job = None
        self.pages.setCurrentIndex(0)

    # -- page 3: run ---------------------------------------------------------------------------

    @async_slot()
    async def _on_run(self) -> None:
        await self.run()

    async def run(self, job: jobs.JobFile | None = None) -> jobs.Progress | None:
        """Run the plan (or resume ``job``) to its end, showing its progress."""
        if job is not None:
            self.job = job
        assert self.job is not None
        if job is None and not self.typed.confirmed():
            return None  # the number of targets is not typed (or not the right one)
        self.runner = jobs.Runner(
            self.panel.client,
            self.job,
            concurrency=self.concurrency.value() if job is None else None,
            on_progress=self.show_progress,
            publish_every=0.1,
        )
        self.pages.setCurrentIndex(2)
        OPEN[self.job.id] = self
        self.progress.setRange(0, self.runner.progress().total)
        self._update_run_buttons(running=True)
        try:
            progress = await self.runner.run()
        except jobs.JobLockedError:
            self.show_error(
                QCoreApplication.translate(
                    "BulkDialog", "This job is being run by another window or program."
                )
            )
            self.runner = None
            return None
        except Exception as exc:
            self.show_error(describe_error(exc).as_text())
            log.info("bulk run stopped: %r", exc)
            return None
        finally:
            self._update_run_buttons(running=False)
            OPEN.pop(self.job.id, None)
        self.show_progress(progress)
        self.plan_model.show_job(self.job)
        self.panel.runner.publish({self.sources.area, JOBS_TOPIC})
        return progress

    def show_progress(self, progress: jobs.Progress) -> None:
        """Counts, rate, time left and the pause reason."""
        self.last_progress = progress
        c = progress.counts
        self.progress.setValue(progress.finished)
        self.counts.setText(
            fill(
                QCoreApplication.translate(
                    "BulkDialog", "%1 of %2: %3 done, %4 failed, %5 skipped, %6 unknown"
                ),
                progress.finished,
                progress.total,
                c.get("done", 0),
                c.get("failed", 0),
                c.get("skipped", 0),
                c.get("unknown", 0),
            )
        )
        if progress.state in (jobs.JobState.FINISHED, jobs.JobState.CANCELLED):
            self.rate.setText(word(STATES, str(progress.state)))
        elif progress.settling > 0:  # unanswered requests: not read back before their deadline
            self.rate.setText(
                fill(
                    QCoreApplication.translate(
                        "BulkDialog",
                        "Waiting %1 s, then reading back %2 targets whose outcome is unknown"
                        " (the server may still be applying them)",
                    ),
                    f"{progress.settling:.0f}",
                    c.get("sending", 0),
                )
            )
        elif progress.eta is not None:
            self.rate.setText(
                fill(
                    QCoreApplication.translate("BulkDialog", "%1 per second, about %2 s left"),
                    f"{progress.rate:.0f}",
                    f"{progress.eta:.0f}",
                )
            )
        self.pause_note.setText(word(PAUSES, progress.pause_reason))
        self.pause_note.setVisible(bool(progress.pause_reason))
        self.pause_button.setText(
            QCoreApplication.translate("BulkDialog", "Resume")
            if progress.pause_reason
            else QCoreApplication.translate("BulkDialog", "Pause")
        )

    def _pause_or_resume(self) -> None:
        if self.runner is None:
            return
        if self.runner.paused:
            self.runner.resume()
        else:
            self.runner.pause()

    def cancel(self) -> None:
        """Stop the job: what was done stays done."""
        if self.runner is not None:
            self.runner.cancel()

    def show_job(self, job: jobs.JobFile) -> None:
        """Show a job that is not running here (paused, interrupted or ended): its lines on the
        result page, the run buttons off; resuming it plans nothing again."""
        self.job = job
        self.runner = None
        self.plan_model.show_job(job)
        self.pages.setCurrentIndex(2)
        self._update_run_buttons(running=False)

    def _update_run_buttons(self, *, running: bool) -> None:
        self.pause_button.setEnabled(running)
        self.cancel_button.setEnabled(running)
        self.save_result.setEnabled(not running)
        self.done_button.setEnabled(not running)

    # -- files ---------------------------------------------------------------------------------

    def _save_csv(self, *, plan: bool) -> None:
        if self.job is None:
            return
        dialog = QFileDialog(self)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("csv")
        dialog.selectFile(f"{self.job.id}-{'plan' if plan else 'result'}.csv")
        dialog.setNameFilter(QCoreApplication.translate("BulkDialog", "CSV files (*.csv)"))
        dialog.fileSelected.connect(lambda path: self.save(Path(path), plan=plan))
        dialog.open()

    def save(self, path: Path, *, plan: bool, delimiter: str = "comma") -> int:
        """Write the plan or the result as CSV."""
        assert self.job is not None
        write = jobs.write_plan if plan else jobs.write_result
        try:
            return write(self.job, path, delimiter=DELIMITERS[delimiter], label=value_label)
        except OSError as exc:
            self.show_error(fill(QCoreApplication.translate("BulkDialog", "%1: %2"), path, exc))
            return 0

    # -- messages ------------------------------------------------------------------------------

    def show_error(self, text: str) -> None:
        """A message under the pages (empty hides it)."""
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def show_import_error(self, exc: jobs.ImportFailed) -> None:
        """A file that cannot be read, with its line."""
        text = word(IMPORT_ERRORS, exc.code)
        if exc.line:
            text = fill(QCoreApplication.translate("BulkDialog", "Line %1: %2"), exc.line, text)
        self.show_error(text)

    def closeEvent(self, event: Any) -> None:
        if self.job is not None and self.job.id in OPEN:
            self.hide()  # a running (or paused) job goes on; the Jobs panel shows it again
            event.ignore()
            return
        if self.job is not None and self.runner is None:
            self.job.discard()  # a plan that was not run is not kept
            self.job = None
        elif self.job is not None:
            self.job.close()
            self.job = None  # closed: a later language change must not read it (a crash)
        super().closeEvent(event)

    def retranslateUi(self) -> None:
        """Texts in the current language: the pages' own, then those that follow the state."""
        kind = self.kind.currentData()
        self.setWindowTitle(
            fill(QCoreApplication.translate("BulkDialog", "Bulk change: %1"), word(KINDS, kind))
        )
        self.choose_page.retranslateUi()
        self.plan_page.retranslateUi()
        self.run_page.retranslateUi()
        self.use_selected.setText(
            fill(
                QCoreApplication.translate("BulkDialog", "The %1 selected rows"),
                len(self.sources.selected),
            )
        )
        if self.sources.area == "accounts":
            count = self.sources.matching_count
            self.use_matching.setText(
                fill(
                    QCoreApplication.translate(
                        "BulkDialog", "All %1 accounts matching the current filter"
                    ),
                    count,
                )
                if count is not None
                else QCoreApplication.translate(
                    "BulkDialog", "All accounts matching the current filter"
                )
            )
        else:
            self.use_matching.setText(
                QCoreApplication.translate("BulkDialog", "Every pending invitation")
            )
        if self.plan_button.isEnabled():
            self.plan_button.setText(QCoreApplication.translate("BulkDialog", "&Plan (dry run)"))
        count = self.to_change()
        self.run_button.setText(
            fill(QCoreApplication.translate("BulkDialog", "&Run on %1 targets"), count)
        )
        if self.job is not None:
            skips = ", ".join(
                f"{n} \u00d7 {word(REASONS, code)}"
                for code, n in sorted(self.job.skip_counts().items())
            )
            self.summary.setText(
                fill(
                    QCoreApplication.translate(
                        "BulkDialog", "Nothing has been sent. %1 targets will change; skipped: %2"
                    ),
                    count,
                    skips or QCoreApplication.translate("BulkDialog", "none"),
                )
            )
        if self.last_progress is not None:
            self.show_progress(self.last_progress)
        else:
            self.pause_button.setText(QCoreApplication.translate("BulkDialog", "Pause"))

    def changeEvent(self, event: Any) -> None:
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
            self.plan_model.retranslate()
        super().changeEvent(event)
