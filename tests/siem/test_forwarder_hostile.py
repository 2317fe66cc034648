"""A journal line nested a few thousand deep does not stop forwarding (red-team finding)."""

from __future__ import annotations

import json
from pathlib import Path

from portal_admin.evidence import journal as jr
from portal_admin.evidence.forward.destinations import Options, open_destination
from portal_admin.evidence.forward.forwarder import Forwarder

POISON = b"[" * 5000 + b"]" * 5000 + b"\n"


def test_a_nested_line_stops_forwarding_for_good(tmp_path: Path) -> None:
    """Attack: append the poison line. The forwarder's ``_record`` caught ValueError only:
    every run ended in a RecursionError traceback at that line, the cursor never passed it,
    and nothing after it ever reached the SIEM. Now the line is not a record (skipped as any
    other damaged line) and the records before and after it are sent."""
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path)
    journal.append({"kind": "change", "operation": "accounts.status", "targets": ["A"]})
    journal.close()
    with path.open("ab") as fh:
        fh.write(POISON)
    journal = jr.Journal(path)
    journal.append({"kind": "change", "operation": "accounts.status", "targets": ["AFTER"]})
    journal.close()
    out = tmp_path / "out.jsonl"
    forwarder = Forwarder(
        path, open_destination(out.as_uri(), Options()), "json", cursors=tmp_path / "c"
    )
    forwarder.run()
    sent = out.read_text(encoding="utf-8")
    assert '"A"' in sent and '"AFTER"' in sent
    assert all(isinstance(json.loads(line), dict) for line in sent.splitlines())
