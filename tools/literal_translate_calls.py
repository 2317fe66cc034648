"""Rewrite calls of translation helpers into literal ``QCoreApplication.translate`` calls.

pyside6-lupdate only sees ``self.tr("...")`` and ``QCoreApplication.translate("Context",
"...")`` with literal arguments. A module-level helper such as ``_tr(text)`` that passes a fixed
context hides its strings (or files them under an empty context). This rewrites every call of
such a helper whose text is a literal, in its own module and in modules importing it:

    python tools/literal_translate_calls.py src/portal_admin/ui [--exclude PART ...]

A helper qualifies when its body returns ``QCoreApplication.translate(CTX, text[, None, n])``
with ``CTX`` a string literal or a module-level string constant, or when it takes the context as
its first parameter. Calls with non-literal text are left alone.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


@dataclass(frozen=True)
class Helper:
    """A translation helper: its fixed context, or None when the context is its first argument."""

    context: str | None
    plural: bool


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def _constants(tree: ast.Module) -> dict[str, str]:
    out = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            out[node.targets[0].id] = node.value.value
    return out


def find_helpers(tree: ast.Module) -> dict[str, Helper]:
    """Module-level functions that are plain wrappers of QCoreApplication.translate."""
    consts = _constants(tree)
    helpers = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name not in ("tr", "_tr"):
            continue
        params = [a.arg for a in node.args.args]
        body = [n for n in node.body if not isinstance(n, ast.Expr)]  # skip the docstring
        if len(body) != 1 or not isinstance(body[0], ast.Return):
            continue
        call = body[0].value
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "translate"
        ):
            continue
        first = call.args[0] if call.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            helpers[node.name] = Helper(first.value, len(params) > 1)
        elif isinstance(first, ast.Name) and first.id in consts:
            helpers[node.name] = Helper(consts[first.id], len(params) > 1)
        elif isinstance(first, ast.Name) and params[:1] == [first.id]:
            helpers[node.name] = Helper(None, False)
    return helpers


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")[: -node.level]
    return ".".join([*base, node.module] if node.module else base)


def _literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def rewrite(path: Path, helpers_by_module: dict[str, dict[str, Helper]]) -> int:
    """Rewrite the qualifying calls in one file; returns how many were rewritten."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    module = module_name(path)
    consts = _constants(tree)
    bound = dict(helpers_by_module.get(module, {}))
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            found = helpers_by_module.get(_resolve(module, node), {})
            for alias in node.names:
                if alias.name in found:
                    bound[alias.asname or alias.name] = found[alias.name]
    edits: list[tuple[int, int, str]] = []
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(lineno: int, col: int) -> int:
        return offsets[lineno - 1] + len(lines[lineno - 1].encode()[:col].decode())

    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
            continue
        helper = bound.get(call.func.id)
        if helper is None or call.keywords:
            continue
        seg = [ast.get_source_segment(source, a) for a in call.args]
        if helper.context is None:
            if len(call.args) != 2 or not _literal(call.args[1]):
                continue
            first = call.args[0]
            if isinstance(first, ast.Name) and first.id in consts:
                seg[0] = '"' + consts[first.id] + '"'
            elif not _literal(first):
                continue
            text = f"QCoreApplication.translate({seg[0]}, {seg[1]})"
        else:
            if not call.args or not _literal(call.args[0]) or len(call.args) > 2:
                continue
            ctx = '"' + helper.context + '"'
            if len(call.args) == 2:
                text = f"QCoreApplication.translate({ctx}, {seg[0]}, None, {seg[1]})"
            else:
                text = f"QCoreApplication.translate({ctx}, {seg[0]})"
        start = at(call.lineno, call.col_offset)
        end = at(call.end_lineno or call.lineno, call.end_col_offset or 0)
        edits.append((start, end, text))
    if not edits:
        return 0
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    if "QCoreApplication" not in {
        a.asname or a.name
        for n in tree.body
        if isinstance(n, ast.ImportFrom) and n.module == "PySide6.QtCore"
        for a in n.names
    }:
        marker = "from __future__ import annotations\n"
        source = source.replace(
            marker, marker + "\nfrom PySide6.QtCore import QCoreApplication\n", 1
        )
    path.write_text(source, encoding="utf-8")
    return len(edits)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--exclude", action="append", default=[])
    args = parser.parse_args(argv)
    files = [
        p
        for p in sorted(args.root.resolve().rglob("*.py"))
        if not any(part in str(p) for part in args.exclude)
    ]
    helpers_by_module = {
        module_name(p): h
        for p in sorted((SRC / "portal_admin").rglob("*.py"))
        if (h := find_helpers(ast.parse(p.read_text(encoding="utf-8"))))
    }
    total = 0
    for path in files:
        count = rewrite(path, helpers_by_module)
        if count:
            print(f"{path.relative_to(SRC.parent)}: {count}")
        total += count
    print(f"{total} calls rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
