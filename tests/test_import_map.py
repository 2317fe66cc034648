"""tools/import_map: the rooms of the desktop program and no import circle inside src/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from import_map import circles, import_graph  # noqa: E402 - from tools/, as test_translations


def test_the_source_has_no_import_circle() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tools.import_map"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Import circles inside src/ (every import statement): 0" in done.stdout
    for room in ("startup", "i18n", "theme", "widgets", "lists", "panels", "mainwindow"):
        assert f"\n  {room} " in done.stdout


def _write(src: Path, name: str, text: str) -> None:
    path = src.joinpath(*name.split(".")).with_suffix(".py")
    path.parent.mkdir(parents=True, exist_ok=True)
    for folder in path.relative_to(src).parents:
        if str(folder) != ".":
            (src / folder / "__init__.py").touch()
    path.write_text(text, encoding="utf-8")


def test_lazy_and_typing_imports_count(tmp_path: Path) -> None:
    src = tmp_path / "src"
    _write(src, "portal_admin.a", "def f():\n    from portal_admin import b\n")
    _write(
        src,
        "portal_admin.b",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import X\n",
    )
    _write(src, "portal_admin.c", "import portal_admin.a\nX = 1\n")
    _write(src, "portal_admin.d", "from portal_admin.c import X\n")
    graph = import_graph(src)
    assert graph["portal_admin.a"] == {"portal_admin.b"}
    assert circles(graph) == [["portal_admin.a", "portal_admin.b", "portal_admin.c"]]
