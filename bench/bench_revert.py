"""Undo (#30): planning the revert of a T-target status change (``jobs.plan_job_revert``: the
journal read and verified, every target read page by page) against planning the same status
change fresh (``jobs.create_job`` over every active account), in-process
(``bench.drivers.revert``)."""

from __future__ import annotations

from .harness import Result, at_most, pick, run_json


def run(quick: bool) -> list[Result]:
    accounts = pick(quick, 3_000, 14_500, 300)  # about 70 % of seeded accounts are active
    rounds = pick(quick, 5, 5, 1)
    out = run_json("bench.drivers.revert", "--accounts", str(accounts), "--rounds", str(rounds))
    n = out["targets"]
    return [
        at_most(
            f"plan the revert of a {n:,}-target status change: time (s)",
            out["revert_median_s"],
            out["fresh_median_s"],
            "s",
            1.5,
            f"journal of {out['records']:,} records read and verified, accounts read page by"
            f" page; median of {out['rounds']}, alternating; baseline: the same activation"
            " planned fresh as a bulk job",
        )
    ]
