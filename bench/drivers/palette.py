"""Typing in the command palette against a sandbox of many accounts, in-process as the
built-in sandbox runs: the main window with the accounts panel, the palette open, queries typed
one key every ``--key-ms`` milliseconds (an e-mail prefix, a name, an account id), each
followed by its lookup's answer; a 1 ms precise timer measures the event loop's lag the whole
time. Prints one JSON object (``bench.bench_palette`` reads it)."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path
from typing import Any

from .browse import LagMeter, percentile
from .ui_session import panel_context, qt_loop, sandbox_transport, signed_in_client


async def type_query(palette: Any, text: str, key_s: float, timeout: float = 30.0) -> float:
    """Type ``text`` key by key; seconds from the last key to the lookup's answer shown."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    palette.search.clear()
    typed = time.perf_counter()
    for char in text:
        QTest.keyClick(palette.search, char)
        typed = time.perf_counter()
        await asyncio.sleep(key_s)
    deadline = typed + timeout
    while time.perf_counter() < deadline:
        task = palette._task  # the lookup under way (the pause timer starts it)
        if not palette.timer.isActive() and (task is None or task.done()):
            return time.perf_counter() - typed
        await asyncio.sleep(0.002)
    QTest.keyClick(palette.search, Qt.Key.Key_Escape)
    raise TimeoutError(f"no answer for {text!r}")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from portal_admin.ui.mainwindow.window import MainWindow
    from portal_admin.ui.panels import accounts as account_views
    from portal_admin.ui.panels.registry import PanelRegistry

    _app, transport = sandbox_transport(args.db, args.accounts)
    client = await signed_in_client(transport)
    try:
        context = panel_context(client)
        registry = PanelRegistry()
        account_views.register(registry)
        window = MainWindow(context.profile, context.runner, registry, context=context)
        window.resize(1366, 768)
        window.show()
        await asyncio.sleep(0.5)  # the accounts panel's first page
        me = await client.auth.profile()
        page = await client.accounts.query(page=0, size=1, sort=["accountName,asc"])
        name = (page.items[0].account_name or "maria").split()[0][:5]
        queries = ["admin@sandb", name, me.biz_id, "zz-no-such-account"] * args.rounds
        palette = window.open_palette()
        meter = LagMeter()
        meter.start()
        answers = [await type_query(palette, q, args.key_ms / 1000) for q in queries]
        lags = meter.stop()
        palette.reject()
        window.close()
    finally:
        await client.__aexit__(None, None, None)
    return {
        "queries": len(queries),
        "keys": sum(len(q) for q in queries),
        "answer_median_s": statistics.median(answers),
        "answer_max_s": max(answers),
        "lag_p99_ms": percentile(lags, 99),
        "lag_max_ms": max(lags, default=0.0),
        "lag_ticks": len(lags),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--key-ms", type=int, default=80)
    args = parser.parse_args()
    _qapp, loop = qt_loop()
    with loop:
        result = loop.run_until_complete(run(args))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
