""" "Test connection": the connection doctor's steps as they end, a verdict, and the report.

Non-modal (``open()``); the run is a task of :class:`~.service.DoctorRun`, stopped when
the dialog closes. The report (copied or saved, text or JSON) is the doctor's own, in English
for a support ticket, and free of secrets.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from portal_admin.connection.doctor import Report, Status, Step
from portal_admin.connection.doctor.report import redact_url
from portal_admin.files.atomic import atomic_write_text
from portal_admin.ui.doctor.service import (
    DoctorRequest,
    DoctorRun,
    TransportFactory,
    builtin_sandbox_transport,
)
from portal_admin.ui.doctor.words import describe, status_name, step_name
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.profiles.store import Profile
from portal_admin.ui.theme.icons import IconLabel, icon
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

if TYPE_CHECKING:  # imported once the loop runs
    import asyncio

#: The icon of each outcome (``ui/theme/icons.py``).
STATUS_ICONS = {
    Status.OK: "state.ok",
    Status.WARNING: "state.warning",
    Status.FAILED: "state.failed",
    Status.SKIPPED: "state.skipped",
}
_TONES = {Status.OK: "success", Status.WARNING: "warning", Status.FAILED: "error"}


def _label(parent: QWidget, name: str) -> QLabel:
    label = PlainLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class StepRow(QFrame):
    """One step: its outcome's icon, name and time, the summary, and advice when there is some."""

    def __init__(self, step: Step, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.step = step
        self.setObjectName(f"doctorStep_{step.name}")
        self.icon = IconLabel(self, 20)
        self.icon.set_icon(STATUS_ICONS[step.status])
        self.name = _label(self, "stepName")
        self.name.setStyleSheet("font-weight: bold;")
        self.time = PlainLabel(self)
        self.time.setObjectName("stepTime")
        set_tone(self.time, "muted")
        self.summary = _label(self, "stepSummary")
        self.advice = _label(self, "stepAdvice")
        set_tone(self.advice, "muted")
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 4, 4, 4)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(2)
        grid.addWidget(self.icon, 0, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.name, 0, 1)
        grid.addWidget(self.time, 0, 2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.summary, 1, 1, 1, 2)
        grid.addWidget(self.advice, 2, 1, 1, 2)
        grid.setColumnStretch(1, 1)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        step = self.step
        summary, advice = describe(step)
        self.name.setText(step_name(step.name))
        self.summary.setText(summary)
        self.advice.setText(advice)
        self.advice.setVisible(bool(advice))
        self.time.setText(
            ""
            if step.status is Status.SKIPPED
            else fill(QCoreApplication.translate("DoctorDialog", "%1 s"), f"{step.seconds:.2f}")
        )
        status = status_name(step.status)
        self.icon.setAccessibleName(status)
        self.icon.setToolTip(plain_tooltip(status))
        self.setAccessibleName(f"{step_name(step.name)}: {status}")
        self.setAccessibleDescription(f"{summary} {advice}".strip())


class DoctorDialog(QDialog):
    """Tests one profile (as typed, unsaved) with the connection doctor."""

    def __init__(
        self,
        profile: Profile,
        parent: QWidget | None = None,
        *,
        sandbox: TransportFactory = builtin_sandbox_transport,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("doctorDialog")
        self.profile = profile
        self.request = DoctorRequest.for_profile(profile, sandbox)
        self.service = DoctorRun(self)
        self.service.stepDone.connect(self._step_done)
        self.service.finished.connect(self._finished)
        self.service.failed.connect(self._failed)
        self.service.cancelled.connect(self._cancelled)
        self.rows: list[StepRow] = []
        self._state = "idle"
        self._problem = ""
        self._note = ""
        self._file_dialog: QFileDialog | None = None
        #: The report being written (``save_report``, started by the file dialog).
        self.saving: asyncio.Task[bool] | None = None

        self.target = _label(self, "doctorTarget")
        self.intro = _label(self, "doctorIntro")
        set_tone(self.intro, "muted")
        self.steps_box = QWidget(self)
        self.steps_layout = QVBoxLayout(self.steps_box)
        self.steps_layout.setContentsMargins(0, 0, 0, 0)
        self.steps_layout.setSpacing(2)
        self.steps_layout.addStretch(1)
        self.steps_area = QScrollArea(self)
        self.steps_area.setWidgetResizable(True)
        self.steps_area.setFrameShape(QFrame.Shape.StyledPanel)
        self.steps_area.setWidget(self.steps_box)
        self.busy_icon = IconLabel(self, 16)
        self.verdict_icon = IconLabel(self, 20)
        self.verdict = _label(self, "doctorVerdict")
        self.verdict.setStyleSheet("font-weight: bold;")
        verdict_row = QHBoxLayout()
        verdict_row.addWidget(self.busy_icon)
        verdict_row.addWidget(self.verdict_icon)
        verdict_row.addWidget(self.verdict, 1)
        self.note = _label(self, "doctorNote")
        self.note.hide()

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        role = QDialogButtonBox.ButtonRole.ActionRole
        self.copy_button = QPushButton(icon("action.copy"), "", self)
        self.save_button = QPushButton(icon("action.save"), "", self)
        self.again_button = QPushButton(icon("action.refresh"), "", self)
        self.stop_button = QPushButton(self)
        for button, name in (
            (self.copy_button, "copyReport"),
            (self.save_button, "saveReport"),
            (self.again_button, "runAgain"),
            (self.stop_button, "stopTest"),
        ):
            button.setObjectName(name)
            button.setAutoDefault(False)
            self.buttons.addButton(button, role)
        self.copy_button.clicked.connect(self.copy_report)
        self.save_button.clicked.connect(self.choose_file)
        self.again_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.service.cancel)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.target)
        layout.addWidget(self.intro)
        layout.addWidget(self.steps_area, 1)
        layout.addLayout(verdict_row)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.resize(660, 640)
        self.retranslateUi()
        self._update_state()

    # running

    def start(self) -> None:
        """Run the test (again), forgetting the previous one's steps."""
        for row in self.rows:
            row.deleteLater()
        self.rows.clear()
        self._problem = ""
        self._set_note("")
        self._state = "running"
        self.service.start(self.request)
        self._update_state()

    def open(self) -> None:
        """Show the dialog and start the test."""
        super().open()
        self.start()

    def done(self, result: int) -> None:
        """Closing stops a test still under way."""
        self.service.cancel()
        super().done(result)

    def _step_done(self, step: Step) -> None:
        row = StepRow(step, self.steps_box)
        self.rows.append(row)
        self.steps_layout.insertWidget(self.steps_layout.count() - 1, row)
        QTimer.singleShot(0, self._follow)

    def _follow(self) -> None:
        """Keep the newest step in view while running; afterwards, the first problem."""
        bar = self.steps_area.verticalScrollBar()
        if self._state == "running":
            bar.setValue(bar.maximum())
            return
        problem = next(
            (r for r in self.rows if r.step.status in (Status.FAILED, Status.WARNING)), None
        )
        if problem is not None:
            self.steps_area.ensureWidgetVisible(problem, 0, 8)
        else:
            bar.setValue(0)

    def _finished(self, report: Report) -> None:
        self._state = "done"
        self._update_state()
        QTimer.singleShot(0, self._follow)

    def _failed(self, reason: str) -> None:
        self._state = "failed"
        self._problem = reason
        self._update_state()

    def _cancelled(self) -> None:
        self._state = "cancelled"
        self._update_state()

    @property
    def report(self) -> Report | None:
        """The last complete report, if the last run ended."""
        return self.service.report

    # the verdict

    def verdict_text(self) -> str:
        """The verdict line for the state the test is in."""
        report = self.report
        if self._state == "running":
            return QCoreApplication.translate("DoctorDialog", "Testing the connection\u2026")
        if self._state == "cancelled":
            return QCoreApplication.translate("DoctorDialog", "The test was stopped.")
        if self._state == "failed":
            return fill(
                QCoreApplication.translate("DoctorDialog", "This profile cannot be tested: %1"),
                self._problem,
            )
        if self._state != "done" or report is None:
            return ""
        if report.status is Status.FAILED:
            return QCoreApplication.translate(
                "DoctorDialog",
                "The connection does not work: see the failed step above.",
            )
        if report.status is Status.WARNING:
            return QCoreApplication.translate(
                "DoctorDialog", "The server can be used, but look at the warnings above."
            )
        return QCoreApplication.translate(
            "DoctorDialog", "Everything works: this program can connect to the server."
        )

    def _update_state(self) -> None:
        running = self._state == "running"
        report = self.report if self._state == "done" else None
        status = report.status if report is not None else None
        if self._state in ("failed", "cancelled"):
            status = Status.FAILED if self._state == "failed" else Status.SKIPPED
        self.busy_icon.set_icon("state.loading" if running else None)
        self.verdict_icon.set_icon(STATUS_ICONS[status] if status is not None else None)
        set_tone(self.verdict, _TONES.get(status) if status is not None else None)
        self.verdict.setText(self.verdict_text())
        self.copy_button.setEnabled(report is not None)
        self.save_button.setEnabled(report is not None)
        self.again_button.setVisible(not running)
        self.stop_button.setVisible(running)

    # the report

    def copy_report(self) -> None:
        """Put the report, as text, on the clipboard."""
        if self.report is None:
            return
        QGuiApplication.clipboard().setText(self.report.to_text())
        self._set_note(QCoreApplication.translate("DoctorDialog", "The report was copied."))

    def choose_file(self) -> None:
        """Ask where to save the report (text or JSON, by the file's suffix)."""
        dialog = QFileDialog(self, QCoreApplication.translate("DoctorDialog", "Save report"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(
            [
                QCoreApplication.translate("DoctorDialog", "Text report (*.txt)"),
                QCoreApplication.translate("DoctorDialog", "JSON report (*.json)"),
            ]
        )
        dialog.setDefaultSuffix("txt")
        dialog.filterSelected.connect(
            lambda chosen: dialog.setDefaultSuffix("json" if "*.json" in chosen else "txt")
        )
        dialog.selectFile("connection-test.txt")
        dialog.fileSelected.connect(self._file_chosen)
        self._file_dialog = dialog
        dialog.open()

    def _file_chosen(self, path: str) -> None:
        import asyncio

        self.saving = asyncio.ensure_future(self.save_report(path))

    async def save_report(self, path: str) -> bool:
        """Write the report to ``path`` (in a worker thread): JSON for a ``.json`` file, text
        otherwise."""
        report = self.report
        if report is None or not path:
            return False
        as_json = Path(path).suffix.lower() == ".json"
        try:
            text = report.to_json() if as_json else report.to_text()
            await in_worker(atomic_write_text, Path(path), text)
        except OSError as exc:
            self._set_note(
                fill(
                    QCoreApplication.translate("DoctorDialog", "The report could not be saved: %1"),
                    exc.strerror or type(exc).__name__,
                ),
                "error",
            )
            return False
        self._set_note(
            fill(QCoreApplication.translate("DoctorDialog", "The report was saved to %1."), path)
        )
        return True

    def _set_note(self, text: str, tone: str | None = None) -> None:
        self._note = text
        self.note.setText(text)
        set_tone(self.note, tone)
        self.note.setVisible(bool(text))

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        name = self.profile.name or redact_url(self.profile.base_url)
        self.setWindowTitle(
            fill(QCoreApplication.translate("DoctorDialog", "Test connection \u2014 %1"), name)
        )
        shown = (
            QCoreApplication.translate("DoctorDialog", "the built-in sandbox")
            if self.profile.is_sandbox
            else redact_url(self.request.url)
        )
        self.target.setText(fill(QCoreApplication.translate("DoctorDialog", "Server: %1"), shown))
        self.intro.setText(
            QCoreApplication.translate(
                "DoctorDialog",
                "Checks the network, TLS and the API step by step, without signing in. The "
                "report holds no password, code or token.",
            )
        )
        self.steps_area.setAccessibleName(QCoreApplication.translate("DoctorDialog", "Steps"))
        self.copy_button.setText(QCoreApplication.translate("DoctorDialog", "&Copy report"))
        self.save_button.setText(QCoreApplication.translate("DoctorDialog", "&Save report\u2026"))
        self.again_button.setText(QCoreApplication.translate("DoctorDialog", "&Run again"))
        self.stop_button.setText(QCoreApplication.translate("DoctorDialog", "S&top"))
        for row in self.rows:
            row.retranslateUi()
        self.verdict.setText(self.verdict_text())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
