"""A bulk job's window closed after its run, then the language switched: the window is
retranslated without reading its closed job file (it read it, raised inside Qt's event
handler, and the process crashed in shiboken's error printing)."""

from __future__ import annotations

import pytest
import qasync
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.panels.jobs.panel import JobsPanel
from portal_admin.ui.panels.jobs.revert_plan import RevertWindow

from ..panel_support import Make, run
from .support import suspend

pytestmark = pytest.mark.usefixtures("own_data_folder")


def test_a_closed_run_window_follows_a_language_change(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    job = run(loop, suspend(journaled, 1))
    jobs_panel = JobsPanel(panel_context(journaled))
    qtbot.addWidget(jobs_panel)
    window = RevertWindow(jobs_panel, job_id=job.id)
    qtbot.addWidget(window)
    run(loop, window.plan())
    assert run(loop, window.run()) is not None
    dialog = window.run_dialog
    assert dialog is not None
    dialog.close()
    assert dialog.job is None  # closed with its window
    languages = LanguageManager()
    languages.set_language("ja")
    try:
        qtbot.wait(50)  # the LanguageChange events are delivered
        assert dialog.windowTitle() != "Bulk change: Revert"
        assert "一括" in dialog.windowTitle()
    finally:
        languages.set_language("en")
    qtbot.wait(50)
    assert dialog.windowTitle().startswith("Bulk change")
