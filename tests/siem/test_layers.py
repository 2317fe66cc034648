"""Forwarding stays in its layer: the engine part (``evidence.forward``) and its command load
no Qt, no desktop program, no sandbox, and not the API client (it sends to a SIEM, never to
the portal): ``journal forward`` runs in a service with nothing else of the program."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys

import portal_admin.evidence.forward


def test_forwarding_imports_no_qt_ui_sandbox_or_client() -> None:
    modules = [
        f"portal_admin.evidence.forward.{m.name}"
        for m in pkgutil.iter_modules(portal_admin.evidence.forward.__path__)
    ]
    assert {"formats", "destinations", "cursor", "forwarder", "rebuild"} <= {
        m.rsplit(".", 1)[1] for m in modules
    }
    code = (
        "import importlib, sys\n"
        f"for name in {[*modules, 'portal_admin.cli.forward']!r}: importlib.import_module(name)\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'qasync',"
        " 'httpx', 'portal_admin.ui', 'portal_admin.sandbox', 'portal_admin.client'))]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ))
