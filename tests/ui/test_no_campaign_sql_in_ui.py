"""The desktop runs no SQL and reads no engine English (issue #38): the campaign's queries
are named functions of ``reviews/`` (typed results), and the Campaigns panel turns the
engine's codes into words. Checked on the syntax tree of every module under ``ui/``:
no ``sqlite3``, no campaign connection (``.conn``), no ``execute``/``executemany``/
``executescript`` of SQL text; in the Campaigns panel, no English of an error compared or
searched (``"..." in str(exc)``, ``str(exc) == ...``), no flag reason matched by a regular
expression."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import portal_admin.ui

UI = Path(portal_admin.ui.__file__).parent
CAMPAIGNS = UI / "panels" / "reviews"


def _trees(folder: Path) -> Iterator[tuple[Path, ast.AST]]:
    for path in sorted(folder.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _is_sql_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def sql_in(folder: Path) -> list[str]:
    """Where a module under ``folder`` touches SQLite or a campaign's connection."""
    found: list[str] = []
    for path, tree in _trees(folder):
        where = path.relative_to(folder.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if any(n.split(".")[0] == "sqlite3" for n in names):
                    found.append(f"{where}:{node.lineno}: imports sqlite3")
            elif isinstance(node, ast.Attribute) and node.attr == "conn":
                found.append(f"{where}:{node.lineno}: reads a connection (.conn)")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                name = node.func.attr
                if name in ("executemany", "executescript") or (
                    name == "execute" and node.args and _is_sql_text(node.args[0])
                ):
                    found.append(f"{where}:{node.lineno}: runs SQL ({name})")
    return found


def _is_str_of_error(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "str"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id in ("exc", "error", "err", "e")
    )


def _is_reason(node: ast.AST) -> bool:
    """A flag's reason (``flag.reason``, ``reason``): the engine's English."""
    return (isinstance(node, ast.Attribute) and node.attr == "reason") or (
        isinstance(node, ast.Name) and node.id == "reason"
    )


def english_read_in(folder: Path) -> list[str]:
    """Where a module under ``folder`` compares or searches an error's English, or matches
    an error's or a flag reason's English with a regular expression."""
    found: list[str] = []
    for path, tree in _trees(folder):
        where = path.relative_to(folder.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(
                _is_str_of_error(n) for n in [node.left, *node.comparators]
            ):
                found.append(f"{where}:{node.lineno}: compares an error's English")
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and any(_is_str_of_error(a) or _is_reason(a) for a in node.args)
            ):
                found.append(f"{where}:{node.lineno}: matches an engine sentence (re)")
    return found


def test_the_desktop_runs_no_sql() -> None:
    assert sql_in(UI) == []


def test_the_campaigns_panel_reads_codes_not_english() -> None:
    assert english_read_in(CAMPAIGNS) == []


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """The two checks on the kind of code the panel had before its queries and codes moved
    to the engine."""
    folder = tmp_path / "panel"
    folder.mkdir()
    (folder / "queue.py").write_text(
        "import sqlite3\n"
        "def row_of(campaign, where, args):\n"
        "    conn = campaign.conn\n"
        "    return conn.execute(f'SELECT count(*) FROM items WHERE {where}', args)\n",
        encoding="utf-8",
    )
    (folder / "refusal.py").write_text(
        "import re\n"
        "def show(exc):\n"
        "    return 'justification' in str(exc) or re.fullmatch('x', flag.reason)\n",
        encoding="utf-8",
    )
    assert len(sql_in(folder)) == 3
    assert len(english_read_in(folder)) == 2
