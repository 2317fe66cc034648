"""Bulk changes: a status change of T accounts through the engine against the sandbox over
loopback (no write rate limit, so both sides are bound by the same server), as a throughput
ratio against a bare ``httpx.AsyncClient`` loop sending the same requests with the same
concurrency (4); and the event loop's lag while the job runs (``bench.drivers.bulk``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .common import served_sandbox
from .harness import Result, at_least, pick, run_json, within
from .sandbox_cache import fresh_copy


def run(quick: bool) -> list[Result]:
    targets = pick(quick, 3_000, 10_000, 200)
    accounts = pick(quick, 5_000, 15_000, 400)  # about 70 % of seeded accounts are active
    rounds = pick(quick, 2, 4, 2)
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-") as tmp:
        db = fresh_copy(accounts, Path(tmp) / "bulk.sqlite3")
        with served_sandbox("--db", str(db), "--test-clock", "--write-rate-limit", "0") as url:
            out = run_json(
                "bench.drivers.bulk",
                "--url", url,
                "--targets", str(targets),
                "--rounds", str(rounds),
            )  # fmt: skip
    n = out["targets"]
    engine_rate = n / out["engine_median_s"]
    bare_rate = n / out["bare_median_s"]
    return [
        at_least(
            f"bulk status change of {n:,} accounts: throughput (targets/s)",
            engine_rate,
            bare_rate,
            "/s",
            0.8,
            f"durable job file, concurrency 4; median of {len(out['engine_s'])} runs; "
            f"plan (dry run) {out['plan_median_s']:.2f} s; baseline: bare httpx loop",
        ),
        within(
            f"bulk status change of {n:,} accounts: loop lag p99 (ms)",
            out["lag_p99_ms"],
            16.0,
            "ms",
            f"max {out['lag_max_ms']:.1f} ms over {out['lag_ticks']} ticks of a 1 ms timer",
        ),
    ]
