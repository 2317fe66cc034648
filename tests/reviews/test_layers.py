"""The reviews package stays in its layer: no Qt, no desktop program, no sandbox."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys

import portal_admin.reviews


def test_no_module_of_reviews_imports_qt_the_ui_or_the_sandbox() -> None:
    modules = [
        f"portal_admin.reviews.{m.name}"
        for m in pkgutil.iter_modules(portal_admin.reviews.__path__)
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'qasync',"
        " 'portal_admin.ui', 'portal_admin.sandbox'))]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ))
    assert "portal_admin.reviews.signoff" in modules and "portal_admin.reviews.closing" in modules
