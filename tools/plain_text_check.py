"""The plain-text rule of the desktop program, checked on the source (read with :mod:`ast`).

    python -m tools.plain_text_check     # every finding under src/portal_admin/ui; exit 1 if any

Qt renders a string that *might be* rich text as HTML in tooltips, in item views'
``ToolTipRole`` and in labels and message boxes left in ``AutoText``. The rule
(``ui/widgets/plain.py``) is kept by construction, so no call site has to be careful:

- every label and message box of ``ui/`` is plain: built as ``PlainLabel`` /
  ``PlainMessageBox`` (never ``QLabel(…)`` / ``QMessageBox(…)``), a subclass of ``QLabel`` sets
  ``Qt.PlainText`` in its ``__init__``, no static ``QMessageBox.information/…()`` helper, no
  ``QTextEdit``/``QTextBrowser``/``QInputDialog``/``QProgressDialog``/``QWizard`` (their text is
  ``AutoText`` too), and nothing but ``ui/widgets/plain.py`` sets ``RichText``, ``AutoText`` or
  ``MarkdownText``. So ``setText``/``setInformativeText`` with any string shows it literally;
- ``QFormLayout.addRow(text, …)`` builds an ``AutoText`` label of its own: its text must be a
  literal (or a ``PlainLabel``);
- a tooltip (``setToolTip``, ``setStatusTip``, ``setWhatsThis``, ``setTabToolTip``,
  ``QToolTip.showText``, ``QWhatsThis.showText``, ``setData``/``setItemData``/``setHeaderData``
  with ``ToolTipRole``, a model's ``if role == …ToolTip…: return …`` and the answer a
  ``data(…, role)`` falls through to) is a literal or made by ``plain_tooltip()`` /
  ``rich_text()`` (the program's own rich text with the outside parts escaped).

A *literal* is a string constant or a pure ``tr()``/``QCoreApplication.translate()`` of
constants: the program's own words. :data:`ALLOWED` lists the exceptions, each with its reason.
Only the standard library.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UI = ROOT / "src" / "portal_admin" / "ui"
#: The helper module itself: the one place that builds Qt's labels and boxes and rich text.
HELPER = "widgets/plain.py"

#: Qt classes whose text is AutoText, by the helper that replaces them ("" : none; not used).
AUTOTEXT_CLASSES = {
    "QLabel": "PlainLabel",
    "QMessageBox": "PlainMessageBox",
    "QTextEdit": "",
    "QTextBrowser": "",
    "QInputDialog": "",
    "QProgressDialog": "",
    "QWizard": "",
    "QWizardPage": "",
    "QErrorMessage": "",
}
#: Qt's label classes: a subclass of one sets PlainText in its ``__init__``.
LABEL_CLASSES = frozenset({"QLabel", "QMessageBox"})
#: Helpers whose result is safe wherever Qt may render rich text.
RICH_SAFE = frozenset({"plain_tooltip", "rich_text"})
TIP_SETTERS = frozenset({"setToolTip", "setStatusTip", "setWhatsThis"})
BOX_STATICS = frozenset({"information", "warning", "critical", "question", "about"})
RICH_FORMATS = frozenset({"RichText", "AutoText", "MarkdownText"})
#: Setters of a role's value: where the value is among the arguments.
_ROLE_VALUE = {"setData": 0, "setItemData": 1, "setHeaderData": 2}

#: Calls the rule cannot prove and that are right: (path under ui/, the call as ast.unparse
#: writes it) -> why.
ALLOWED: dict[tuple[str, str], str] = {
    (
        "lists/table_actions.py",
        "mirror.setToolTip(button.toolTip())",
    ): "the context menu copies a button's tooltip, itself set under this rule",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One place that breaks the rule."""

    path: str
    line: int
    call: str
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.why}: {self.call}"


def _name(node: ast.AST) -> str:
    """The last name of a call's function (``QLabel``, ``setText``, ``tr``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def is_literal(node: ast.AST | None) -> bool:
    """The program's own words: a constant, a pure ``tr()``/``translate()`` of constants, a
    conditional between such, None."""
    if node is None:
        return True
    if isinstance(node, ast.Constant):
        return node.value is None or isinstance(node.value, (str, int, float))
    if isinstance(node, ast.IfExp):
        return is_literal(node.body) and is_literal(node.orelse)
    if isinstance(node, ast.Call):
        texts = {"tr": 2, "translate": 3}.get(_name(node.func))
        if texts is None or any(k.arg != "n" for k in node.keywords):
            return False
        # tr(source, disambiguation, n) / translate(context, source, disambiguation, n):
        # every text is a constant; the count may be anything.
        return all(is_literal(a) for a in node.args[:texts])
    return False


def is_rich_safe(node: ast.AST | None) -> bool:
    """Safe where Qt may render rich text: a literal, or made by ``plain_tooltip()`` /
    ``rich_text()``."""
    if is_literal(node):
        return True
    if isinstance(node, ast.IfExp):
        return is_rich_safe(node.body) and is_rich_safe(node.orelse)
    return isinstance(node, ast.Call) and _name(node.func) in RICH_SAFE


def _mentions_tooltip(node: ast.AST) -> bool:
    return "tooltip" in ast.unparse(node).lower()


def _sets_plain(function: ast.AST) -> bool:
    """``function`` calls ``self.setTextFormat(…PlainText)``."""
    return any(
        isinstance(n, ast.Call)
        and _name(n.func) == "setTextFormat"
        and isinstance(n.func, ast.Attribute)
        and _name(n.func.value) == "self"
        and n.args
        and _name(n.args[0]) == "PlainText"
        for n in ast.walk(function)
    )


def _literal_loop_names(scope: ast.AST) -> set[str]:
    """Loop variables that only ever take literals: ``for label, w in ((tr("A"), a), …)``."""
    names: set[str] = set()
    for node in ast.walk(scope):
        if not isinstance(node, ast.For) or not isinstance(node.iter, (ast.Tuple, ast.List)):
            continue
        rows = node.iter.elts
        if isinstance(node.target, ast.Name):
            if all(is_literal(r) for r in rows):
                names.add(node.target.id)
        elif isinstance(node.target, ast.Tuple):
            for i, part in enumerate(node.target.elts):
                if isinstance(part, ast.Name) and all(
                    isinstance(r, ast.Tuple) and len(r.elts) > i and is_literal(r.elts[i])
                    for r in rows
                ):
                    names.add(part.id)
    return names


def _widget_names(scope: ast.AST) -> set[str]:
    """Local names that hold a widget: built by a constructor (a capitalized call), given a
    buddy, or a parameter annotated with a Qt class."""
    names: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            pairs: list[tuple[ast.AST, ast.AST]] = []
            for target in node.targets:
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs.extend(zip(target.elts, node.value.elts, strict=False))
                else:
                    pairs.append((target, node.value))
            for target, value in pairs:
                if (
                    isinstance(target, ast.Name)
                    and isinstance(value, ast.Call)
                    and _name(value.func)[:1].isupper()
                ):
                    names.add(target.id)
        elif isinstance(node, ast.Call) and _name(node.func) == "setBuddy":
            if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                names.add(node.func.value.id)
        elif (
            isinstance(node, ast.arg)
            and node.annotation is not None
            and ast.unparse(node.annotation).lstrip("'\"").startswith(("Q", "Plain"))
        ):
            names.add(node.arg)
    return names


class Checker:
    """The findings of one module (``rel``: its path under ui/)."""

    def __init__(self, rel: str, tree: ast.Module) -> None:
        self.rel = rel
        self.tree = tree
        self.findings: dict[tuple[int, str], Finding] = {}

    def add(self, node: ast.AST, why: str) -> None:
        call = ast.unparse(node)
        if (self.rel, call) in ALLOWED:
            return
        line = getattr(node, "lineno", 0)
        self.findings[(line, why)] = Finding(self.rel, line, call, why)

    def run(self) -> list[Finding]:
        if self.rel == HELPER:
            return []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ClassDef):
                self.check_class(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                if not isinstance(node, ast.Module):
                    self.check_role_function(node)
                known = _literal_loop_names(node) | _widget_names(node)
                for inner in _walk_own(node.body, top=node):
                    if isinstance(inner, ast.Call):
                        self.check_call(inner, known)
                    elif isinstance(inner, ast.If):
                        self.check_role_branch(inner)
        return sorted(self.findings.values(), key=lambda f: f.line)

    def check_class(self, node: ast.ClassDef) -> None:
        """A subclass of QLabel/QMessageBox makes itself plain in ``__init__``."""
        if not {_name(b) for b in node.bases} & LABEL_CLASSES:
            return
        init = next(
            (f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"),
            None,
        )
        if init is None or not _sets_plain(init):
            self.add(
                node.bases[0],
                f"class {node.name} does not set Qt.TextFormat.PlainText in __init__",
            )

    def check_call(self, node: ast.Call, known: set[str]) -> None:
        """``known``: local names holding a literal or a widget (for ``addRow``)."""
        func = node.func
        name = _name(func)
        args = node.args
        owner = _name(func.value) if isinstance(func, ast.Attribute) else ""
        if name in AUTOTEXT_CLASSES and not owner:
            instead = AUTOTEXT_CLASSES[name]
            self.add(node, f"{name}(…) shows AutoText" + (f" (use {instead})" if instead else ""))
        elif name in BOX_STATICS and owner == "QMessageBox":
            self.add(node, f"QMessageBox.{name}() shows AutoText (use PlainMessageBox)")
        elif name == "setTextFormat" and args and _name(args[0]) in RICH_FORMATS:
            self.add(node, "rich text outside ui/widgets/plain.py (use set_rich_text())")
        elif name in TIP_SETTERS and args and not is_rich_safe(args[-1]):
            # the text is the last argument (a tree item's column comes first)
            self.add(node, f"{name} without plain_tooltip()")
        elif name == "setTabToolTip" and len(args) > 1 and not is_rich_safe(args[1]):
            self.add(node, "setTabToolTip without plain_tooltip()")
        elif name == "showText" and owner in ("QToolTip", "QWhatsThis"):
            if len(args) > 1 and not is_rich_safe(args[1]):
                self.add(node, f"{owner}.showText without plain_tooltip()")
        elif name in _ROLE_VALUE and any(_mentions_tooltip(a) for a in args):
            value = args[min(_ROLE_VALUE[name], len(args) - 1)]
            if not is_rich_safe(value):
                self.add(node, f"{name} of ToolTipRole without plain_tooltip()")
        elif name == "addRow" and owner and len(args) >= 2:
            label = args[0]
            if (
                _is_text(label)
                and not is_literal(label)
                and not (isinstance(label, ast.Name) and label.id in known)
            ):
                self.add(node, "addRow with a computed label text (Qt makes an AutoText label)")

    def check_role_function(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A ``data(…, role)`` that answers ToolTipRole: a return no ``if`` on the role guards
        (the fall-through answer) is a literal or through plain_tooltip()."""
        names = {a.arg for a in function.args.args}
        if "role" not in names or not _mentions_tooltip(function):
            return

        def walk(body: list[ast.stmt]) -> None:
            for statement in body:
                if isinstance(statement, ast.Return):
                    if not is_rich_safe(statement.value) and not _asks_super(statement.value):
                        self.add(statement, "ToolTipRole may return text without plain_tooltip()")
                elif isinstance(statement, ast.If):
                    if "role" not in ast.unparse(statement.test):
                        walk(statement.body)
                    walk(statement.orelse)
                elif isinstance(statement, (ast.For, ast.While, ast.With, ast.Try)):
                    walk(statement.body)

        walk(function.body)

    def check_role_branch(self, node: ast.If) -> None:
        """``if role == ToolTipRole: return X``: X is a literal or through plain_tooltip()."""
        if not _mentions_tooltip(node.test):
            return
        for inner in _walk_own(node.body, top=node):
            if isinstance(inner, ast.Return) and not is_rich_safe(inner.value):
                self.add(inner, "ToolTipRole returns text without plain_tooltip()")


def _asks_super(node: ast.AST | None) -> bool:
    """``super().data(…)``: the base model answers (itself under the rule when it is ours)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Call)
        and _name(node.func.value.func) == "super"
    )


def _is_text(node: ast.AST) -> bool:
    """Whether ``addRow``'s first argument may be a text rather than a widget (an attribute:
    widgets are named for what they are)."""
    if isinstance(node, (ast.Constant, ast.JoinedStr, ast.BinOp, ast.IfExp)):
        return True
    if isinstance(node, ast.Call):
        return not _name(node.func)[:1].isupper()  # a call, not a constructor
    if isinstance(node, ast.Name):
        return True  # unless known to hold a widget or a literal (``_widget_names``)
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        name = ast.unparse(node).lower().rsplit(".", 1)[-1]
        widgets = ("label", "widget", "box", "row", "layout", "button", "field", "edit", "check")
        return not any(w in name for w in widgets) or name.endswith("text")
    return False


def _walk_own(body: list[ast.stmt], top: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``body`` but those inside nested functions and classes (walked as scopes
    of their own); a lambda's body belongs to its function."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if node is not top and isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        ):
            continue
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def check_source(source: str, rel: str = "example.py") -> list[Finding]:
    """The findings of one module's source."""
    return Checker(rel, ast.parse(source)).run()


def check_files(paths: Iterable[Path], root: Path = UI) -> list[Finding]:
    """Every finding in ``paths`` (under ``root``)."""
    found: list[Finding] = []
    for path in sorted(paths):
        rel = path.relative_to(root).as_posix()
        found.extend(check_source(path.read_text(encoding="utf-8"), rel))
    return found


def main() -> int:
    findings = check_files(UI.rglob("*.py"))
    for finding in findings:
        print(finding)
    print(f"{len(findings)} places break the plain-text rule (see ui/widgets/plain.py)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
