"""Red-team attack on every reader of the journal (``main`` and h/journal-undo alike):
``evidence/journal.py`` (``verify``, ``read``, the writer's tail), and the SIEM forwarder
(``evidence/forward/forwarder.py``). One line of the journal that is valid JSON nested a few
thousand deep makes ``json.loads`` raise ``RecursionError``, which every reader catches as
neither ``ValueError`` nor anything else.
"""

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
    """Attack: append the poison line. The next program's ``Journal`` reads the tail to chain
    its first record, ``json.loads`` raises ``RecursionError`` (not caught with ValueError),
    and the writer - which "never raises: a journal that cannot be written must not stop the
    work" - logs an error and drops the record: every change from then on is made and never
    journaled (nor forwarded, nor revertible). The audit trail is switched off by one line.
    Class of fix: the tail reader treats any line it cannot parse - RecursionError included,
    or a depth-bounded parser - as a broken record (a new segment), and appends go on."""
    path = _poisoned(tmp_path)
    journal = jr.Journal(path)
    journal.append({"kind": "change", "operation": "accounts.status", "targets": ["AFTER"]})
    journal.close()
    assert b'"AFTER"' in path.read_bytes(), "a change after the poison line was not journaled"


def test_a_nested_line_breaks_verify_with_a_traceback(tmp_path: Path) -> None:
    """Attack: the same line. ``journal.verify`` (the journal panel, ``evidence verify``,
    every revert's first step) and ``journal.read`` raise ``RecursionError`` instead of
    naming a damaged line. Class of fix: as above; the line is a "not-json" problem."""
    path = _poisoned(tmp_path)
    result = jr.verify(path)
    assert not result.ok and result.problems


def test_a_nested_line_stops_forwarding_for_good(tmp_path: Path) -> None:
    """Attack: the same line. The forwarder's ``_record`` catches ValueError only: every run
    ends in a RecursionError traceback at that line, the cursor never passes it, and
    nothing after it ever reaches the SIEM (whoever wants to blind the SIEM writes it first).
    Class of fix: the forwarder treats the line as not a record (skipped and reported, as
    any other damaged line), never a traceback."""
    from portal_admin.evidence.forward.destinations import Options, open_destination
    from portal_admin.evidence.forward.forwarder import Forwarder

    path = _poisoned(tmp_path)
    out = tmp_path / "out.jsonl"
    forwarder = Forwarder(
        path, open_destination(out.as_uri(), Options()), "json", cursors=tmp_path / "c"
    )
    forwarder.run()
    assert out.read_bytes().count(b"\n") >= 1
