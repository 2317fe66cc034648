"""Driver of the campaign-opening benchmark (a subprocess of ``bench.bench_reviews``).

Makes a campaign of ``--accounts`` accounts (a snapshot written directly, as
``drivers.reviews`` does), decides every item (one in ten Revoke), signs it off, then times,
alternately and as medians, opening the file and verifying its sign-off:

- measured: ``Campaign.open`` (the schema compared row by row with this program's,
  ``PRAGMA integrity_check``, hardened connections with a time budget) then
  ``signoff.verify`` (one read transaction, the history, the trust verdict);
- baseline: the opening of the version before (a read-only probe of ``meta`` and of
  ``sqlite_master``'s triggers and views, then the connection) and its verification (the item
  digests read with the queue's columns, each sign-off's signature, every digest compared),
  reproduced here as it was.

Prints one JSON line.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from portal_admin.evidence import keys
from portal_admin.reviews import Settings, create_campaign, reviewer_of, sign, verify
from portal_admin.reviews.campaign import Campaign

from ..harness import interleaved
from .reviews import write_snapshot

_OLD_DIGESTS = (
    "SELECT i.id, i.part, i.kind, i.ref, i.label, i.name, i.status, i.portal, i.institution,"
    " i.updated, i.detail, i.decision,"
    " (SELECT group_concat(code || '=' || reason, '|') FROM"
    "  (SELECT code, reason FROM flags WHERE flags.item = i.seq ORDER BY code)),"
    " d.decision, d.justification, d.reviewer, d.fingerprint, d.decided_at"
    " FROM items AS i LEFT JOIN decisions AS d ON d.seq ="
    " (SELECT max(seq) FROM decisions WHERE decisions.item = i.id) ORDER BY i.seq"
)


def _canonical(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def before(path: Path) -> int:
    """The previous version's open and verify (its work, step by step)."""
    probe = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        meta = {k: json.loads(v) for k, v in probe.execute("SELECT key, value FROM meta")}
        {r[0] for r in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        probe.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view')"
        ).fetchall()
    finally:
        probe.close()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("PRAGMA trusted_schema=OFF")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        meta = {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        rows = conn.execute(
            "SELECT seq, part, reviewer, fingerprint, public_key, signed_at, items, signature"
            " FROM signoffs ORDER BY seq"
        ).fetchall()
        now = {}
        for row in conn.execute(_OLD_DIGESTS):
            values = list(row)
            values.pop(1)
            now[row[0]] = (row[1], hashlib.sha256(_canonical(values)).hexdigest())
        changed = 0
        for row in rows:
            lines = conn.execute(
                "SELECT item, digest FROM signed_items WHERE signoff = ? ORDER BY item", (row[0],)
            ).fetchall()
            public = Ed25519PublicKey.from_public_bytes(base64.b64decode(row[4]))
            digest = hashlib.sha256()
            for item, item_digest in sorted(lines):
                digest.update(f"{item}\t{item_digest}\n".encode())
            payload = {
                "format": 1, "campaign": meta["id"], "part": row[1], "reviewer": row[2],
                "fingerprint": row[3], "signed_at": row[5], "items": len(lines),
                "digest": digest.hexdigest(),
            }  # fmt: skip
            try:
                public.verify(base64.b64decode(row[7]), _canonical(payload))
            except Exception:  # format 2 now: the work is the same
                changed += 1
            changed += sum(1 for item, d in lines if now.get(item, ("", ""))[1] != d)
        return changed
    finally:
        conn.close()


def after(path: Path, own: str) -> str:
    """This version's open and verify."""
    with Campaign.open(path) as campaign:
        return verify(campaign, own=own).status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    result: dict[str, Any] = {"accounts": args.accounts, "rounds": args.rounds}
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-review-open-") as tmp:
        folder = Path(tmp)
        scope = write_snapshot(folder / "scope.sqlite3", args.accounts, closing_state=False)
        path = folder / "c.review"
        store = keys.MemoryStore()
        reviewer = reviewer_of("bench@example.test", store)
        with create_campaign(path, scope, Settings("bench", "2026-12-31")) as campaign:
            conn = campaign.conn
            with campaign.transaction():  # the decisions of a finished review, set directly
                conn.execute(
                    "INSERT INTO decisions (item, decision, justification, reviewer, fingerprint,"
                    " decided_at, source) SELECT id, CASE WHEN seq % 10 = 0 THEN 'REVOKE'"
                    " ELSE 'KEEP' END, 'bench', ?, ?, '2026-11-21T00:00:00+00:00', 'bench'"
                    " FROM items ORDER BY seq",
                    (reviewer.name, reviewer.fingerprint),
                )
                conn.execute(
                    "UPDATE items SET decision_seq = (SELECT seq FROM decisions"
                    " WHERE item = items.id), decision = (SELECT decision FROM decisions"
                    " WHERE item = items.id)"
                )
            sign(campaign, reviewer.name, keys.signing_key(store))
            result["items"] = campaign.count()
        assert after(path, reviewer.fingerprint) == "intact"
        before(path)  # warm: the file in the page cache
        result["open_verify_s"], result["before_s"] = interleaved(
            lambda: after(path, reviewer.fingerprint), lambda: before(path), args.rounds
        )
        result["size_mb"] = round(path.stat().st_size / 1e6, 1)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
