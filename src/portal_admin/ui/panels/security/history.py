"""Login history: the paged list with filters, a chart of sign-ins per day, CSV export."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import partial
from typing import Any

from PySide6.QtCore import QCoreApplication, QDate
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from portal_admin.client.records import LoginHistoryItem
from portal_admin.protocol.pages import MAX_PAGE_SIZE, Page
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.lists.paged_list import PagedList
from portal_admin.ui.lists.paged_model import Column, PagedTableModel, SortSpec
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import TourStep
from portal_admin.ui.widgets.plain import PlainLabel

from .chart import SignInChart
from .chart_data import CHART_ITEM_CAP, DayCount, bucket_by_day
from .chart_table import DayCountModel
from .common import SecurityPanel
from .formatting import login_result_label, shorten_user_agent

log = logging.getLogger(__name__)

_CONTEXT = "LoginHistoryPanel"

#: Result filter choices: (key, server value, source text).
RESULTS = (
    ("all", None, QT_TRANSLATE_NOOP("LoginHistoryPanel", "All results")),
    ("success", 1, QT_TRANSLATE_NOOP("LoginHistoryPanel", "Successful")),
    ("failure", 2, QT_TRANSLATE_NOOP("LoginHistoryPanel", "Failed")),
    ("blocked", 3, QT_TRANSLATE_NOOP("LoginHistoryPanel", "Blocked")),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate(_CONTEXT, text)


@dataclass(frozen=True, slots=True)
class HistoryFilter:
    """What the history shows: a login result and an inclusive range of local days."""

    result: int | None = None
    start: date | None = None
    end: date | None = None

    def query(self) -> dict[str, Any]:
        """The filters as keyword arguments of ``client.security.login_history``."""
        query: dict[str, Any] = {"result": self.result}
        if self.start is not None:
            query["date_from"] = datetime.combine(self.start, time.min).astimezone()
        if self.end is not None:
            end = datetime.combine(self.end + timedelta(days=1), time.min).astimezone()
            query["date_to"] = end - timedelta(milliseconds=1)
        return query


async def fetch_history(
    client: Any, flt: HistoryFilter, number: int, size: int, sort: SortSpec
) -> Page[LoginHistoryItem]:
    """One page (zero-based) of the history under ``flt`` and ``sort``."""
    page: Page[LoginHistoryItem] = await client.security.login_history(
        page=number, size=size, sort=sort, **flt.query()
    )
    return page


async def chart_days(
    client: Any, flt: HistoryFilter, cap: int = CHART_ITEM_CAP
) -> tuple[list[DayCount], int, int]:
    """Sign-ins per day under ``flt`` from at most ``cap`` of the latest items.

    Returns (days, items read, total on the server).
    """
    events: list[tuple[datetime | None, object]] = []
    number, total = 0, 0
    while len(events) < cap:
        size = min(MAX_PAGE_SIZE, cap - len(events))
        page = await fetch_history(client, flt, number, size, [])
        total = page.total_items
        events.extend((item.login_time, item.login_result) for item in page.items)
        if not page.has_next or not page.items:
            break
        number += 1
    return bucket_by_day(events), len(events), total


def _result_code(item: LoginHistoryItem) -> object:
    return item.login_result


COLUMNS: tuple[Column[LoginHistoryItem], ...] = (
    Column(
        "time",
        QT_TRANSLATE_NOOP("LoginHistoryPanel", "Time"),
        lambda r: r.login_time,
        sort_field="loginTime",
        context=_CONTEXT,
        format=lambda v: format_datetime(v) if isinstance(v, datetime) else "",
    ),
    Column(
        "result",
        QT_TRANSLATE_NOOP("LoginHistoryPanel", "Result"),
        _result_code,
        sort_field="loginResult",
        context=_CONTEXT,
        format=login_result_label,
    ),
    Column(
        "ip",
        QT_TRANSLATE_NOOP("LoginHistoryPanel", "Client IP"),
        lambda r: r.client_ip,
        sort_field="clientIp",
        context=_CONTEXT,
    ),
    Column(
        "device",
        QT_TRANSLATE_NOOP("LoginHistoryPanel", "Device"),
        lambda r: r.user_agent,
        context=_CONTEXT,
        format=lambda v: shorten_user_agent(v if isinstance(v, str) else None),
    ),
    Column(
        "reason",
        QT_TRANSLATE_NOOP("LoginHistoryPanel", "Failure reason"),
        lambda r: r.failure_reason,
        context=_CONTEXT,
    ),
    Column(
        "agent",
        QT_TRANSLATE_NOOP("LoginHistoryPanel", "User agent"),
        lambda r: r.user_agent,
        context=_CONTEXT,
        hidden=True,
    ),
    Column(
        "id",
        QT_TRANSLATE_NOOP("LoginHistoryPanel", "Id"),
        lambda r: r.biz_id,
        context=_CONTEXT,
        hidden=True,
    ),
)


class LoginHistoryPanel(SecurityPanel):
    """The sign-in history: filters, chart, list."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("loginHistoryPanel")
        self.filter = HistoryFilter()
        self.model: PagedTableModel[LoginHistoryItem] = PagedTableModel(
            COLUMNS, self._fetch_for(self.filter), page_size=50, parent=self
        )
        self.list_view = PagedList(
            self.model, id_column="id", export_name="login-history.csv", parent=self
        )
        self.list_view.setObjectName("loginHistoryList")

        bar = QWidget(self)
        self.result_label = PlainLabel(bar)
        self.result_combo = QComboBox(bar)
        self.result_combo.setObjectName("resultFilter")
        for key, _value, _text in RESULTS:
            self.result_combo.addItem("", key)
        self.result_label.setBuddy(self.result_combo)
        today = QDate.currentDate()
        self.from_check = QCheckBox(bar)
        self.from_edit = QDateEdit(today.addDays(-30), bar)
        self.to_check = QCheckBox(bar)
        self.to_edit = QDateEdit(today, bar)
        for edit in (self.from_edit, self.to_edit):
            edit.setCalendarPopup(True)
            edit.setEnabled(False)
        self.from_edit.setObjectName("fromDate")
        self.to_edit.setObjectName("toDate")
        self.from_check.setObjectName("fromDateOn")
        self.to_check.setObjectName("toDateOn")
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (
            self.result_label,
            self.result_combo,
            self.from_check,
            self.from_edit,
            self.to_check,
            self.to_edit,
        ):
            row.addWidget(widget)
        row.addStretch(1)
        self.list_view.set_filter_bar(bar)

        self.chart_box = QGroupBox(self)
        self.chart_box.setObjectName("chartBox")
        self.chart = SignInChart(self.chart_box)
        self.chart_note = PlainLabel(self.chart_box)
        self.chart_note.setObjectName("chartNote")
        # the chart's textual equivalent: the same numbers as a table, one row per day
        self.chart_model = DayCountModel(self)
        self.chart_table = QTableView(self.chart_box)
        self.chart_table.setObjectName("chartTable")
        self.chart_table.setModel(self.chart_model)
        self.chart_table.verticalHeader().setVisible(False)
        self.chart_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.chart_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.chart_table.setTabKeyNavigation(False)  # Tab leaves the table, arrows move in it
        self.chart_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.chart_table.setFixedHeight(self.chart.sizeHint().height())
        # Read only: the menu copies the chosen days (several at once).
        self.chart_actions = TableActions(self.chart_table)
        self.chart_actions.set_multi_select()
        self.chart_table.hide()
        self.chart_as_table = QPushButton(self.chart_box)
        self.chart_as_table.setObjectName("chartAsTable")
        self.chart_as_table.setCheckable(True)
        self.chart_as_table.toggled.connect(self.show_chart_as_table)
        box_layout = QVBoxLayout(self.chart_box)
        box_layout.addWidget(self.chart)
        box_layout.addWidget(self.chart_table)
        note_row = QHBoxLayout()
        note_row.addWidget(self.chart_note, 1)
        note_row.addWidget(self.chart_as_table)
        box_layout.addLayout(note_row)
        QWidget.setTabOrder(self.chart_as_table, self.chart_table)  # the button, then its table
        self.chart_read = 0
        self.chart_ready = False
        self.chart_total = 0
        self._chart_task: asyncio.Task[None] | None = None
        self._chart_generation = 0

        layout = QVBoxLayout(self)
        layout.addWidget(self.error_line)
        layout.addWidget(self.chart_box)
        layout.addWidget(self.list_view, 1)

        self.result_combo.currentIndexChanged.connect(self._filter_changed)
        self.from_check.toggled.connect(self.from_edit.setEnabled)
        self.to_check.toggled.connect(self.to_edit.setEnabled)
        for signal in (
            self.from_check.toggled,
            self.to_check.toggled,
            self.from_edit.dateChanged,
            self.to_edit.dateChanged,
        ):
            signal.connect(self._filter_changed)
        self.retranslateUi()

    def _fetch_for(self, flt: HistoryFilter) -> Any:
        return partial(fetch_history, self.client, flt)

    # -- filter --------------------------------------------------------------------------------

    def current_filter(self) -> HistoryFilter:
        """The filter the controls describe."""
        result = RESULTS[max(0, self.result_combo.currentIndex())][1]

        def day(check: QCheckBox, edit: QDateEdit) -> date | None:
            if not check.isChecked():
                return None
            qdate = edit.date()
            return date(qdate.year(), qdate.month(), qdate.day())

        return HistoryFilter(
            result, day(self.from_check, self.from_edit), day(self.to_check, self.to_edit)
        )

    def set_filter(self, flt: HistoryFilter) -> None:
        """Show the history under ``flt`` (list and chart)."""
        self.filter = flt
        self.model.set_fetch(self._fetch_for(flt))
        self.start_chart()

    def _filter_changed(self, *_args: object) -> None:
        flt = self.current_filter()
        if flt != self.filter:
            self.set_filter(flt)

    # -- loading -------------------------------------------------------------------------------

    async def load(self) -> None:
        """Load the first page and the chart of the current filter."""
        if not (self.model.loading and not self.loaded):
            self.model.refresh()  # (the view may have asked for the first page already)
        self.start_chart()
        await self.model.wait_idle()
        await self.wait_chart()

    def start_chart(self) -> None:
        """Recompute the chart for the current filter (an older computation is dropped)."""
        self._chart_generation += 1
        if self._chart_task is not None and not self._chart_task.done():
            self._chart_task.cancel()
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self._chart_task = None  # no loop yet: load() computes it
            return
        self._chart_task = self.spawn(self._load_chart(self._chart_generation, self.filter))

    async def wait_chart(self) -> None:
        """Wait until the chart of the current filter is computed."""
        while self._chart_task is not None and not self._chart_task.done():
            await asyncio.wait({self._chart_task})

    async def _load_chart(self, generation: int, flt: HistoryFilter) -> None:
        try:
            days, read, total = await chart_days(self.client, flt)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if generation == self._chart_generation:
                self.error_line.show_error(exc)
            return
        if generation != self._chart_generation:
            return
        self.chart.set_days(days)
        self.chart_model.set_days(days)
        self.chart_read, self.chart_total = read, total
        self.chart_ready = True
        self._show_chart_note()

    def show_chart_as_table(self, on: bool) -> None:
        """Show the chart's numbers as a table (``on``) or as the chart."""
        if self.chart_as_table.isChecked() != on:
            self.chart_as_table.setChecked(on)  # comes back here through toggled
            return
        self.chart_table.setVisible(on)
        self.chart.setVisible(not on)
        self._name_chart_toggle()

    def _name_chart_toggle(self) -> None:
        on = self.chart_as_table.isChecked()
        self.chart_as_table.setText(
            QCoreApplication.translate("LoginHistoryPanel", "Show as chart")
            if on
            else QCoreApplication.translate("LoginHistoryPanel", "Show as table")
        )
        self.chart_as_table.setAccessibleDescription(
            QCoreApplication.translate(
                "LoginHistoryPanel", "Switches between the chart and a table of its numbers"
            )
        )

    async def tour_steps(self) -> list[TourStep]:
        """The chart shown as a table, for ``--tour``."""
        return [TourStep("login-history-table", self._tour_table, self._tour_chart)]

    async def kiosk_tour_steps(self) -> list[TourStep]:
        """The same in kiosk mode (it changes nothing)."""
        return await self.tour_steps()

    async def _tour_table(self) -> QWidget:
        self.show_chart_as_table(True)
        self.chart_table.setFocus()
        return self

    async def _tour_chart(self, _widget: QWidget) -> None:
        self.show_chart_as_table(False)

    def _show_chart_note(self) -> None:
        if not self.chart_ready:
            self.chart_note.setText(
                QCoreApplication.translate("LoginHistoryPanel", "Loading the chart\u2026")
            )
            return
        if self.chart_read < self.chart_total:
            text = fill(
                QCoreApplication.translate(
                    "LoginHistoryPanel", "The chart shows the latest %1 of %2 sign-ins."
                ),
                self.locale().toString(self.chart_read),
                self.locale().toString(self.chart_total),
            )
        else:
            text = fill(
                QCoreApplication.translate(
                    "LoginHistoryPanel", "Based on all %1 sign-ins of this filter."
                ),
                self.locale().toString(self.chart_total),
            )
        self.chart_note.setText(text)

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.list_view.set_empty_texts(
            QCoreApplication.translate("LoginHistoryPanel", "No sign-ins recorded yet."),
            QCoreApplication.translate("LoginHistoryPanel", "No sign-ins match these filters."),
        )
        self.result_label.setText(QCoreApplication.translate("LoginHistoryPanel", "&Result:"))
        for i, (_key, _value, text) in enumerate(RESULTS):
            self.result_combo.setItemText(i, _tr(text))
        self.result_combo.setAccessibleName(
            QCoreApplication.translate("LoginHistoryPanel", "Login result")
        )
        self.from_check.setText(QCoreApplication.translate("LoginHistoryPanel", "From"))
        self.to_check.setText(QCoreApplication.translate("LoginHistoryPanel", "To"))
        self.from_edit.setAccessibleName(
            QCoreApplication.translate("LoginHistoryPanel", "From date")
        )
        self.to_edit.setAccessibleName(QCoreApplication.translate("LoginHistoryPanel", "To date"))
        self.chart_box.setTitle(QCoreApplication.translate("LoginHistoryPanel", "Sign-ins per day"))
        self.chart_box.setAccessibleName(
            QCoreApplication.translate("LoginHistoryPanel", "Sign-ins per day")
        )
        self.chart_note.setAccessibleName(
            QCoreApplication.translate("LoginHistoryPanel", "Chart note")
        )
        self.chart_table.setAccessibleName(
            QCoreApplication.translate("LoginHistoryPanel", "Sign-ins per day, as a table")
        )
        self.chart_model.set_locale(self.chart.locale())
        self._name_chart_toggle()
        self._show_chart_note()
        self.list_view.setAccessibleName(
            QCoreApplication.translate("LoginHistoryPanel", "Login history")
        )
