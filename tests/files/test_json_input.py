"""The shared reader for JSON from files we do not fully trust (``files/json_input.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin.files import json_input


def test_a_deeply_nested_document_is_a_named_refusal() -> None:
    """5,000 levels (10 kB) made ``json.loads`` raise RecursionError: now a JsonInputError,
    a ValueError, so every reader's ``except ValueError`` names it."""
    deep = b"[" * 5000 + b"]" * 5000
    with pytest.raises(json_input.JsonInputError, match="nested deeper"):
        json_input.loads(deep)
    with pytest.raises(ValueError):
        json_input.loads(deep.decode())


def test_the_depth_limit_is_exact_and_strings_do_not_count() -> None:
    limit = json_input.MAX_DEPTH
    assert json_input.loads("[" * limit + "]" * limit) is not None
    with pytest.raises(json_input.JsonInputError):
        json_input.loads("[" * (limit + 1) + "]" * (limit + 1))
    text = '{"a": "' + "[{" * 500 + '\\"[["}'
    assert json_input.loads(text) == {"a": "[{" * 500 + '"[['}


def test_size_encoding_and_syntax_are_named() -> None:
    with pytest.raises(json_input.JsonInputError, match="larger"):
        json_input.loads(b"[1, 2, 3]", max_bytes=4)
    with pytest.raises(json_input.JsonInputError, match="UTF-8"):
        json_input.loads(b'"\xff"')
    with pytest.raises(json_input.JsonInputError, match="not JSON"):
        json_input.loads("{")


def test_read_bounds_what_it_reads(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"[" + b"1," * 100 + b"1]")
    assert len(json_input.read(path)) == 101
    with pytest.raises(json_input.JsonInputError, match="larger"):
        json_input.read(path, max_bytes=10)
