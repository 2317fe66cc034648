"""The Campaigns panel's review queue at 100,000 items: the event loop's lag while items are
decided from the keyboard, one key every 80 ms, against the 16 ms of a frame
(``bench.drivers.review_queue``)."""

from __future__ import annotations

from .harness import Result, pick, run_json, within


def run(quick: bool) -> list[Result]:
    accounts = pick(quick, 100_000, 100_000, 500)
    keys = pick(quick, 60, 200, 6)
    out = run_json("bench.drivers.review_queue", "--accounts", str(accounts), "--keys", str(keys))
    return [
        within(
            f"review queue: deciding from the keyboard in a {out['items']:,}-item queue,"
            " loop lag p99 (ms)",
            out["lag_p99_ms"],
            16.0,
            "ms",
            f"{out['keys']} keys at 80 ms (K, or R with a justification; half in the"
            f" undecided view), {out['recorded']} recorded; max {out['lag_max_ms']:.1f} ms"
            f" over {out['lag_ticks']} ticks",
        ),
    ]
