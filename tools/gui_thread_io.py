"""The desktop program's GUI-thread I/O rule, checked on the source (read with :mod:`ast`).

    python -m tools.gui_thread_io     # every finding under src/portal_admin/ui; exit 1 if any

File work never runs on the GUI thread (docs/desktop.md, "File work and the GUI thread"): it
goes through ``ui/file_work.py`` (``in_worker``, ``FileWork``). This check finds, in every
module of ``ui/``, a direct file-system call (:data:`FILE_CALLS`, :data:`FILE_METHODS`) made
outside a function that runs in a worker thread. A function runs in a worker thread when the
module passes it (by name, or wrapped in ``functools.partial``) to ``in_worker``, ``FileWork``,
``asyncio.to_thread``, ``run_in_executor`` or ``threading.Thread(target=…)``; a lambda passed
so is looked into too. :data:`ALLOWED` lists what may stay on the GUI thread, each with its
reason (the list docs/desktop.md explains).

What it does not see: file work done inside the engine (``files/``, ``jobs/``, ``evidence/``…)
called from ``ui/`` on the GUI thread; such calls are found by review, and the engine's file
functions are named for what they do. Only the standard library.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UI = ROOT / "src" / "portal_admin" / "ui"

#: Calls of a module's function that touch the file system (``module.name``, or a bare name).
FILE_CALLS = frozenset(
    {
        "open",
        "io.open",
        "sqlite3.connect",
        "os.replace",
        "os.rename",
        "os.remove",
        "os.unlink",
        "os.makedirs",
        "os.mkdir",
        "os.listdir",
        "os.scandir",
        "os.walk",
        "os.fsync",
        "json.load",
        "json.dump",
        "tempfile.mkdtemp",
        "tempfile.mkstemp",
        "tempfile.NamedTemporaryFile",
        "tempfile.TemporaryDirectory",
        "atomic_open",
        "atomic_write_text",
    }
)
#: Every function of these modules touches the file system.
FILE_MODULES = frozenset({"shutil"})
#: ``pathlib.Path`` methods that touch the file system (names no Qt class uses).
FILE_METHODS = frozenset(
    {
        "read_text",
        "write_text",
        "read_bytes",
        "write_bytes",
        "mkdir",
        "unlink",
        "rmdir",
        "iterdir",
        "rglob",
        "touch",
        "symlink_to",
        "hardlink_to",
    }
)
#: Calls that run their argument in a worker thread.
WORKER_CALLS = frozenset(
    {"in_worker", "FileWork", "to_thread", "run_in_executor", "Thread", "file_work"}
)

#: (module under ui/, function, or "*" for the whole module) -> why its file work may run on
#: the GUI thread. docs/desktop.md, "File work and the GUI thread", gives the rule behind it.
ALLOWED: dict[tuple[str, str], str] = {
    ("startup/log_setup.py", "setup_logging"): "start-up, before the first window and the "
    "loop: the log's folder is made once",
    ("kiosk/policy.py", "load_policy"): "the machine's policy file (a few hundred bytes), "
    "read once before the QApplication exists: it decides whether a window may open at all",
    ("startup/self_check.py", "*"): "--self-check shows no window: it prints and exits",
    ("theme/icons.py", "_svg"): "the program's own icons (a few kB each, installed with it), "
    "read once each and kept, as Qt reads its own resources",
    ("lists/csv_export.py", "export_csv"): "atomic_open() only builds the context manager: it "
    "is entered and left in in_worker",
    ("main.py", "*"): "--tour only, before the first window and after the loop: the tour's "
    "stand-in folder made and removed",
    ("app.py", "tour_folder"): "--tour only, at start-up: the tour's stand-in folder",
    ("app.py", "main"): "--tour only, after the last window: the tour's folder removed",
    ("mainwindow/workspace.py", "saved_views_store"): "--tour only: an empty folder for the "
    "tour's saved views, made once at sign-in",
    ("tour/*", "*"): "--tour writes its screenshots and stop files as it goes: a tool for the "
    "documentation and the accessibility walk, not a person's session",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """A file-system call on the GUI thread."""

    path: str
    line: int
    function: str
    call: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.call} in {self.function}() runs on the GUI thread"


def _dotted(node: ast.expr) -> str:
    """``a.b.c`` for a name or an attribute chain, else ""."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else ""
    return ""


def _is_file_call(call: ast.Call) -> str:
    """The call's text when it touches the file system, else ""."""
    name = _dotted(call.func)
    if name in FILE_CALLS or (name.partition(".")[0] in FILE_MODULES and "." in name):
        return name
    if isinstance(call.func, ast.Attribute) and call.func.attr in FILE_METHODS:
        return f"….{call.func.attr}"
    return ""


def _worker_targets(tree: ast.AST) -> tuple[set[str], set[int]]:
    """The names of functions the module hands to a worker, and the ids of lambdas it does."""
    names: set[str] = set()
    lambdas: set[int] = set()

    def take(arg: ast.expr) -> None:
        if isinstance(arg, ast.Lambda):
            lambdas.add(id(arg))
        elif isinstance(arg, ast.Call) and _dotted(arg.func).endswith("partial") and arg.args:
            take(arg.args[0])
        else:
            dotted = _dotted(arg)
            if dotted:
                names.add(dotted.rpartition(".")[2])

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = _dotted(node.func).rpartition(".")[2]
        if callee not in WORKER_CALLS:
            continue
        for arg in node.args:
            take(arg)
        for keyword in node.keywords:
            if keyword.arg in ("target", "work"):
                take(keyword.value)
    return names, lambdas


def _allowed(path: str, function: str) -> bool:
    folder = path.partition("/")[0] + "/*"
    return any(
        key in ALLOWED for key in ((path, function), (path, "*"), (folder, "*"), (folder, function))
    )


def check_source(
    source: str, path: str = "<source>", workers: frozenset[str] = frozenset()
) -> list[Finding]:
    """The findings of one module's text (``path`` relative to ui/, for :data:`ALLOWED`);
    ``workers``: names of functions other modules hand to a worker thread."""
    tree = ast.parse(source, filename=path)
    own, worker_lambdas = _worker_targets(tree)
    workers = workers | own
    findings: list[Finding] = []

    def visit(node: ast.AST, function: str, in_worker: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name, in_worker or child.name in workers)
            elif isinstance(child, ast.Lambda):
                visit(child, function, in_worker or id(child) in worker_lambdas)
            else:
                if isinstance(child, ast.Call) and not in_worker:
                    call = _is_file_call(child)
                    if call and not _allowed(path, function):
                        findings.append(Finding(path, child.lineno, function, call))
                visit(child, function, in_worker)

    visit(tree, "<module>", False)
    return findings


def check_files(paths: Iterable[Path], root: Path = UI) -> list[Finding]:
    """The findings of every module in ``paths`` (under ``root``): a function one module hands
    to a worker (``key_notice.place_to_tell``) runs there wherever it is defined."""
    sources = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in paths}
    workers: set[str] = set()
    for rel, source in sources.items():
        workers |= _worker_targets(ast.parse(source, filename=rel))[0]
    found: list[Finding] = []
    for rel in sorted(sources):
        found.extend(check_source(sources[rel], rel, frozenset(workers)))
    return found


def main(argv: Iterator[str] | None = None) -> int:
    findings = check_files(UI.rglob("*.py"))
    for finding in findings:
        print(finding)
    print(f"{len(findings)} file-system calls on the GUI thread (see docs/desktop.md)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
