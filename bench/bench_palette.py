"""The command palette at scale: typing queries (an e-mail prefix, a name, an account id, a
miss) one key every 80 ms against the built-in sandbox seeded with 100,000 accounts, each
answered by the palette's account lookup; the event loop's lag while typing, against the
16 ms of a frame (``bench.drivers.palette``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .harness import Result, pick, run_json, within
from .sandbox_cache import fresh_copy


def run(quick: bool) -> list[Result]:
    accounts = pick(quick, 100_000, 100_000, 2_000)
    rounds = pick(quick, 2, 5, 1)
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-") as tmp:
        db = fresh_copy(accounts, Path(tmp) / "palette.sqlite3")
        out = run_json(
            "bench.drivers.palette",
            "--db", str(db),
            "--accounts", str(accounts),
            "--rounds", str(rounds),
        )  # fmt: skip
    return [
        within(
            f"palette: typing against {accounts // 1000}k accounts, loop lag p99 (ms)",
            out["lag_p99_ms"],
            16.0,
            "ms",
            f"{out['queries']} queries, {out['keys']} keys at 80 ms; max "
            f"{out['lag_max_ms']:.1f} ms over {out['lag_ticks']} ticks; lookup answered "
            f"{out['answer_median_s'] * 1000:.0f} ms after the last key (median, the 300 ms "
            "typing pause included)",
        ),
    ]
