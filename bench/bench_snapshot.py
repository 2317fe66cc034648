"""Access-review snapshots: every account of the sandbox, served over loopback, read into a
snapshot file by the program (``bench.drivers.snapshot``), as a time ratio against a bare
``httpx.AsyncClient`` fetching the same pages; and the program's peak memory when it also
takes the snapshot from its Snapshots panel, against its peak without it (the memory
benchmark's session: every panel visited), each side its own process (``bench.drivers.memory``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .common import served_sandbox
from .harness import Result, at_most, pick, run_json
from .sandbox_cache import fresh_copy


def run(quick: bool) -> list[Result]:
    accounts = pick(quick, 10_000, 100_000, 300)
    rounds = pick(quick, 3, 3, 1)
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-") as tmp:
        db = fresh_copy(accounts, Path(tmp) / "snapshot.sqlite3")
        with served_sandbox("--db", str(db), "--test-clock") as url:
            out = run_json("bench.drivers.snapshot", "--url", url, "--rounds", str(rounds))
        memory = Path(tmp) / "memory.sqlite3"
        without = run_json(
            "bench.drivers.memory", "app", "--db", str(fresh_copy(accounts, memory)),
            "--accounts", str(accounts),
        )  # fmt: skip
        with_snapshot = run_json(
            "bench.drivers.memory", "app", "--db", str(fresh_copy(accounts, memory)),
            "--accounts", str(accounts), "--snapshot",
        )  # fmt: skip
    n = out["accounts"]
    return [
        at_most(
            f"snapshot of {n:,} accounts over loopback: time (s)",
            out["program_median_s"],
            out["bare_median_s"],
            "s",
            1.3,
            f"{out['pages']} pages of 100 plus roles, invitations, security, channels and labels"
            f" into SQLite, two pages asked ahead; median of {len(out['program_s'])}; baseline:"
            " a bare httpx loop over the same pages, one at a time",
        ),
        at_most(
            f"snapshot of {n:,} accounts over loopback, same overlap: time (s)",
            out["program_median_s"],
            out["ahead_median_s"],
            "s",
            1.3,
            "baseline: bare httpx asking the same two pages ahead (the program's own cost)",
        ),
        at_most(
            f"snapshot of {n:,} accounts: peak RSS (MiB)",
            with_snapshot["peak_rss_kib"] / 1024,
            without["peak_rss_kib"] / 1024,
            "MiB",
            1.5,
            "the program with every panel visited, then a snapshot from the Snapshots"
            " panel; baseline: the same session without the snapshot",
        ),
    ]
