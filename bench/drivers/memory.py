"""Memory driver: ``python -m bench.drivers.memory baseline`` or ``app --db PATH --accounts N``;
prints one JSON line with the peak RSS.

``baseline``: the minimal PySide6 program (one window shown, one loop turn). ``app``: the
in-process sandbox on the seeded database, signed in, the main window with every registered
panel, each selected in turn (with ``--only ID``, only those) and left to load (until the
client has had no request under way for a moment); with ``--snapshot``, then an access-review
snapshot of every account taken from the Snapshots panel; then the peak RSS of the process
(``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .ui_session import (
    InFlight,
    next_turn,
    panel_context,
    peak_rss_kib,
    qt_loop,
    rss_kib,
    sandbox_transport,
    signed_in_client,
)


async def baseline() -> dict[str, Any]:
    from PySide6.QtWidgets import QLabel

    label = QLabel("Hello")
    label.resize(400, 300)
    label.show()
    await next_turn()
    return {"peak_rss_kib": peak_rss_kib()}


async def app(
    db: Path, accounts: int, snapshot: bool = False, only: list[str] | None = None
) -> dict[str, Any]:
    from portal_admin.ui.mainwindow.window import MainWindow
    from portal_admin.ui.panels import register_all
    from portal_admin.ui.panels.registry import PanelRegistry

    steps = {"started": rss_kib()}
    _app, transport = sandbox_transport(db, accounts)
    steps["sandbox"] = rss_kib()
    client = await signed_in_client(transport)
    steps["signed in"] = rss_kib()
    context = panel_context(client)
    flight = InFlight(client)
    registry = register_all(PanelRegistry())
    window = MainWindow(context.profile, context.runner, registry, context=context)
    window.resize(1280, 800)
    window.show()
    await next_turn()
    steps["main window"] = rss_kib()
    visited = []
    settled = True
    for spec in registry:
        if only is not None and spec.id not in only:
            continue
        window.show_panel(spec.id)
        await next_turn()
        settled = await flight.settle() and settled
        visited.append(spec.id)
        steps[spec.id] = rss_kib()
    await next_turn()
    if snapshot:  # then an access-review snapshot of every account, from its panel
        panel: Any = window.show_panel("snapshots")
        taken = await panel.take()
        assert taken is not None, panel.message.text
        steps["snapshot"] = rss_kib()
        visited.append(f"snapshot of {taken.counts()['accounts']} accounts")
        taken.path.unlink()
    return {
        "peak_rss_kib": peak_rss_kib(),
        "panels": visited,
        "requests": flight.total,
        "settled": settled,
        "rss_kib_after": steps,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("baseline", "app"))
    parser.add_argument("--db", type=Path)
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--snapshot", action="store_true", help="then take a snapshot")
    parser.add_argument("--only", action="append", help="visit only this panel (repeatable)")
    args = parser.parse_args()
    _qapp, loop = qt_loop()
    with loop:
        if args.mode == "baseline":
            result = loop.run_until_complete(baseline())
        else:
            if args.db is None:
                sys.exit("--db is required")
            result = loop.run_until_complete(app(args.db, args.accounts, args.snapshot, args.only))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
