"""Login history panel: paging to the end, filters, the chart's data and painting, export."""

from __future__ import annotations

import asyncio
import csv
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QDate, QModelIndex
from PySide6.QtWidgets import QApplication, QDialog

from portal_admin.client import PortalClient
from portal_admin.ui.lists.csv_export import export_csv
from portal_admin.ui.lists.export_dialog import ExportOptionsDialog
from portal_admin.ui.panels.security.chart_data import bucket_by_day
from portal_admin.ui.panels.security.history import (
    HistoryFilter,
    LoginHistoryPanel,
    chart_days,
    fetch_history,
)
from portal_admin.ui.theme.tones import tone_color

from ..panel_support import run, wait_for
from .support import show


async def _all_history(client: PortalClient) -> list[Any]:
    return [item async for item in client.security.iterate_login_history(size=100)]


def _panel(ctx: Any, qtbot: Any) -> LoginHistoryPanel:
    panel = LoginHistoryPanel(ctx)
    qtbot.addWidget(panel)
    return panel


async def _to_the_end(panel: LoginHistoryPanel) -> None:
    model = panel.model
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())
        await model.wait_idle()
    await model.wait_idle()


def test_history_pages_to_the_end(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Callable[..., Any],
    qtmodeltester: Any,
    qtbot: Any,
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    panel.model._page_size = 7  # several pages over the ~41 seeded sign-ins
    assert run(loop, panel.reload())
    qtmodeltester.check(panel.model)
    assert panel.model.rowCount() == 7
    run(loop, _to_the_end(panel))
    expected = run(loop, _all_history(admin))
    assert len(expected) > 20
    assert [r.biz_id for r in panel.model.rows] == [e.biz_id for e in expected]
    assert panel.model.total == len(expected)
    results = {panel.model.index(r, 1).data() for r in range(panel.model.rowCount())}
    assert results == {"Successful", "Failed"}


def test_history_filters_by_result_and_dates(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    everything = run(loop, _all_history(admin))
    failed = [e for e in everything if e.login_result.code == "FAILURE"]
    assert 0 < len(failed) < len(everything)

    panel.result_combo.setCurrentIndex(2)  # Failed
    assert panel.filter == HistoryFilter(result=2)
    run(loop, panel.load())
    run(loop, _to_the_end(panel))
    assert [r.biz_id for r in panel.model.rows] == [e.biz_id for e in failed]
    assert sum(d.failure for d in panel.chart.days) == len(failed)
    assert sum(d.success for d in panel.chart.days) == 0

    panel.result_combo.setCurrentIndex(1)  # Successful
    run(loop, panel.load())
    run(loop, _to_the_end(panel))
    assert all(r.login_result and r.login_result.code == "SUCCESS" for r in panel.model.rows)
    assert panel.model.total == len(everything) - len(failed)

    # a date range: the last three local days
    panel.result_combo.setCurrentIndex(0)
    last = max(e.login_time for e in everything).astimezone().date()
    start = last - timedelta(days=2)
    panel.from_edit.setDate(QDate(start.year, start.month, start.day))
    panel.to_edit.setDate(QDate(last.year, last.month, last.day))
    panel.from_check.setChecked(True)
    panel.to_check.setChecked(True)
    assert panel.filter == HistoryFilter(None, start, last)
    run(loop, panel.load())
    run(loop, _to_the_end(panel))
    inside = [e for e in everything if start <= e.login_time.astimezone().date() <= last]
    assert 0 < len(inside) < len(everything)
    assert [r.biz_id for r in panel.model.rows] == [e.biz_id for e in inside]
    assert panel.chart.days[0].day >= start


def test_history_sorts_on_the_server(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    panel.model.sort(2)  # client IP ascending
    run(loop, panel.model.wait_idle())
    run(loop, _to_the_end(panel))
    ips = [r.client_ip or "" for r in panel.model.rows]
    assert ips == sorted(ips) and len(set(ips)) > 1


def test_chart_series_match_the_history(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, show(panel))
    run(loop, panel.reload())
    everything = run(loop, _all_history(admin))
    expected = bucket_by_day((e.login_time, e.login_result) for e in everything)
    assert list(panel.chart.days) == expected
    assert panel.chart.totals == (
        sum(e.login_result.code == "SUCCESS" for e in everything),
        sum(e.login_result.code != "SUCCESS" for e in everything),
    )
    assert (panel.chart_read, panel.chart_total) == (len(everything), len(everything))
    assert "successful" in panel.chart.accessibleDescription()
    image = panel.chart.grab().toImage()
    assert not image.isNull() and image.width() > 100
    colors = {
        image.pixelColor(x, y).name()
        for x in range(0, image.width(), 3)
        for y in range(0, image.height(), 3)
    }
    palette = panel.chart.palette()
    both = {tone_color(t, palette).name() for t in ("success", "error")}
    assert both <= colors  # both series drawn, in the theme's colours
    # the tooltip names the day under the pointer
    area, day = panel.chart._bars[-1]
    assert panel.chart.day_at(area.center().toPoint()) == day


def test_chart_caps_what_it_reads(loop: qasync.QEventLoop, admin: PortalClient) -> None:
    days, read, total = run(loop, chart_days(admin, HistoryFilter(), cap=10))
    assert read == 10 and total > 10
    assert sum(d.total for d in days) == 10


def test_history_export_writes_every_row(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Callable[..., Any],
    qtbot: Any,
    tmp_path: Path,
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    panel.result_combo.setCurrentIndex(2)
    run(loop, panel.reload())
    view = panel.list_view
    visible = [c for i, c in enumerate(panel.model.columns) if not view.table.isColumnHidden(i)]
    target = tmp_path / "history.csv"
    rows = run(loop, export_csv(target, visible, panel.model.query(), page_size=5))
    failed = [e for e in run(loop, _all_history(admin)) if e.login_result.code == "FAILURE"]
    assert rows == len(failed)
    with target.open(encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    assert table[0] == ["Time", "Result", "Client IP", "Device", "Failure reason"]
    assert len(table) == len(failed) + 1
    assert {row[1] for row in table[1:]} == {"Failed"}
    assert [row[2] for row in table[1:]] == [e.client_ip for e in failed]
    assert {row[4] for row in table[1:]} <= {"INVALID_CREDENTIALS", "MFA_CODE_INVALID"}


def test_export_button_opens_the_shared_export(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Callable[..., Any],
    qtbot: Any,
    tmp_path: Path,
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())

    async def flow() -> Path | None:
        task = asyncio.ensure_future(panel.list_view.export())
        dialog = await wait_for(
            lambda: next(
                (
                    w
                    for w in QApplication.topLevelWidgets()
                    if isinstance(w, ExportOptionsDialog) and w.isVisible()
                ),
                None,
            )
        )
        dialog.path_edit.setText(str(tmp_path / "all.csv"))
        dialog.done(QDialog.DialogCode.Accepted)
        written: Path | None = await task
        return written

    path = run(loop, flow())
    assert path == tmp_path / "all.csv"
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    assert len(lines) == len(run(loop, _all_history(admin))) + 1


def test_fetch_history_refuses_bad_parameters(loop: qasync.QEventLoop, admin: PortalClient) -> None:
    from portal_admin.client import ValidationError

    with pytest.raises(ValidationError) as caught:
        run(loop, fetch_history(admin, HistoryFilter(), 0, 10, [("userAgent", "asc")]))
    assert caught.value.code == "VALIDATION.INVALID_PARAMETER"


def test_history_failure_is_shown_with_its_code(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, admin.auth.logout())
    run(loop, panel.reload())
    view = panel.list_view
    assert panel.model.error is not None
    assert "ACCESS.TOKEN_MISSING" in view.overlay.label.text()
    assert panel.error_line.info is not None
    assert panel.error_line.info.code == "ACCESS.TOKEN_MISSING"
