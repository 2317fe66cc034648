"""Deciding from the keyboard in the Campaigns panel's queue (a subprocess of
``bench.bench_review_queue``): a campaign of ``--accounts`` accounts made from a snapshot
written directly, the panel shown signed out, then ``--keys`` decisions typed one key every
``--key-ms`` milliseconds (K on an unflagged item; R with a justification typed first), each
recorded (one fsynced transaction) and followed by the move to the next undecided, with the
queue filtered to the undecided items half of the time; a 1 ms precise timer measures the
event loop's lag the whole time. Prints one JSON object."""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from .browse import LagMeter, percentile
from .reviews import write_snapshot
from .ui_session import qt_loop


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from portal_admin.evidence import keys
    from portal_admin.reviews import Settings, create_campaign
    from portal_admin.ui.operations import OperationRunner
    from portal_admin.ui.panels.registry import PanelContext
    from portal_admin.ui.panels.reviews.panel import CampaignsPanel
    from portal_admin.ui.profiles.store import sandbox_profile

    scope = write_snapshot(folder / "scope.sqlite3", args.accounts, closing_state=False)
    path = folder / "bench.review"
    create_campaign(path, scope, Settings("bench", "2026-12-31")).close()
    context = PanelContext(OperationRunner(), sandbox_profile(), None, {})
    panel = CampaignsPanel(context, folder=folder, key_store=keys.MemoryStore())
    panel.resize(1366, 768)
    panel.show()
    await panel.open_file(path)
    await panel.load_identity()  # the key read once, before the typing
    items = panel.model.rowCount()
    meter = LagMeter()
    meter.start()
    decided = 0
    started = time.perf_counter()
    for n in range(args.keys):
        if n == args.keys // 2:  # the second half in the undecided view
            panel.show_filter.setCurrentIndex(panel.show_filter.findData("UNDECIDED"))
            panel.apply_filters()
            await asyncio.sleep(args.key_ms / 1000)
        item = panel.model.item(panel.table.currentIndex().row())
        panel.table.setFocus()
        if item is not None and (item.flag_count or n % 10 == 0):
            panel.justification.setText("left the company")
            QTest.keyClick(panel.table, Qt.Key.Key_R)
        else:
            QTest.keyClick(panel.table, Qt.Key.Key_K)
        await panel.wait_idle()
        decided += 1
        await asyncio.sleep(args.key_ms / 1000)
    elapsed = time.perf_counter() - started
    await asyncio.sleep(0.3)  # the progress counts after the last key
    lags = meter.stop()
    stats = panel.stats
    panel.close()
    return {
        "items": items,
        "keys": decided,
        "recorded": stats.decided,
        "seconds": elapsed,
        "lag_p99_ms": percentile(lags, 99),
        "lag_max_ms": max(lags, default=0.0),
        "lag_ticks": len(lags),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--keys", type=int, default=100)
    parser.add_argument("--key-ms", type=int, default=80)
    args = parser.parse_args()
    _qapp, loop = qt_loop()
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-queue-") as tmp, loop:
        result = loop.run_until_complete(run(args, Path(tmp)))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
