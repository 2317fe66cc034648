"""Browsing driver: ``python -m bench.drivers.browse --db PATH --accounts N [--builds K]
[--scroll-to ROW]``; prints one JSON line.

After sign-in (the in-process sandbox on a copy of a seeded database, as the built-in sandbox
runs), it times the main window being built and shown with the accounts panel selected until
the table has painted its first rows and the loop has turned once more; alternating with it,
the least a program must do to show that page (:func:`minimal_first_page`: the very request
the panel sent, replayed raw, its records in a plain model under a ``QTableView`` in a main
window, until painted the same way). Then that request replayed raw alone (``client.http``,
JSON parsed: the old, informative baseline), and the panel's own
refresh (F5: the model reloads its first page) until painted again. Then it scrolls the
accounts table down to row ``ROW`` (as a person holding the scroll bar at the bottom: one move
per 16 ms frame, each loading the next page) while a 1 ms precise timer records the gaps
between its ticks: the event loop's lag.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path
from typing import Any

from .ui_session import next_turn, panel_context, qt_loop, sandbox_transport, signed_in_client


def build_window(context: Any) -> tuple[Any, Any, str]:
    """The main window with every registered panel, the accounts panel selected; returns the
    window, the accounts table and which panel it is (fallback: a PagedList over the shared
    PagedTableModel, when no accounts panel is registered)."""
    from PySide6.QtWidgets import QTableView

    from portal_admin.ui.mainwindow.window import MainWindow
    from portal_admin.ui.panels import register_all
    from portal_admin.ui.panels.registry import PanelRegistry, PanelSpec

    registry = register_all(PanelRegistry())
    kind = "accounts panel"
    if registry.get("accounts") is None:
        registry.register(PanelSpec("accounts", "Accounts", fallback_panel, order=0))
        kind = "PagedList fallback"
    window = MainWindow(context.profile, context.runner, registry, context=context)
    window.resize(1280, 800)
    window.show()
    panel = window.show_panel("accounts")
    assert panel is not None, "the accounts panel was not built"
    tables = panel.findChildren(QTableView)
    assert tables, "the accounts panel has no table"
    return window, tables[0], kind


def fallback_panel(context: Any) -> Any:
    """The shared PagedList over PagedTableModel fed by client.accounts.query."""
    from portal_admin.ui.lists.paged_list import PagedList
    from portal_admin.ui.lists.paged_model import Column, PagedTableModel

    columns = [
        Column("email", "Email", lambda a: a.account_email, "accountEmail"),
        Column("name", "Name", lambda a: a.account_name, "accountName"),
        Column("status", "Status", lambda a: a.account_status.label),
        Column("created", "Created", lambda a: a.created_at, "createdAt"),
    ]

    async def fetch(number: int, size: int, sort: list[tuple[str, str]]) -> Any:
        return await context.client.accounts.query(
            page=number, size=size, sort=[f"{f},{d}" for f, d in sort] or None
        )

    model = PagedTableModel(columns, fetch)
    view = PagedList(model)
    model.refresh()
    return view


async def rows_painted(table: Any, timeout: float = 60.0) -> None:
    """Wait until the table's viewport paints with at least one row, then one loop turn."""
    from PySide6.QtCore import QEvent, QObject

    done = asyncio.get_running_loop().create_future()

    class Watch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if (
                event.type() == QEvent.Type.Paint
                and table.model().rowCount() > 0
                and not done.done()
            ):
                done.set_result(None)
            return False

    watch = Watch()
    table.viewport().installEventFilter(watch)
    try:
        await asyncio.wait_for(done, timeout)
    finally:
        table.viewport().removeEventFilter(watch)
    await next_turn()


def page_records(body: Any) -> list[dict[str, Any]]:
    """The records of a raw page body (the envelope's ``data``: items, content or accounts)."""
    data = body.get("data", body) if isinstance(body, dict) else body
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list)), [])
    return [row for row in data if isinstance(row, dict)] if isinstance(data, list) else []


async def minimal_first_page(client: Any, replay: dict[str, Any]) -> tuple[float, int]:
    """The baseline of the first page: a minimal PySide6 program fetches the page raw, puts its
    records' fields as text into a ``QStandardItemModel`` and shows a ``QMainWindow`` with a
    ``QTableView`` over it (1280x800) until its rows are painted and the loop turned once more.
    Returns the seconds it took and the rows shown; the window is closed afterwards."""
    from PySide6.QtGui import QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QMainWindow, QTableView

    start = time.perf_counter()
    response = await client.http.request(**replay)
    rows = page_records(response.json())
    keys = list(rows[0]) if rows else []
    model = QStandardItemModel(len(rows), len(keys))
    model.setHorizontalHeaderLabels(keys)
    for r, row in enumerate(rows):
        for c, key in enumerate(keys):
            model.setItem(r, c, QStandardItem(str(row[key])))
    window = QMainWindow()
    view = QTableView(window)
    view.setModel(model)
    window.setCentralWidget(view)
    window.resize(1280, 800)
    window.show()
    await rows_painted(view)
    elapsed = time.perf_counter() - start
    window.close()
    window.deleteLater()
    return elapsed, len(rows)


class LagMeter:
    """A 1 ms precise QTimer; the gaps between its ticks beyond 1 ms are the loop's lag."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)
        self.lags: list[float] = []
        self._last = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last:
            self.lags.append(max(0.0, now - self._last - 0.001) * 1000)
        self._last = now

    def start(self) -> None:
        self._last = 0.0
        self.timer.start()

    def stop(self) -> list[float]:
        self.timer.stop()
        return self.lags


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(-(-p * len(ordered) // 100)) - 1))]


async def scroll_to(table: Any, target: int, timeout: float = 600.0) -> tuple[float, int]:
    """Hold the scroll bar at the bottom until row ``target`` is loaded; show it."""
    model = table.model()
    start = time.perf_counter()
    bar = table.verticalScrollBar()
    while model.rowCount() <= target:
        if time.perf_counter() - start > timeout:
            raise TimeoutError(f"only {model.rowCount()} rows after {timeout} s")
        bar.setValue(bar.maximum())
        await asyncio.sleep(0.016)
    table.scrollTo(model.index(target, 0))
    await rows_painted(table)
    return time.perf_counter() - start, model.rowCount()


class Profiled:
    """pyinstrument around a phase, written to ``<dir>/<name>.txt`` (off when dir is None)."""

    def __init__(self, folder: Path | None, name: str) -> None:
        self.folder = folder
        self.name = name
        self.profiler: Any = None

    def start(self) -> None:
        if self.folder is not None and self.profiler is None:
            from pyinstrument import Profiler

            self.profiler = Profiler(interval=0.0005, async_mode="disabled")
            self.profiler.start()

    def stop(self) -> None:
        if self.profiler is None or self.folder is None:
            return
        self.profiler.stop()
        self.folder.mkdir(parents=True, exist_ok=True)
        text = self.profiler.output_text(unicode=False, color=False, show_all=False)
        (self.folder / f"{self.name}.txt").write_text(text)
        self.profiler = None


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from portal_admin.protocol.operations import OPERATIONS

    from .ui_session import peak_rss_kib

    _app, transport = sandbox_transport(args.db, args.accounts)
    client = await signed_in_client(transport)
    context = panel_context(client)
    sent: list[Any] = []
    query_path = OPERATIONS["accounts.query"].path

    async def record(request: Any) -> None:
        if request.url.path == query_path and not sent:
            sent.append(request)

    client.http.event_hooks["request"].append(record)
    first_page: list[float] = []
    minimal: list[float] = []
    minimal_rows = 0
    kind = ""
    profiler = Profiled(args.profile, "first-page")
    for i in range(args.builds):
        sent.clear()
        last = i == args.builds - 1
        if last:
            profiler.start()
        start = time.perf_counter()
        window, table, kind = build_window(context)
        await rows_painted(table)
        first_page.append(time.perf_counter() - start)
        if last:
            profiler.stop()
            # as the program does, once, when the main window is shown
            from portal_admin.ui.startup.collector import keep_out_of_full_collections

            keep_out_of_full_collections()
        request = sent[0]
        replay = {
            "method": request.method,
            "url": request.url.raw_path.decode("ascii"),
            "headers": dict(request.headers),
            "content": request.content,
        }
        if not last:  # one window at a time, as the program has
            window.close()
            window.deleteLater()
        await asyncio.sleep(0.05)
        seconds, minimal_rows = await minimal_first_page(client, replay)
        minimal.append(seconds)
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)
    raw: list[float] = []
    for _ in range(max(5, args.builds * 3)):
        start = time.perf_counter()
        response = await client.http.request(**replay)
        response.json()
        raw.append(time.perf_counter() - start)

    refresh: list[float] = []
    profiler = Profiled(args.profile, "refresh")
    profiler.start()
    for _ in range(max(3, args.builds)):
        start = time.perf_counter()
        table.model().refresh()
        await rows_painted(table)
        refresh.append(time.perf_counter() - start)
    profiler.stop()
    await asyncio.sleep(0.2)

    idle = LagMeter()
    idle.start()
    await asyncio.sleep(0.5)
    idle_lags = idle.stop()

    meter = LagMeter()
    profiler = Profiled(args.profile, "scroll")
    profiler.start()
    meter.start()
    scroll_seconds, rows = await scroll_to(table, args.scroll_to)
    lags = meter.stop()
    profiler.stop()
    await client.aclose()
    return {
        "panel": kind,
        "request": request.content.decode(errors="replace"),
        "first_page_s": first_page,
        "first_page_median_s": statistics.median(first_page),
        "minimal_first_page_s": minimal,
        "minimal_first_page_median_s": statistics.median(minimal),
        "minimal_rows": minimal_rows,
        "raw_fetch_median_s": statistics.median(raw),
        "refresh_median_s": statistics.median(refresh),
        "scroll_s": scroll_seconds,
        "rows_loaded": rows,
        "lag_p99_ms": percentile(lags, 99),
        "lag_max_ms": max(lags, default=0.0),
        "lag_ticks": len(lags),
        "idle_lag_p99_ms": percentile(idle_lags, 99),
        "idle_lag_max_ms": max(idle_lags, default=0.0),
        "peak_rss_kib": peak_rss_kib(),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--accounts", type=int, required=True)
    parser.add_argument("--builds", type=int, default=3)
    parser.add_argument("--scroll-to", type=int, default=10_000)
    parser.add_argument("--profile", type=Path, help="write pyinstrument profiles here")
    args = parser.parse_args()
    _qapp, loop = qt_loop()
    with loop:
        result = loop.run_until_complete(run(args))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
