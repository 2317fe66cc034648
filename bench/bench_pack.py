"""Evidence packs: verifying a pack of a snapshot's accounts (``evidence.pack.verify_pack``:
the signature, every member hashed as a stream, the trust check), as a time ratio against
reading and hashing the same members with ``zipfile`` streams and ``hashlib``; and the peak of
Python's allocations while verifying it, against the same for a pack a tenth its size (memory
must not grow with the pack). One subprocess, ``bench.drivers.pack``.
"""

from __future__ import annotations

from .harness import Result, at_most, pick, run_json
from .sandbox_cache import seeded


def run(quick: bool) -> list[Result]:
    accounts = pick(quick, 10_000, 100_000, 300)
    rounds = pick(quick, 5, 9, 1)
    out = run_json("bench.drivers.pack", "--db", str(seeded(accounts)), "--rounds", str(rounds))
    n = out["accounts"]
    mib = out["pack_bytes"] / (1 << 20)
    return [
        at_most(
            f"verify a pack of {n:,} accounts: time (s)",
            out["verify_s"],
            out["hash_s"],
            "s",
            1.5,
            f"a {mib:.1f} MiB pack ({out['members_bytes'] / (1 << 20):.1f} MiB of CSV and HTML);"
            f" median of {out['rounds']}; baseline: the same members read with zipfile streams"
            f" and hashed with hashlib, {out['chunk'] // 1024} KiB at a time",
        ),
        at_most(
            f"verify a pack of {n:,} accounts: peak memory (MiB)",
            out["peak_large_mib"],
            out["peak_small_mib"],
            "MiB",
            1.5,
            "tracemalloc's peak while verifying; baseline: the same for a pack of a tenth of"
            f" the accounts ({out['small_pack_bytes'] / (1 << 20):.1f} MiB)",
        ),
    ]
