"""File work leaves the GUI thread one way: ``ui/file_work.in_worker`` (or ``FileWork`` on it).

A new ``asyncio.to_thread`` or ``run_in_executor`` in ``ui/`` is a hop with its own error
handling beside the one that says failures in words; the few threads of another kind are
listed here with why.
"""

from __future__ import annotations

import ast
from pathlib import Path

import portal_admin.ui

UI = Path(portal_admin.ui.__file__).parent

#: (module, call) allowed, and why.
ALLOWED = {
    ("file_work.py", "to_thread"): "the one hop itself",
    ("panels/reviews/panel.py", "run_in_executor"): (
        "decisions are written by one thread of their own, in the order typed"
    ),
}


def hops() -> list[tuple[str, str, int]]:
    found = []
    for path in sorted(UI.rglob("*.py")):
        module = path.relative_to(UI).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("to_thread", "run_in_executor")
            ):
                found.append((module, node.func.attr, node.lineno))
    return found


def test_every_hop_to_a_worker_goes_through_file_work() -> None:
    stray = [h for h in hops() if (h[0], h[1]) not in ALLOWED]
    assert not stray, stray


def test_the_allowed_list_names_only_what_exists() -> None:
    assert {(m, c) for m, c, _line in hops()} == set(ALLOWED)
