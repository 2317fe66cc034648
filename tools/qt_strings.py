"""Helpers for the Vietnamese translations (translations/*_vi.ts).

    python tools/qt_strings.py qm FILE.qm [CONTEXT ...]   # a .qm's messages
    python tools/qt_strings.py runtime                    # (context, source) pairs the UI uses
    python tools/qt_strings.py update-vi                  # lupdate vi + sync-vi, keep translations
    python tools/qt_strings.py sync-vi                    # add pairs lupdate misses to the vi .ts
    python tools/qt_strings.py check-qtbase               # load ui/i18n/qtbase_vi.qm and translate

``qm`` reads Qt's compiled translation format: the 16-byte magic, then blocks (1 byte tag,
4 byte big-endian length): Contexts 0x2f, Hashes 0x42, Messages 0x69, NumerusRules 0x88,
Dependencies 0x96, Language 0xa7. The Messages block is a list of messages, each a sequence of
tags: End 1, Translation 3 (UTF-16BE, length-prefixed), SourceText16 4 (obsolete), Context16 5,
SourceText 6 and Context 7 and Comment 8 (UTF-8, length-prefixed), Obsolete2 9.

``runtime`` walks the UI's sources with ``ast`` and resolves what lupdate cannot: module-level
helpers such as ``def tr(text): return QCoreApplication.translate(CTX, text)``, contexts held
in constants (also imported ones), ``QT_TRANSLATE_NOOP(CTX, ...)``.
"""

from __future__ import annotations

import ast
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UI_DIR = ROOT / "src" / "portal_admin" / "ui"
VI_TS = ROOT / "translations" / "portal_admin_vi.ts"
MAGIC = bytes.fromhex("3CB86418CAEF9C95CD211CBF60A1BDDD")


# -- .qm ----------------------------------------------------------------------------------------


def read_qm(path: Path) -> list[dict[str, object]]:
    """The messages of a .qm file: dicts with context, source, comment, translations."""
    data = path.read_bytes()
    if not data.startswith(MAGIC):
        raise ValueError(f"{path}: not a .qm file")
    pos = len(MAGIC)
    messages_block = b""
    while pos < len(data):
        tag = data[pos]
        (length,) = struct.unpack(">I", data[pos + 1 : pos + 5])
        if tag == 0x69:
            messages_block = data[pos + 5 : pos + 5 + length]
        pos += 5 + length
    out: list[dict[str, object]] = []
    pos, block = 0, messages_block
    current: dict[str, object] = {"translations": []}
    while pos < len(block):
        tag = block[pos]
        pos += 1
        if tag == 1:  # End
            out.append(current)
            current = {"translations": []}
            continue
        if tag == 9:  # Obsolete2 carries no data
            continue
        (length,) = struct.unpack(">I", block[pos : pos + 4])
        pos += 4
        if tag == 3 and length == 0xFFFFFFFF:  # null translation
            current["translations"].append(None)  # type: ignore[union-attr]
            continue
        raw = block[pos : pos + length]
        pos += length
        if tag == 3:
            current["translations"].append(raw.decode("utf-16-be"))  # type: ignore[union-attr]
        elif tag == 4:
            current["source"] = raw.decode("utf-16-be")
        elif tag == 5:
            current["context"] = raw.decode("utf-16-be")
        elif tag == 6:
            current["source"] = raw.decode("utf-8")
        elif tag == 7:
            current["context"] = raw.decode("utf-8")
        elif tag == 8:
            current["comment"] = raw.decode("utf-8")
    return out


# -- runtime strings ----------------------------------------------------------------------------


def _module_name(path: Path) -> str:
    rel = path.relative_to(UI_DIR.parent.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve_from(module: str, level: int, name: str | None, is_pkg: bool) -> str:
    parts = module.split(".")
    if not is_pkg:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([name] if name else []))


class _Module:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = _module_name(path)
        self.is_pkg = path.name == "__init__.py"
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.consts: dict[str, str] = {}
        self.imports: dict[str, tuple[str, str]] = {}  # local name -> (module, name)
        # wrapper name -> (fixed context or None, context arg index or None, text arg index)
        self.wrappers: dict[str, tuple[str | None, int | None, int]] = {}
        for node in self.tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                if isinstance(node.value.value, str):
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            self.consts[target.id] = node.value.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Constant):
                if isinstance(node.target, ast.Name) and isinstance(node.value.value, str):
                    self.consts[node.target.id] = node.value.value
            elif isinstance(node, ast.ImportFrom):
                base = (
                    _resolve_from(self.name, node.level, node.module, self.is_pkg)
                    if node.level
                    else node.module or ""
                )
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = (base, alias.name)


def _is_translate(func: ast.expr) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr == "translate") or (
        isinstance(func, ast.Name) and func.id == "translate"
    )


def runtime_strings() -> list[tuple[str, str, bool, str]]:
    """(context, source, numerus, where) for every translation call whose strings resolve."""
    modules = {}
    for path in sorted(UI_DIR.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        mod = _Module(path)
        modules[mod.name] = mod

    def const(mod: _Module, node: ast.expr, seen: int = 0) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in mod.consts:
                return mod.consts[node.id]
            if node.id in mod.imports and seen < 5:
                src_mod, src_name = mod.imports[node.id]
                other = modules.get(src_mod)
                if other is not None:
                    return const(other, ast.Name(id=src_name), seen + 1)
        if isinstance(node, ast.JoinedStr):
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = const(mod, node.left, seen), const(mod, node.right, seen)
            if left is not None and right is not None:
                return left + right
        return None

    # classes: name -> (module, base names, class-level assignments)
    classes: dict[str, list[tuple[_Module, list[str], dict[str, ast.expr]]]] = {}
    for mod in modules.values():
        for node in ast.walk(mod.tree):
            if isinstance(node, ast.ClassDef):
                attrs = {
                    t.id: stmt.value
                    for stmt in node.body
                    if isinstance(stmt, ast.Assign)
                    for t in stmt.targets
                    if isinstance(t, ast.Name)
                }
                bases = [
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
                ]
                classes.setdefault(node.name, []).append((mod, bases, attrs))

    def class_values(cls: str, attr: str) -> set[str]:
        """``self.attr`` in class ``cls``: its own value and those of every subclass."""
        out: set[str] = set()
        todo, seen = [cls], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for owner, _bases, attrs in classes.get(name, []):
                if attr in attrs:
                    value = const(owner, attrs[attr])
                    if value is not None:
                        out.add(value)
            todo.extend(n for n, defs in classes.items() for _m, b, _a in defs if name in b)
        return out

    # wrappers: module-level functions returning translate(<ctx const|param>, <param>, ...)
    for mod in modules.values():
        for node in mod.tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            params = [a.arg for a in node.args.args]
            for sub in ast.walk(node):
                if isinstance(sub, ast.Call) and _is_translate(sub.func) and len(sub.args) >= 2:
                    ctx_node, text_node = sub.args[0], sub.args[1]
                    if not (isinstance(text_node, ast.Name) and text_node.id in params):
                        continue
                    text_idx = params.index(text_node.id)
                    if isinstance(ctx_node, ast.Name) and ctx_node.id in params:
                        mod.wrappers[node.name] = (None, params.index(ctx_node.id), text_idx)
                    else:
                        ctx = const(mod, ctx_node)
                        if ctx is not None:
                            mod.wrappers[node.name] = (ctx, None, text_idx)

    def wrapper(mod: _Module, name: str, seen: int = 0):
        if name in mod.wrappers:
            return mod.wrappers[name]
        if name in mod.imports and seen < 5:
            src_mod, src_name = mod.imports[name]
            other = modules.get(src_mod)
            if other is not None:
                return wrapper(other, src_name, seen + 1)
        return None

    found: list[tuple[str, str, bool, str]] = []

    def scan(mod: _Module) -> None:
        rel = str(mod.path.relative_to(UI_DIR))

        def visit(node: ast.AST, cls: str | None) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.ClassDef):
                    visit(child, child.name)
                    continue
                if isinstance(child, ast.Call):
                    handle(child, cls)
                visit(child, cls)

        def handle(call: ast.Call, cls: str | None) -> None:
            func, args = call.func, call.args
            where = f"{rel}:{call.lineno}"
            numerus = len(args) >= 4 or any(k.arg == "n" for k in call.keywords)
            if _is_translate(func) and len(args) >= 2:
                ctx, text = const(mod, args[0]), const(mod, args[1])
                if ctx is not None and text is not None:
                    found.append((ctx, text, numerus, where))
                return
            if isinstance(func, ast.Name) and func.id in (
                "QT_TRANSLATE_NOOP",
                "QT_TRANSLATE_NOOP3",
            ):
                if len(args) >= 2:
                    ctx, text = const(mod, args[0]), const(mod, args[1])
                    if ctx is not None and text is not None:
                        found.append((ctx, text, "%n" in text, where))
                return
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "tr"
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
                and cls
                and args
            ):
                text = const(mod, args[0])
                if text is not None:
                    found.append((cls, text, len(args) >= 3 or "%n" in text, where))
                return
            if isinstance(func, ast.Name):
                info = wrapper(mod, func.id)
                if info is None:
                    return
                fixed, ctx_idx, text_idx = info
                if len(args) <= text_idx:
                    return
                text = const(mod, args[text_idx])
                if text is None:
                    return
                numerus = len(args) > text_idx + 1 or "%n" in text
                if ctx_idx is None:
                    found.append((fixed, text, numerus, where))  # type: ignore[arg-type]
                    return
                if len(args) <= ctx_idx:
                    return
                node = args[ctx_idx]
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in ("self", "cls")
                    and cls
                ):
                    for ctx in sorted(class_values(cls, node.attr)):
                        found.append((ctx, text, numerus, where))
                    return
                ctx = const(mod, node)
                if ctx is not None:
                    found.append((ctx, text, numerus, where))

        visit(mod.tree, None)

    for mod in modules.values():
        scan(mod)
    return found


# -- the Vietnamese .ts -------------------------------------------------------------------------


def _indent(elem: ET.Element, level: int = 0) -> None:
    pad = "\n" + "    " * level
    if len(elem):
        if not (elem.text or "").strip():
            elem.text = pad + "    "
        for child in elem:
            _indent(child, level + 1)
        last = elem[-1]
        last.tail = pad
        for child in elem[:-1]:
            if not (child.tail or "").strip():
                child.tail = pad + "    "


def write_ts(tree: ET.ElementTree, path: Path) -> None:
    """Write a .ts the way Qt Linguist reads it (doctype, 4-space indent)."""
    root = tree.getroot()
    _indent(root)
    root.tail = "\n"
    body = ET.tostring(root, encoding="unicode")
    path.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body, encoding="utf-8"
    )


def _finished_text(message: ET.Element) -> list[str] | None:
    tr = message.find("translation")
    if tr is None or tr.get("type") in ("unfinished", "vanished", "obsolete"):
        return None
    forms = tr.findall("numerusform")
    if forms:
        texts = [f.text or "" for f in forms]
        return texts if all(t.strip() for t in texts) else None
    return [tr.text] if (tr.text or "").strip() else None


def _set_translation(message: ET.Element, texts: list[str]) -> None:
    tr = message.find("translation")
    if tr is None:
        tr = ET.SubElement(message, "translation")
    tr.attrib.pop("type", None)
    for child in list(tr):
        tr.remove(child)
    if message.get("numerus") == "yes":
        tr.text = None
        for text in texts[:1]:
            ET.SubElement(tr, "numerusform").text = text
    else:
        tr.text = texts[0]


def sync_vi(path: Path = VI_TS) -> tuple[int, int]:
    """Add run-time (context, source) pairs missing from the .ts; fill equal sources.

    Returns (added, filled)."""
    tree = ET.parse(path)  # noqa: S314
    root = tree.getroot()
    contexts = {c.findtext("name") or "": c for c in root.iter("context")}
    have = {}
    by_source: dict[tuple[str, bool], list[str]] = {}
    for name, ctx in contexts.items():
        for m in ctx.iter("message"):
            src = m.findtext("source") or ""
            have[(name, src)] = m
            done = _finished_text(m)
            if done:
                by_source.setdefault((src, m.get("numerus") == "yes"), done)
    for m in have.values():  # lupdate finds it now: the note is stale
        note = m.find("translatorcomment")
        stale = m.find("location") is not None and note is not None
        if stale and (note.text or "").startswith("Used at run time but not found"):
            m.remove(note)
    added = 0
    for ctx_name, src, numerus, where in runtime_strings():
        if (ctx_name, src) in have:
            continue
        ctx = contexts.get(ctx_name)
        if ctx is None:
            ctx = ET.SubElement(root, "context")
            ET.SubElement(ctx, "name").text = ctx_name
            contexts[ctx_name] = ctx
        m = ET.SubElement(ctx, "message")
        if numerus:
            m.set("numerus", "yes")
        ET.SubElement(m, "source").text = src
        ET.SubElement(
            m, "translatorcomment"
        ).text = f"Used at run time but not found by lupdate ({where})"
        tr = ET.SubElement(m, "translation")
        tr.set("type", "unfinished")
        if numerus:
            ET.SubElement(tr, "numerusform")
        have[(ctx_name, src)] = m
        added += 1
    filled = 0
    for (_name, src), m in have.items():
        if _finished_text(m) is None:
            done = by_source.get((src, m.get("numerus") == "yes"))
            if done:
                _set_translation(m, done)
                filled += 1
    write_ts(tree, path)
    return added, filled


def apply_translations(table: dict, path: Path = VI_TS) -> int:
    """Fill unfinished messages from ``table``: source -> text, or (context, source) -> text."""
    tree = ET.parse(path)  # noqa: S314
    count = 0
    for ctx in tree.getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.iter("message"):
            src = m.findtext("source") or ""
            text = table.get((name, src), table.get(src))
            if text is None:
                continue
            _set_translation(m, [text])
            count += 1
    write_ts(tree, path)
    return count


def unfinished(path: Path = VI_TS) -> list[tuple[str, str]]:
    """(context, source) of every unfinished message."""
    out = []
    for ctx in ET.parse(path).getroot().iter("context"):  # noqa: S314
        name = ctx.findtext("name") or ""
        for m in ctx.iter("message"):
            if _finished_text(m) is None:
                out.append((name, m.findtext("source") or ""))
    return out


def update_vi(path: Path = VI_TS) -> None:
    """lupdate the vi .ts only, re-add the run-time pairs, and keep every translation done."""
    tree = ET.parse(path)  # noqa: S314
    memory: dict[object, list[str]] = {}
    for ctx in tree.getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.iter("message"):
            done = _finished_text(m)
            if done:
                src = m.findtext("source") or ""
                memory[(name, src)] = done
                memory.setdefault(src, done)
    sys.path.insert(0, str(ROOT / "tools"))
    import translations

    translations.lupdate([path])
    sync_vi(path)
    tree = ET.parse(path)  # noqa: S314
    for ctx in tree.getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.iter("message"):
            src = m.findtext("source") or ""
            # the message's own translation first (sync_vi may have filled it by source)
            done = memory.get((name, src))
            if done is None and _finished_text(m) is None:
                done = memory.get(src)
            if done:
                _set_translation(m, done)
    write_ts(tree, path)


def check_qtbase(qm: Path = UI_DIR / "i18n" / "qtbase_vi.qm") -> int:
    """Translate a few standard strings with the compiled qtbase_vi.qm."""
    from PySide6.QtCore import QCoreApplication, QTranslator

    app = QCoreApplication.instance() or QCoreApplication([])
    translator = QTranslator()
    if not translator.load(str(qm)):
        print(f"cannot load {qm}")
        return 1
    QCoreApplication.installTranslator(translator)
    bad = 0
    for ctx, src in (
        ("QPlatformTheme", "Cancel"),
        ("QPlatformTheme", "OK"),
        ("QPlatformTheme", "&Yes"),
        ("QLineEdit", "&Copy"),
        ("QWidgetTextControl", "Select All"),
        ("QFileDialog", "File &name:"),
        ("QWizard", "&Next >"),
        ("QShortcut", "Space"),
    ):
        out = QCoreApplication.translate(ctx, src)
        print(f"{ctx:20} {src!r:20} -> {out!r}")
        bad += out == src
    del app
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    cmd = argv[0]
    if cmd == "qm":
        wanted = set(argv[2:])
        for m in read_qm(Path(argv[1])):
            if not wanted or m.get("context") in wanted:
                print(
                    repr(m.get("context")),
                    repr(m.get("source")),
                    repr(m.get("comment", "")),
                    m["translations"],
                )
        return 0
    if cmd == "runtime":
        for ctx, src, numerus, where in runtime_strings():
            print(f"{where}\t{ctx}\t{'n' if numerus else ''}\t{src!r}")
        return 0
    if cmd == "sync-vi":
        added, filled = sync_vi()
        print(f"added {added}, filled {filled}, unfinished {len(unfinished())}")
        return 0
    if cmd == "update-vi":
        update_vi()
        print(f"unfinished {len(unfinished())}")
        return 0
    if cmd == "check-qtbase":
        return check_qtbase()
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
