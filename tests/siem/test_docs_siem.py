"""The first ``sh`` block of docs/siem.md runs as written, on a journal written here."""

from __future__ import annotations

import json
from pathlib import Path

from support.docs import first_sh_block, run_block

from .receivers import make_journal


def test_the_first_sh_block_runs(tmp_path: Path) -> None:
    block = first_sh_block("siem.md")
    assert "journal forward --once" in block and "journal rebuild" in block
    hashes = make_journal(tmp_path / "journal" / "journal.jsonl", 5, None)
    done = run_block(block, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    sent = [json.loads(line) for line in (tmp_path / "siem.jsonl").read_bytes().splitlines()]
    assert [s["event"]["hash"] for s in sent] == hashes
    assert "intact, 5 records" in done.stdout
    rows = (tmp_path / "changes.csv").read_text(encoding="utf-8-sig").splitlines()
    assert rows[0].startswith('"seq"') and len(rows) == 5  # the header and seqs 2 to 5
