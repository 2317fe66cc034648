"""Red-team: the nested-JSON class across every file the program reads that others can write
(``main`` and every branch). The trust file, the journal's checkpoints and a forwarding cursor
are fixed (``tests/evidence/test_nested_json.py``); what is left: the command line's kept
session (h/keys-everywhere, not on main yet). Each reader catches ``ValueError`` from
``json.loads``; a document nested a few thousand deep raises ``RecursionError`` instead,
which escapes as a traceback (the campaign meta and the journal itself: see
``tests/reviews/test_hostile_campaign_files.py`` and ``test_journal_poison_line.py``).

Class of fix: one JSON reader for hostile files (``files/``) that bounds the depth or
catches RecursionError with ValueError, used by every one of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

DEEP = b"[" * 5000 + b"]" * 5000


def _session(path: Path) -> Any:
    session_file = pytest.importorskip("portal_admin.cli.session_file")
    path.write_bytes(b'{"sessions":' + DEEP + b"}")
    return asyncio.run(session_file.SessionFileStore(path, keep=False).load("p", "a"))


@pytest.mark.parametrize(
    ("name", "read"),
    [
        ("cli-session.json", _session),
    ],
)
def test_a_deeply_nested_file_is_a_named_refusal_not_a_traceback(
    tmp_path: Path, name: str, read: Callable[[Path], Any]
) -> None:
    """Attack: the file holds valid JSON nested 5,000 deep (10 kB). Expected: the reader's
    own named error (TrustError, CursorError, a checkpoint line counted unreadable, a session
    file not used); found: ``RecursionError`` out of ``json.loads``."""
    try:
        read(tmp_path / name)
    except RecursionError:
        pytest.fail(f"{name}: RecursionError escaped (a traceback, not a named refusal)")
    except Exception:
        pass
