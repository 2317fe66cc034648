"""The map of the source: the desktop program's rooms and every import circle inside src/.

    python -m tools.import_map            # the rooms of ui/, the circles and the imports the
                                          # "may import" table does not allow; exit 1 if any
    python -m tools.import_map --circles  # only the circles

The table is the one in docs/desktop.md, "The rooms of src/portal_admin/ui/": each room (or
loose module) with the rooms, modules (``kiosk.policy``) or words ("every room", "nothing",
"the shared modules") it may import from the rest of ``ui/``.

Every import statement counts: those at the top of a module, those inside functions (the lazy
ones) and those under ``if TYPE_CHECKING:``, read with :mod:`ast` and never executed. ``from
pkg import name`` counts as an import of ``pkg.name`` when that is a module, otherwise of
``pkg``. Uses only the standard library.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = "portal_admin"
UI = f"{PACKAGE}.ui"
TABLE = ROOT / "docs" / "desktop.md"
#: Every room (in the table's last column).
EVERY = "*"


def module_files(src: Path = SRC) -> dict[str, Path]:
    """Every module under ``src/portal_admin`` by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for path in sorted((src / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name a (possibly relative) ``from ... import`` names."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports_of(module: str, path: Path, known: Iterable[str]) -> set[str]:
    """The modules inside src/ that ``module`` imports anywhere in its text."""
    names = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.add(full if full in names else base)
    found = set()
    for target in targets:
        # ``import a.b.c`` of a name that is not a module (rare): its nearest module.
        while target and target not in names:
            target = target.rpartition(".")[0]
        if target and target != module:
            found.add(target)
    return found


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    """Module → the modules inside src/ it imports."""
    files = module_files(src)
    return {name: imports_of(name, path, files) for name, path in files.items()}


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        # An explicit stack: the graph is deep enough to make recursion a risk.
        work: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(groups)


def room_of(module: str) -> str | None:
    """The room of ui/ a module lives in: its first folder below ui/, or None when loose."""
    if not module.startswith(f"{UI}."):
        return None
    rest = module[len(UI) + 1 :].split(".")
    return rest[0] if len(rest) > 1 or module in _PACKAGES else None


_PACKAGES: set[str] = set()


def rooms(graph: Mapping[str, set[str]], files: Mapping[str, Path]) -> dict[str, dict[str, object]]:
    """Each room of ui/ (and each loose module) with its size and the rooms it imports."""
    _PACKAGES.clear()
    _PACKAGES.update(name for name, path in files.items() if path.name == "__init__.py")
    table: dict[str, dict[str, object]] = {}
    for module, targets in graph.items():
        if not module.startswith(f"{UI}.") and module != UI:
            continue
        if module == UI:
            continue
        name = room_of(module) or module[len(UI) + 1 :] + ".py"
        entry = table.setdefault(name, {"modules": 0, "lines": 0, "imports": set()})
        entry["modules"] = int(entry["modules"]) + 1  # type: ignore[call-overload]
        entry["lines"] = int(entry["lines"]) + len(  # type: ignore[call-overload]
            files[module].read_text(encoding="utf-8").splitlines()
        )
        wanted = entry["imports"]
        assert isinstance(wanted, set)
        for target in targets:
            if target.startswith(f"{UI}."):
                other = room_of(target) or target[len(UI) + 1 :] + ".py"
                if other != name:
                    wanted.add(other)
            elif target != UI:
                wanted.add(target.split(".")[1] if "." in target else target)
    return table


def may_import(text: str) -> dict[str, set[str]]:
    """The "may import" table of docs/desktop.md: room (``bulk``) or loose module
    (``operations.py``) -> what it may import of ui/ (rooms, ``room.module``, loose modules
    as ``name.py``, or ``EVERY``)."""
    table: dict[str, set[str]] = {}
    shared: set[str] = set()
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names = [n.rstrip("/") for n in re.findall(r"`([^`]+)`", cells[0])]
        allowed = {n.rstrip("/") for n in re.findall(r"`([^`]+)`", cells[2])}
        words = cells[2]
        if "every room" in words:
            allowed.add(EVERY)
        if "the shared modules" in words:
            allowed.add("shared")
        if names and all(n.endswith(".py") for n in names) and "operations.py" in names:
            shared = set(names)
        for name in names:
            table[name] = allowed
    for allowed in table.values():
        if "shared" in allowed:
            allowed.discard("shared")
            allowed.update(shared)
        for entry in list(allowed):  # `error_info` in a cell names the loose module
            if f"{entry}.py" in shared:
                allowed.discard(entry)
                allowed.add(f"{entry}.py")
    return table


def _ui_name(module: str) -> tuple[str, str]:
    """(room or loose module name, the module's name inside ui/)."""
    inside = module[len(UI) + 1 :]
    return room_of(module) or f"{inside}.py", inside


def disallowed(graph: Mapping[str, set[str]], table: Mapping[str, set[str]]) -> list[str]:
    """Imports inside ui/ that the table does not allow, as ``importer -> imported`` lines; a
    room or loose module missing from the table is a line of its own."""
    found = []
    for module, targets in sorted(graph.items()):
        if not module.startswith(f"{UI}."):
            continue
        room, _ = _ui_name(module)
        if room not in table:
            found.append(f"{room}: not in the table of {TABLE.name}")
            continue
        allowed = table[room]
        if EVERY in allowed:
            continue
        for target in sorted(targets):
            if not target.startswith(f"{UI}."):
                continue
            other, inside = _ui_name(target)
            if other == room:
                continue
            parts = inside.split(".")
            prefixes = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
            if other in allowed or prefixes & allowed:
                continue
            found.append(f"{module[len(UI) + 1 :]} -> {inside}")
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the rooms and the circles; 1 when there is a circle."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--circles", action="store_true", help="print only the import circles")
    args = parser.parse_args(argv)
    files = module_files()
    graph = import_graph()
    if not args.circles:
        table = rooms(graph, files)
        print(f"Rooms of {UI} (folders first, then loose modules):")
        for name in sorted(table, key=lambda n: (n.endswith(".py"), n)):
            entry = table[name]
            imported = ", ".join(sorted(entry["imports"]))  # type: ignore[call-overload]
            print(f"  {name:<22} {entry['modules']:>3} modules {entry['lines']:>6} lines")
            print(f"  {'':<22} imports: {imported or '-'}")
    found = circles(graph)
    print(f"Import circles inside src/ (every import statement): {len(found)}")
    for group in found:
        print("  " + " <-> ".join(group))
    if args.circles:
        return 1 if found else 0
    _PACKAGES.update(name for name, path in files.items() if path.name == "__init__.py")
    refused = disallowed(graph, may_import(TABLE.read_text(encoding="utf-8")))
    print(f"Imports inside ui/ the may-import table ({TABLE.name}) does not allow: {len(refused)}")
    for line in refused:
        print("  " + line)
    return 1 if found or refused else 0


if __name__ == "__main__":
    sys.exit(main())
