"""Forwarding the journal to a SIEM: ``journal forward --once`` of N journal records in RFC
5424 over TLS to rsyslogd on loopback (the gtls driver, client certificates), as a time ratio
against writing the very same bytes over the same kind of TLS connection with the standard
library; and tracemalloc's peak while forwarding, against the same for a journal a tenth its
size (memory must not grow with the journal). One subprocess, ``bench.drivers.forward``.
Without rsyslogd (and rsyslog-gnutls) there is nothing to measure: no row, said on stderr.
"""

from __future__ import annotations

import sys

from .harness import Result, at_most, pick, run_json


def run(quick: bool) -> list[Result]:
    records = pick(quick, 10_000, 100_000, 500)
    rounds = pick(quick, 3, 5, 1)
    out = run_json("bench.drivers.forward", "--records", str(records), "--rounds", str(rounds))
    if "skipped" in out:
        print(f"  bench_forward: skipped: {out['skipped']}", file=sys.stderr)
        return []
    n = out["records"]
    mib = out["bytes"] / (1 << 20)
    return [
        at_most(
            f"forward {n:,} journal records over TLS: time (s)",
            out["forward_s"],
            out["plain_s"],
            "s",
            1.5,
            f"RFC 5424 to rsyslogd (gtls) on loopback, {mib:.1f} MiB of messages; median of"
            f" {out['rounds']}, alternating; baseline: the same bytes written with ssl over"
            " the same kind of connection, the same batches and end-of-stream confirmation",
        ),
        at_most(
            f"forward {n:,} journal records: peak memory (MiB)",
            out["peak_large_mib"],
            out["peak_small_mib"],
            "MiB",
            1.5,
            "tracemalloc's peak while forwarding; baseline: the same for a journal of a tenth"
            " of the records",
        ),
    ]
