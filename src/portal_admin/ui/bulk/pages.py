"""The bulk dialog's three pages: their widgets and layout. The dialog (:mod:`.dialog`)
connects them to the plan and run logic and sets their texts."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from portal_admin import jobs
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.widgets.plain import PlainLabel

from ..widgets.typed_confirm import TypedConfirm
from .plan_model import PlanModel
from .words import KINDS, word


class ChoosePage(QWidget):
    """Page 1: what to change (the kind and its fields) and which targets."""

    def __init__(self, parent: QWidget, kinds: Sequence[str], has_selection: bool) -> None:
        super().__init__(parent)
        self.kind = QComboBox(self)
        self.kind.setObjectName("bulkKind")
        for k in kinds:
            self.kind.addItem(k, k)
        self.status_action = QComboBox(self)
        for action in ("SUSPEND", "ACTIVATE", "DEACTIVATE"):
            self.status_action.addItem(action, action)
        self.field = QComboBox(self)
        for name in ("language", "timezone", "country", "remark"):
            self.field.addItem(name, name)
        self.value = QLineEdit(self)
        self.value.setObjectName("bulkValue")
        self.reason = QLineEdit(self)
        self.reason.setObjectName("bulkReason")
        self.message = QLineEdit(self)
        self.days = QSpinBox(self)
        self.days.setRange(1, 365)
        self.days.setValue(7)
        self.form = QFormLayout()
        self.labels: dict[str, QLabel] = {}
        for key, widget in (
            ("kind", self.kind),
            ("status", self.status_action),
            ("field", self.field),
            ("value", self.value),
            ("reason", self.reason),
            ("message", self.message),
            ("days", self.days),
        ):
            label = PlainLabel(self)
            label.setBuddy(widget)
            self.labels[key] = label
            self.form.addRow(label, widget)

        self.source_group = QButtonGroup(self)
        self.use_selected = QRadioButton(self)
        self.use_matching = QRadioButton(self)
        self.use_list = QRadioButton(self)
        self.use_selected.setObjectName("bulkUseSelected")
        self.use_matching.setObjectName("bulkUseMatching")
        self.use_list.setObjectName("bulkUseList")
        for i, button in enumerate((self.use_selected, self.use_matching, self.use_list)):
            self.source_group.addButton(button, i)
        self.older = QSpinBox(self)
        self.older.setRange(0, 3650)
        self.older.setValue(30)
        self.paste = QPlainTextEdit(self)
        self.paste.setObjectName("bulkPaste")
        self.paste.setMaximumHeight(110)
        self.import_button = QPushButton(self)
        self.import_button.setObjectName("bulkImport")
        self.import_note = PlainLabel(self)
        self.import_note.setWordWrap(True)
        matching_row = QHBoxLayout()
        matching_row.addWidget(self.use_matching)
        self.older_label = PlainLabel(self)
        matching_row.addWidget(self.older_label)
        matching_row.addWidget(self.older)
        matching_row.addStretch(1)
        list_row = QHBoxLayout()
        list_row.addWidget(self.use_list)
        list_row.addWidget(self.import_button)
        list_row.addStretch(1)
        self.targets_label = PlainLabel(self)
        self.plan_button = QPushButton(self)
        self.plan_button.setObjectName("bulkPlan")
        self.plan_button.setDefault(True)
        self.close_button = QPushButton(self)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        buttons.addWidget(self.plan_button)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addSpacing(8)
        layout.addWidget(self.targets_label)
        layout.addWidget(self.use_selected)
        layout.addLayout(matching_row)
        layout.addLayout(list_row)
        layout.addWidget(self.paste)
        layout.addWidget(self.import_note)
        layout.addStretch(1)
        layout.addLayout(buttons)
        has_selection = has_selection
        self.use_selected.setEnabled(has_selection)
        (self.use_selected if has_selection else self.use_matching).setChecked(True)
        self.paste.textChanged.connect(lambda: self.use_list.setChecked(True))

    def retranslateUi(self) -> None:
        """The page's own texts in the current language (the dialog calls it)."""
        for i in range(self.kind.count()):
            self.kind.setItemText(i, word(KINDS, self.kind.itemData(i)))
        for i, text in enumerate(
            (
                QCoreApplication.translate("BulkDialog", "Suspend"),
                QCoreApplication.translate("BulkDialog", "Activate"),
                QCoreApplication.translate("BulkDialog", "Deactivate"),
            )
        ):
            self.status_action.setItemText(i, text)
        for i, text in enumerate(
            (
                QCoreApplication.translate("BulkDialog", "Default language"),
                QCoreApplication.translate("BulkDialog", "Time zone"),
                QCoreApplication.translate("BulkDialog", "Country"),
                QCoreApplication.translate("BulkDialog", "Remark"),
            )
        ):
            self.field.setItemText(i, text)
        texts = {
            "kind": QCoreApplication.translate("BulkDialog", "&Action:"),
            "status": QCoreApplication.translate("BulkDialog", "&New status:"),
            "field": QCoreApplication.translate("BulkDialog", "&Field:"),
            "value": QCoreApplication.translate("BulkDialog", "&Value:"),
            "reason": QCoreApplication.translate("BulkDialog", "&Reason:"),
            "message": QCoreApplication.translate("BulkDialog", "&Message:"),
            "days": QCoreApplication.translate("BulkDialog", "&Expires after (days):"),
        }
        for key, text in texts.items():
            self.labels[key].setText(text)
        self.value.setPlaceholderText(
            QCoreApplication.translate("BulkDialog", "e.g. ja, Asia/Tokyo, JP")
        )
        self.reason.setPlaceholderText(
            QCoreApplication.translate("BulkDialog", "Optional; kept with the change")
        )
        self.targets_label.setText(QCoreApplication.translate("BulkDialog", "Targets:"))
        self.older_label.setText(
            QCoreApplication.translate("BulkDialog", "created at least this many days ago:")
        )
        self.use_list.setText(
            QCoreApplication.translate(
                "BulkDialog", "A list of emails or ids (paste it or import a CSV)"
            )
        )
        self.paste.setPlaceholderText(
            QCoreApplication.translate(
                "BulkDialog", "One email or id per line, or CSV with an email or id column"
            )
        )
        self.paste.setAccessibleName(QCoreApplication.translate("BulkDialog", "Emails or ids"))
        self.import_button.setText(QCoreApplication.translate("BulkDialog", "&Import a file\u2026"))
        self.close_button.setText(QCoreApplication.translate("BulkDialog", "Close"))


class PlanPage(QWidget):
    """Page 2: the plan (nothing sent yet), the concurrency, and the count to confirm."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.summary = PlainLabel(self)
        self.summary.setObjectName("bulkSummary")
        self.summary.setWordWrap(True)
        self.plan_model = PlanModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("bulkPlanTable")
        self.table.setModel(self.plan_model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setDefaultSectionSize(115)
        self.table.horizontalHeader().resizeSection(0, 250)
        # Read only: the menu copies the selected lines (several at once).
        self.plan_actions = TableActions(self.table)
        self.plan_actions.set_multi_select()
        self.export_plan = QPushButton(self)
        self.export_plan.setObjectName("bulkExportPlan")
        self.concurrency_label = PlainLabel(self)
        self.concurrency = QSpinBox(self)
        self.concurrency.setObjectName("bulkConcurrency")
        self.concurrency.setRange(1, jobs.runner.MAX_CONCURRENCY)
        self.concurrency.setValue(jobs.DEFAULT_CONCURRENCY)
        self.concurrency_label.setBuddy(self.concurrency)
        self.typed = TypedConfirm(self)  # the number typed, when jobs.confirmation_needed says
        self.confirm = self.typed.field
        self.back = QPushButton(self)
        self.run_button = QPushButton(self)
        self.run_button.setObjectName("bulkRun")
        options = QHBoxLayout()
        options.addWidget(self.export_plan)
        options.addStretch(1)
        options.addWidget(self.concurrency_label)
        options.addWidget(self.concurrency)
        buttons = QHBoxLayout()
        buttons.addWidget(self.back)
        buttons.addStretch(1)
        buttons.addWidget(self.typed)
        buttons.addWidget(self.run_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addLayout(options)
        layout.addLayout(buttons)

    def retranslateUi(self) -> None:
        """The page's own texts in the current language (the dialog calls it)."""
        self.export_plan.setText(QCoreApplication.translate("BulkDialog", "&Export the plan\u2026"))
        self.concurrency_label.setText(
            QCoreApplication.translate("BulkDialog", "&Requests at once:")
        )
        self.back.setText(QCoreApplication.translate("BulkDialog", "&Back"))
        self.table.setAccessibleName(QCoreApplication.translate("BulkDialog", "The plan"))
        self.table.setAccessibleDescription(
            QCoreApplication.translate(
                "BulkDialog", "Every target with what the change would do to it"
            )
        )


class RunPage(QWidget):
    """Page 3: the run's progress and result, over the plan's model."""

    def __init__(self, parent: QWidget, plan_model: PlanModel) -> None:
        super().__init__(parent)
        self.plan_model = plan_model
        self.progress = QProgressBar(self)
        self.progress.setObjectName("bulkProgress")
        self.counts = PlainLabel(self)
        self.counts.setObjectName("bulkCounts")
        self.rate = PlainLabel(self)
        self.rate.setObjectName("bulkRate")
        self.pause_note = PlainLabel(self)
        self.pause_note.setObjectName("bulkPauseNote")
        self.pause_note.setWordWrap(True)
        self.result_table = QTableView(self)
        self.result_table.setModel(self.plan_model)
        self.result_table.verticalHeader().setVisible(False)
        self.result_table.horizontalHeader().setStretchLastSection(True)
        self.result_table.horizontalHeader().setDefaultSectionSize(115)
        self.result_table.horizontalHeader().resizeSection(0, 250)
        self.result_table.setWordWrap(False)
        self.result_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.result_actions = TableActions(self.result_table)
        self.result_actions.set_multi_select()
        self.pause_button = QPushButton(self)
        self.pause_button.setObjectName("bulkPause")
        self.cancel_button = QPushButton(self)
        self.cancel_button.setObjectName("bulkCancel")
        self.save_result = QPushButton(self)
        self.save_result.setObjectName("bulkSaveResult")
        self.done_button = QPushButton(self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.pause_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_result)
        buttons.addWidget(self.done_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.progress)
        layout.addWidget(self.counts)
        layout.addWidget(self.rate)
        layout.addWidget(self.pause_note)
        layout.addWidget(self.result_table, 1)
        layout.addLayout(buttons)

    def retranslateUi(self) -> None:
        """The page's own texts in the current language (the dialog calls it)."""
        self.result_table.setAccessibleName(
            QCoreApplication.translate("BulkDialog", "Targets and their results")
        )
        self.cancel_button.setText(QCoreApplication.translate("BulkDialog", "&Cancel the job"))
        self.save_result.setText(QCoreApplication.translate("BulkDialog", "&Save the result\u2026"))
        self.done_button.setText(QCoreApplication.translate("BulkDialog", "Close"))
