"""The command line imports no Qt (nor the desktop program), whatever command runs."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys

import portal_admin.cli


def test_the_entry_point_imports_no_qt() -> None:
    code = (
        "import portal_admin.cli.main, sys;"
        " assert not any(m.startswith('PySide6') for m in sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ))


def test_no_module_of_the_command_line_imports_qt() -> None:
    modules = [
        f"portal_admin.cli.{m.name}"
        for m in pkgutil.iter_modules(portal_admin.cli.__path__)
        if m.name != "__main__"
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'qasync',"
        " 'portal_admin.ui'))]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ))
    assert "portal_admin.cli.bulk" in modules and "portal_admin.cli.signin" in modules


def test_commands_run_without_qt() -> None:
    """A query and a bulk run on the built-in sandbox (journaled) where PySide6 cannot load."""
    code = (
        "import sys\n"
        "sys.modules['PySide6'] = None\n"
        "from portal_admin.cli.main import main\n"
        "assert main(['--sandbox', 'accounts', 'query', '--email', 'emma.b']) == 0\n"
        "argv = ['--sandbox', 'bulk', 'update', '--field', 'remark', '--value', 'no Qt']\n"
        "assert main([*argv, '--all-matching', '--email', 'emma.b']) == 0\n"
        "sys.exit(main(['jobs', 'list']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "\nid " in done.stdout and " finished " in done.stdout
