"""Driver of the pack benchmark (a subprocess of ``bench.bench_pack``).

Builds two evidence packs of a snapshot's accounts read from a seeded sandbox database (the
snapshot's columns: id, email, name, status, portal, institution, language, time zone,
country, remark, created, updated; plus a small roles table): one of every account, one of a
tenth of them. Times ``evidence.pack.verify_pack`` of the large one (the signer's fingerprint
given as this installation's, an empty trust file) against reading and hashing the same
members with ``zipfile`` streams and ``hashlib.sha256`` (``pack.CHUNK`` at a time),
alternately. Then
the peak of Python's allocations (``tracemalloc``) while verifying each pack. Prints one
JSON line.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import tempfile
import tracemalloc
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from portal_admin.evidence import keys, pack
from portal_admin.evidence.trust import TrustStore

from ..harness import interleaved

HEADER = [
    "id", "email", "name", "status", "portal", "institution", "language", "timezone",
    "country", "remark", "created", "updated",
]  # fmt: skip


def accounts(db: Path) -> list[tuple[Any, ...]]:
    """Every account of a sandbox database, as a snapshot's rows (sorted by id)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT biz_id, email, name, status, portal, institution_biz_id, default_language,"
            " default_timezone, default_country, remark, created_at, updated_at"
            " FROM accounts ORDER BY biz_id"
        ).fetchall()
    finally:
        conn.close()

    def iso(ms: int) -> str:
        return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="seconds")

    return [(*r[:10], iso(r[10]), iso(r[11])) for r in rows]


def hash_members(path: Path) -> int:
    """The baseline: every member read with zipfile streams and hashed, as verify_pack reads."""
    total = 0
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            digest = hashlib.sha256()
            with zf.open(info) as fh:
                while chunk := fh.read(pack.CHUNK):
                    digest.update(chunk)
                    total += len(chunk)
    return total


def peak_mib(fn: Any) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / (1 << 20)
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rows = accounts(args.db)
    key = keys.signing_key(keys.MemoryStore())
    own = keys.fingerprint(key.public_key())
    roles = (["id", "name"], [("r1", "Administrators"), ("r2", "Auditors")])
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-pack-") as tmp:
        large, small = Path(tmp) / "large.zip", Path(tmp) / "small.zip"
        for path, some in ((large, rows), (small, rows[: len(rows) // 10])):
            tables = {"accounts": (HEADER, some), "roles": roles}
            pack.write_pack(path, "snapshot", tables, {"accounts rows": len(some)}, key)
        trust = TrustStore(Path(tmp) / "trusted_keys.json")

        def verify(path: Path) -> None:
            checked = pack.verify_pack(path, own=own, trust=trust)
            assert checked.status == "intact", checked

        verify(large)  # warm: the file in the page cache, the modules imported
        hashed = hash_members(large)
        verify_s, hash_s = interleaved(
            lambda: verify(large), lambda: hash_members(large), args.rounds
        )
        peak_small = peak_mib(lambda: verify(small))
        peak_large = peak_mib(lambda: verify(large))
        result = {
            "accounts": len(rows),
            "pack_bytes": large.stat().st_size,
            "small_pack_bytes": small.stat().st_size,
            "members_bytes": hashed,
            "verify_s": verify_s,
            "hash_s": hash_s,
            "peak_small_mib": peak_small,
            "peak_large_mib": peak_large,
            "rounds": args.rounds,
            "chunk": pack.CHUNK,
        }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
