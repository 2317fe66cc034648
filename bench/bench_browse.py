"""Browsing at scale: the sandbox seeded with 100,000 accounts, in-process as the built-in
sandbox runs. From sign-in to the first page of accounts shown in the real accounts panel (the
main window built and shown with it selected, until the table paints rows) against a minimal
PySide6 program showing the same page (that very request replayed raw, its records in a
``QTableView`` over a plain model in a main window, until painted), measured alternately in the
same run; the older baseline, one raw fetch of the page, stays as an informative row; then
scrolling the accounts table to row 10,000 while a 1 ms timer
measures the event loop's lag. Runs in a subprocess (``bench.drivers.browse``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .harness import Result, at_most, informative, pick, run_json, within
from .sandbox_cache import fresh_copy


def run(quick: bool) -> list[Result]:
    accounts = pick(quick, 100_000, 100_000, 2_000)
    builds = pick(quick, 3, 7, 1)
    target = pick(quick, 10_000, 10_000, 300)
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-") as tmp:
        db = fresh_copy(accounts, Path(tmp) / "browse.sqlite3")
        out = run_json(
            "bench.drivers.browse",
            "--db", str(db),
            "--accounts", str(accounts),
            "--builds", str(builds),
            "--scroll-to", str(target),
        )  # fmt: skip
    idle = f"idle loop: p99 {out['idle_lag_p99_ms']:.1f} ms, max {out['idle_lag_max_ms']:.1f} ms"
    scroll = f"{out['rows_loaded']:,} rows in {out['scroll_s']:.1f} s"
    first = f"{out['panel']}, window built and shown; median of {builds} (first "
    first += f"{out['first_page_s'][0] * 1000:.0f} ms)"
    return [
        at_most(
            f"browse {accounts // 1000}k: sign-in to first page shown (ms)",
            out["first_page_median_s"] * 1000,
            out["minimal_first_page_median_s"] * 1000,
            "ms",
            1.5,
            f"{first}; baseline: a QMainWindow with a QTableView over a plain model showing "
            f"the same {out['minimal_rows']} accounts from the same raw fetch, until painted",
        ),
        informative(
            f"browse {accounts // 1000}k: first page shown vs one raw fetch (ms)",
            out["first_page_median_s"] * 1000,
            out["raw_fetch_median_s"] * 1000,
            "ms",
            "the earlier baseline: that page's request replayed raw, JSON parsed, nothing drawn",
        ),
        at_most(
            f"browse {accounts // 1000}k: refresh to first page shown (ms)",
            out["refresh_median_s"] * 1000,
            out["raw_fetch_median_s"] * 1000,
            "ms",
            2.0,
            "panel already built: the model's reload (F5) until painted; baseline as above",
        ),
        within(
            f"browse {accounts // 1000}k: scroll to row {target:,}, lag p99 (ms)",
            out["lag_p99_ms"],
            16.0,
            "ms",
            f"{scroll}; {idle}",
        ),
        within(
            f"browse {accounts // 1000}k: scroll to row {target:,}, lag max (ms)",
            out["lag_max_ms"],
            50.0,
            "ms",
            f"{out['lag_ticks']} ticks of a 1 ms timer",
        ),
    ]
