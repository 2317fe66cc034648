"""The QApplication, made on its own (``main.py`` makes it while the program's modules are
being imported in a worker thread: see docs/performance.md, "Start-up")."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtWidgets import QApplication

from portal_admin import __version__
from portal_admin.files.paths import APP_NAME

#: Set to 1, the program times its own start-up (``ui/startup/probe.py``).
PROBE_ENV = "PORTAL_ADMIN_STARTUP_PROBE"


def create_qapp(argv: Sequence[str]) -> QApplication:
    """The QApplication (the existing one, if any), named so that settings and folders are
    found; with the start-up probe installed when ``PORTAL_ADMIN_STARTUP_PROBE=1``."""
    QApplication.setApplicationName(APP_NAME)
    QApplication.setApplicationDisplayName("System Portal Admin")
    QApplication.setApplicationVersion(__version__)
    QApplication.setOrganizationName("SystemPortal")
    existing = QApplication.instance()
    made = not isinstance(existing, QApplication)
    qapp = QApplication(list(argv)) if made else existing
    assert isinstance(qapp, QApplication)
    qapp.setQuitOnLastWindowClosed(False)
    if made and os.environ.get(PROBE_ENV) == "1":
        from portal_admin.ui.startup.probe import install

        install(qapp)
    return qapp
