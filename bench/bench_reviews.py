"""Access-review campaigns (``bench.drivers.reviews``, one subprocess, snapshot files written
directly): creating a campaign from a snapshot of N accounts against reading that snapshot's
accounts table; the closing check against the diff of the same two snapshots; and the
desktop's keyboard decision in the queue (one item, one transaction) against a frame's
budget; opening and verifying a signed-off campaign with the checks of a received file
(``bench.drivers.review_open``) against the previous version's open and verify.
"""

from __future__ import annotations

from .harness import Result, at_most, pick, run_json, within


def run(quick: bool) -> list[Result]:
    accounts = pick(quick, 10_000, 100_000, 300)
    rounds = pick(quick, 3, 5, 1)
    out = run_json("bench.drivers.reviews", "--accounts", str(accounts), "--rounds", str(rounds))
    n = out["accounts"]
    opened = run_json(
        "bench.drivers.review_open", "--accounts", str(accounts), "--rounds", str(rounds)
    )
    return [
        at_most(
            f"review campaign from a snapshot of {n:,} accounts: time (s)",
            out["create_s"],
            out["read_s"],
            "s",
            2.0,
            f"{out['items']:,} items with their flags and indexes, written beside the name,"
            f" fsynced and renamed; median of {out['rounds']}; baseline: SELECT * of the"
            " snapshot's accounts table into Python",
        ),
        at_most(
            f"review closing check at {n:,} accounts: time (s)",
            out["check_s"],
            out["diff_s"],
            "s",
            1.5,
            "every decision against the closing snapshot, in SQL, one transaction;"
            " baseline: evidence.diff.diff_snapshots of the same two snapshots",
        ),
        within(
            f"review decision of one item in a {out['items']:,}-item queue: time (ms)",
            out["decide_one_s"] * 1000,
            16.0,
            "ms",
            "reviews.decide: one transaction with synchronous=FULL (fsync); budget: one frame"
            f" of 16 ms; a page of 200 items took {out['decide_page_s'] * 1000:.1f} ms",
        ),
        at_most(
            f"review open and verify of a signed-off {opened['items']:,}-item campaign: time (s)",
            opened["open_verify_s"],
            opened["before_s"],
            "s",
            1.5,
            "Campaign.open (schema compared row by row, integrity_check, hardened connection)"
            " and signoff.verify (one read transaction, from the history, trust verdict);"
            " baseline: the previous version's open (meta and trigger/view probe) and verify;"
            f" median of {opened['rounds']}; {opened['size_mb']} MB file",
        ),
    ]
