"""Memory: peak RSS after visiting every panel with 100,000 accounts in the (in-process)
sandbox, and of a session that shows only the accounts panel, against the minimal PySide6
program. Each side is its own process
(``bench.drivers.memory``), reading its own ``ru_maxrss`` at the end.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .harness import Result, at_most, informative, pick, run_json
from .sandbox_cache import fresh_copy


def run(quick: bool) -> list[Result]:
    accounts = pick(quick, 100_000, 100_000, 2_000)
    base = run_json("bench.drivers.memory", "baseline")
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-") as tmp:
        db = fresh_copy(accounts, Path(tmp) / "memory.sqlite3")
        app = run_json("bench.drivers.memory", "app", "--db", str(db), "--accounts", str(accounts))
        db = fresh_copy(accounts, Path(tmp) / "memory-accounts.sqlite3")
        only = run_json(
            "bench.drivers.memory", "app", "--db", str(db), "--accounts", str(accounts),
            "--only", "accounts",
        )  # fmt: skip
    panels = ", ".join(app["panels"])
    return [
        at_most(
            f"memory {accounts // 1000}k: peak RSS after every panel (MiB)",
            app["peak_rss_kib"] / 1024,
            base["peak_rss_kib"] / 1024,
            "MiB",
            2.5,
            f"{len(app['panels'])} panels ({panels}); {app['requests']} requests"
            + ("" if app["settled"] else "; some panel never settled"),
        ),
        informative(
            f"memory {accounts // 1000}k: peak RSS, accounts panel only (MiB)",
            only["peak_rss_kib"] / 1024,
            base["peak_rss_kib"] / 1024,
            "MiB",
            f"a session that shows only the accounts panel; {only['requests']} requests"
            + ("" if only["settled"] else "; it never settled"),
        ),
    ]
