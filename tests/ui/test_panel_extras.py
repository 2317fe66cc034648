"""The panel context's extras are typed (``registry.PanelExtras``): every key the program
reads or sets is one of its keys, and every key is described."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_type_hints

from portal_admin.ui.panels import registry
from portal_admin.ui.panels.registry import PanelExtras

SRC = Path(__file__).resolve().parents[2] / "src" / "portal_admin"
#: ``extras["key"]``, ``extras.get("key"``, and ``"key": ...`` inside an ``extras`` literal.
_USE = re.compile(r"""extras(?:\.get\(|\[)\s*["']([a-z_]+)["']""")


def _literal_keys(path: Path) -> set[str]:
    """Keys of dict literals assigned to (or passed as) something named ``extras``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        value = None
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "extras" for t in targets):
                value = node.value
        elif isinstance(node, ast.keyword) and node.arg == "extras":
            value = node.value
        if isinstance(value, ast.Dict):
            found.update(k.value for k in value.keys if isinstance(k, ast.Constant))
    return found


def test_every_key_used_is_a_typed_key() -> None:
    keys = set(PanelExtras.__annotations__)
    used: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        if "sandbox" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for key in {*_USE.findall(text), *_literal_keys(path)}:
            used.setdefault(key, set()).add(path.relative_to(SRC).as_posix())
    assert {"constants", "live_profile", "saved_views", "clock"} <= set(used)
    assert {k: v for k, v in used.items() if k not in keys} == {}


def test_every_key_is_described_and_resolves() -> None:
    source = Path(registry.__file__).read_text(encoding="utf-8")
    body = source[source.index("class PanelExtras") : source.index("class PanelContext")]
    lines = body.splitlines()
    for key in PanelExtras.__annotations__:
        at = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{key}:"))
        assert lines[at - 1].strip().startswith("#:"), f"{key} has no description"
    from portal_admin.evidence.keys import SecretStore
    from portal_admin.evidence.trust import TrustStore
    from portal_admin.files.saved_views import ViewStore
    from portal_admin.ui.panels.constants_cache import ConstantsCache

    names = {
        "SecretStore": SecretStore,
        "TrustStore": TrustStore,
        "ViewStore": ViewStore,
        "ConstantsCache": ConstantsCache,
    }
    hints = get_type_hints(PanelExtras, localns=names)  # each type names a real class
    assert set(hints) == set(PanelExtras.__annotations__)
    assert PanelExtras.__total__ is False  # a context built by hand carries only some
