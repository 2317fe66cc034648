"""What anyone who can write the journal file can do without the installation's key: append
records chained correctly to its last one (the chain has no secret)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from portal_admin.evidence import journal as journal_file


def append_forged(path: Path, *records: dict[str, Any]) -> list[int]:
    """Append ``records`` (a change unless they name another ``kind``) after the journal's
    last record, each with the next seq and a valid chain; their seqs."""
    last = list(journal_file.read(path))[-1]
    prev, seq = str(last["hash"]), int(last["seq"])
    seqs: list[int] = []
    with path.open("ab") as fh:
        for record in records:
            seq += 1
            body = {
                "kind": "change",
                "time": journal_file.now_iso(),
                **record,
                "seq": seq,
                "segment": last.get("segment", 0),
                "format": journal_file.FORMAT,
            }
            digest = journal_file.chain_hash(prev, body)
            fh.write(journal_file.canonical({**body, "prev": prev, "hash": digest}) + b"\n")
            prev = digest
            seqs.append(seq)
    return seqs


def fork(path: Path, after_seq: int, forged: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Append a ``segment`` record naming a break after ``after_seq`` (chained from that
    record, as a real torn tail would be) and ``forged`` records after it, re-using seqs the
    journal already has; the forged records as written."""
    records = list(journal_file.read(path))
    prev = next(str(r["hash"]) for r in records if r["seq"] == after_seq)
    seq = after_seq + 1
    out: list[bytes] = []
    written: list[dict[str, Any]] = []
    body: dict[str, Any] = {
        "kind": "segment",
        "time": journal_file.now_iso(),
        "reason": "torn",
        "after_seq": after_seq,
        "seq": seq,
        "segment": 1,
        "format": journal_file.FORMAT,
    }
    digest = journal_file.chain_hash(prev, body)
    out.append(journal_file.canonical({**body, "prev": prev, "hash": digest}) + b"\n")
    prev = digest
    for record in forged:
        seq += 1
        body = {"time": journal_file.now_iso(), **record, "seq": seq, "segment": 1}
        body["format"] = journal_file.FORMAT
        digest = journal_file.chain_hash(prev, body)
        out.append(journal_file.canonical({**body, "prev": prev, "hash": digest}) + b"\n")
        written.append({**body, "prev": prev, "hash": digest})
        prev = digest
    with path.open("ab") as fh:
        fh.write(b"".join(out))
    return written
