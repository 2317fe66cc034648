"""The nested-JSON class across the files of the journal that others can write (red-team
finding): the trust file, the journal's checkpoints, a forwarding cursor. Each reader caught
``ValueError`` from ``json.loads``; a document nested 5,000 deep raised ``RecursionError``
instead, a traceback. They all parse through ``files/json_input.py`` now."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin.evidence import checkpoints, trust
from portal_admin.evidence.forward import cursor

DEEP = b"[" * 5000 + b"]" * 5000


def test_a_deeply_nested_trust_file_is_a_trust_error(tmp_path: Path) -> None:
    path = tmp_path / "trust.json"
    path.write_bytes(DEEP)
    with pytest.raises(trust.TrustError, match="nested deeper"):
        trust.TrustStore(path).keys()


def test_a_deeply_nested_checkpoint_line_is_counted_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "journal.checkpoints.jsonl"
    path.write_bytes(DEEP + b"\n")
    found = checkpoints.read(path)
    assert found.checkpoints == [] and found.unreadable == [1]
    assert checkpoints.lines(path) == []


def test_a_deeply_nested_cursor_is_a_cursor_error(tmp_path: Path) -> None:
    path = tmp_path / "x.cursor.json"
    path.write_bytes(DEEP)
    with pytest.raises(cursor.CursorError, match="not a forwarding cursor"):
        cursor.load(path)
