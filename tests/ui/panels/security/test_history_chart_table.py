"""The sign-in chart's textual equivalent: its accessible name and summary, and "Show as table",
a table of the same numbers (day, successful, failed, total) reached with the keyboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import qasync
from PySide6.QtCore import QDate, QLocale, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.ui.panels.security.chart_data import DayCount
from portal_admin.ui.panels.security.chart_table import DayCountModel
from portal_admin.ui.panels.security.history import LoginHistoryPanel

from ..panel_support import run
from .support import show


def test_the_chart_shows_as_a_table_of_the_same_numbers(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Callable[..., Any],
    qtbot: QtBot,
    qtmodeltester: Any,
) -> None:
    panel = LoginHistoryPanel(panel_context(admin))
    qtbot.addWidget(panel)
    run(loop, show(panel))
    run(loop, panel.reload())
    days = panel.chart.days
    assert len(days) >= 2 and sum(d.total for d in days) > 0
    # the chart itself: a name, and a description that sums it up
    assert panel.chart.accessibleName() == "Sign-ins per day"
    success, failure = panel.chart.totals
    assert f"{success} successful and {failure} failed" in panel.chart.accessibleDescription()

    # folded away until asked for; the button says what it does
    assert panel.chart.isVisible() and not panel.chart_table.isVisible()
    assert panel.chart_as_table.text() == "Show as table"
    assert panel.chart_as_table.focusPolicy() & Qt.FocusPolicy.TabFocus

    # with the keyboard only: focus the button, Space shows the table, Tab moves into it
    panel.activateWindow()
    qtbot.waitUntil(panel.isActiveWindow, timeout=2000)
    panel.chart_as_table.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(panel.chart_as_table, Qt.Key.Key_Space)
    assert panel.chart_table.isVisible() and not panel.chart.isVisible()
    assert panel.chart_as_table.text() == "Show as chart"
    qtbot.keyClick(panel.chart_as_table, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is panel.chart_table

    # the same numbers as the chart, one row per day, with column titles
    model = panel.chart_table.model()
    assert model is panel.chart_model
    qtmodeltester.check(model)
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert titles == ["Day", "Successful", "Failed", "Total"]
    assert model.rowCount() == len(days)
    locale = panel.chart.locale()
    for row, day in enumerate(days):
        texts = [model.index(row, c).data() for c in range(4)]
        assert texts[0] == panel.chart.day_label(day)
        assert texts[1:] == [locale.toString(n) for n in (day.success, day.failure, day.total)]
        assert model.index(row, 3).data(Qt.ItemDataRole.UserRole) == day.total

    # a screen reader announces the table by name and its columns by their titles
    table = QAccessible.queryAccessibleInterface(panel.chart_table)
    assert table is not None
    assert table.text(QAccessible.Text.Name) == "Sign-ins per day, as a table"
    children = [table.child(i) for i in range(table.childCount())]
    headers = [c for c in children if c.role() == QAccessible.Role.ColumnHeader]
    assert [h.text(QAccessible.Text.Name) for h in headers] == titles

    # Space again: back to the chart
    panel.chart_as_table.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(panel.chart_as_table, Qt.Key.Key_Space)
    assert panel.chart.isVisible() and not panel.chart_table.isVisible()


def test_day_count_model_follows_the_locale(qtmodeltester: Any) -> None:
    from datetime import date

    model = DayCountModel()
    model.set_days([DayCount(date(2026, 3, 1), 1200, 3), DayCount(date(2026, 3, 2))])
    qtmodeltester.check(model)
    german = QLocale(QLocale.Language.German, QLocale.Country.Germany)
    model.set_locale(german)
    assert model.index(0, 1).data() == "1.200"
    assert model.index(0, 3).data() == "1.203"
    assert model.index(1, 0).data() == german.toString(
        QDate(2026, 3, 2), QLocale.FormatType.ShortFormat
    )
    assert model.index(1, 2).data() == "0"
