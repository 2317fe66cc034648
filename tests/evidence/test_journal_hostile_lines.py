"""One line of the journal that is valid JSON nested a few thousand deep (red-team finding:
``json.loads`` raised ``RecursionError``, which every reader let through). The line is now a
"not-json" problem for every reader (``files/json_input.py`` bounds the depth): the writer
starts a new segment after it and goes on appending, ``verify`` names it, ``read`` skips it.
The forwarder's side is in ``tests/siem/test_forwarder_hostile.py``."""

from __future__ import annotations

from pathlib import Path

from portal_admin.evidence import journal as jr

POISON = b"[" * 5000 + b"]" * 5000 + b"\n"  # 10 kB: inside the writer's 64 kB look at the tail


def _poisoned(tmp_path: Path) -> Path:
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path)
    journal.append({"kind": "change", "operation": "accounts.status", "targets": ["A"]})
    journal.close()
    with path.open("ab") as fh:
        fh.write(POISON)
    return path


def test_a_nested_line_silences_the_journal(tmp_path: Path) -> None:
    """Attack: append the poison line. The next program's ``Journal`` read the tail to chain
    its first record, ``json.loads`` raised ``RecursionError`` (not caught with ValueError),
    and the writer - which never raises - logged an error and dropped the record: every change
    from then on was made and never journaled. Now the line is a broken record: a new segment
    names it and the record after it chains correctly."""
    path = _poisoned(tmp_path)
    journal = jr.Journal(path)
    journal.append({"kind": "change", "operation": "accounts.status", "targets": ["AFTER"]})
    journal.append({"kind": "change", "operation": "accounts.status", "targets": ["AGAIN"]})
    journal.close()
    assert b'"AFTER"' in path.read_bytes(), "a change after the poison line was not journaled"
    result = jr.verify(path)
    assert [(p.line, p.reason) for p in result.problems] == [(2, "not-json")]
    assert [b.reason for b in result.breaks] == ["not-json"]
    assert [r["targets"] for r in jr.read(path) if r.get("kind") == "change"] == [
        ["A"],
        ["AFTER"],
        ["AGAIN"],
    ]


def test_a_nested_line_breaks_verify_with_a_traceback(tmp_path: Path) -> None:
    """Attack: the same line. ``journal.verify`` (the journal panel, ``evidence verify``,
    every revert's first step) and ``journal.read`` raised ``RecursionError`` instead of
    naming a damaged line. Now it is a "not-json" problem at its line."""
    path = _poisoned(tmp_path)
    result = jr.verify(path)
    assert not result.ok
    assert [(p.line, p.reason) for p in result.problems] == [(2, "not-json")]
    assert [r["targets"] for r in jr.read(path)] == [["A"]]
