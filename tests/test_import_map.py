"""tools/import_map: the rooms of the desktop program, no import circle inside src/, and no
import inside ui/ that docs/desktop.md's may-import table does not allow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from import_map import (  # noqa: E402 - from tools/, as test_translations
    EVERY,
    circles,
    disallowed,
    import_graph,
    may_import,
)


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
    assert "does not allow: 0" in done.stdout
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


TABLE = """
| room | what | may import (ui/) |
| --- | --- | --- |
| `operations.py`, `error_info.py` | shared | `i18n`, the shared modules (each other) |
| `i18n/` | words | nothing |
| `lists/` | lists | `i18n`, `error_info`, `kiosk.marking` |
| `tour/` | tours | every room it shows |
"""


def test_the_table_is_read_and_enforced(tmp_path: Path) -> None:
    table = may_import(TABLE)
    assert table["lists"] == {"i18n", "error_info.py", "kiosk.marking"}
    assert table["i18n"] == set()
    assert EVERY in table["tour"]
    src = tmp_path / "src"
    _write(src, "portal_admin.ui.lists.view", "from portal_admin.ui.kiosk import marking\n")
    _write(src, "portal_admin.ui.kiosk.marking", "X = 1\n")
    _write(src, "portal_admin.ui.kiosk.guard", "X = 1\n")
    _write(src, "portal_admin.ui.i18n.text", "from portal_admin.ui import error_info\n")
    _write(src, "portal_admin.ui.error_info", "from portal_admin.ui.i18n import text\n")
    _write(src, "portal_admin.ui.tour.run", "from portal_admin.ui.kiosk import guard\n")
    graph = import_graph(src)
    import import_map

    import_map._PACKAGES.update({"portal_admin.ui.lists", "portal_admin.ui.kiosk"})
    import_map._PACKAGES.update({"portal_admin.ui.i18n", "portal_admin.ui.tour"})
    found = disallowed(graph, table)
    assert "i18n.text -> error_info" in found  # i18n may import nothing
    assert "kiosk: not in the table of desktop.md" in found
    assert not [line for line in found if line.startswith(("lists.", "tour.", "error_info"))]
    _write(src, "portal_admin.ui.lists.view", "from portal_admin.ui.kiosk import guard\n")
    assert "lists.view -> kiosk.guard" in disallowed(import_graph(src), table)


#: Imports from one area of ui/panels/ into another that are a feature using another's feature
#: (not a shared piece left in a feature folder): each with its reason.
AREA_TO_AREA = {
    ("evidence.journal_panel", "jobs.revert_plan"): "the Journal's Revert opens the revert window",
    ("reference.profile_panel", "invitations.own"): "the Profile panel shows one's invitations",
    ("reviews.panel", "evidence.packing"): "a campaign's evidence pack is written as other packs",
    ("reviews.pack_step", "evidence.packing"): "… its Evidence pack step",
    ("reviews.sign_step", "evidence.packing"): "… a sign-off's key unreadable, said as for packs",
    ("reviews.remediation_dialog", "evidence.trust_dialog"): "a signer's key is trusted there",
}


def test_shared_pieces_live_in_shared_rooms() -> None:
    """A module of one panel area imported by another is a shared piece: it belongs in a shared
    room (``widgets/``, ``lists/``, or beside ``panels/base.py``), not in a feature folder."""
    prefix = "portal_admin.ui.panels."
    found = set()
    for module, targets in import_graph().items():
        inside = module.removeprefix(prefix).split(".")
        if not module.startswith(prefix) or len(inside) < 2:
            continue
        for target in targets:
            other = target.removeprefix(prefix).split(".")
            if target.startswith(prefix) and len(other) >= 2 and other[0] != inside[0]:
                found.add((".".join(inside), ".".join(other)))
    assert found <= set(AREA_TO_AREA), sorted(found - set(AREA_TO_AREA))
    assert set(AREA_TO_AREA) <= found, sorted(set(AREA_TO_AREA) - found)  # none left over
