"""``--self-check``: a JSON report for the frozen program's smoke test; no window is shown."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QTranslator
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from portal_admin import __version__
from portal_admin.ui.i18n.translators import DEFAULT_LANGUAGE, I18N_DIR, LANGUAGES, load_qtbase
from portal_admin.ui.mainwindow.about import versions


def keyring_report() -> dict[str, Any]:
    """The keyring backend's name and whether it is the fail backend (no usable keyring)."""
    try:
        import keyring
        from keyring.backends import fail

        backend = keyring.get_keyring()
    except Exception as exc:  # a broken keyring installation is a finding, not a crash
        return {"backend": None, "fail": True, "error": f"{type(exc).__name__}: {exc}"}
    name = f"{type(backend).__module__}.{type(backend).__qualname__}"
    return {"backend": name, "fail": isinstance(backend, fail.Keyring)}


def translations_report() -> dict[str, dict[str, Any]]:
    """Per language: does the program's .qm load (None: not shipped), does Qt's qtbase load."""
    report: dict[str, dict[str, Any]] = {}
    for code, language in LANGUAGES.items():
        if code == DEFAULT_LANGUAGE:
            report[code] = {"program": None, "qtbase": None, "ok": True}
            continue
        path = I18N_DIR / language.qm_name
        program: bool | None = None
        if path.is_file():
            program = QTranslator().load(str(path))
        qtbase = load_qtbase(language) is not None
        report[code] = {"program": program, "qtbase": qtbase, "ok": qtbase and program is not False}
    return report


def files_report() -> dict[str, Any]:
    """The file rules (owner-only, durable rename, offset read, read-only SQLite, OS lock)
    tried in a temporary folder (files/portable.self_test)."""
    import tempfile
    from pathlib import Path

    from portal_admin.files.portable import self_test

    with tempfile.TemporaryDirectory(prefix="portal-admin-self-check-") as folder:
        problems = self_test(Path(folder))
    return {"ok": not problems, "problems": problems}


def self_check() -> dict[str, Any]:
    """Everything the smoke test looks at (a QGuiApplication must exist)."""
    return {
        "version": __version__,
        "versions": versions(),
        "platform": QGuiApplication.platformName(),
        "keyring": keyring_report(),
        "translations": translations_report(),
        "files": files_report(),
    }


def run_self_check(argv: Sequence[str]) -> int:
    """Print the report as JSON on stdout and return 0."""
    existing = QApplication.instance()
    app = existing if existing is not None else QApplication(list(argv))
    json.dump(self_check(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    sys.stdout.flush()
    del app
    return 0
