"""The Journal, Jobs and Snapshots panels follow their files whoever writes them (this
program's revert window, the engine the command line runs, another window): no F5 needed; a
hidden panel reloads when shown; each has a Refresh button; the journal names the accounts it
lists (the id a hover away)."""

from __future__ import annotations

import asyncio
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import qasync
from panel_support import run, wait_for
from PySide6.QtCore import QCoreApplication, Qt
from pytestqt.qtbot import QtBot

from portal_admin import jobs
from portal_admin.client import PortalClient
from portal_admin.evidence import journal as jr
from portal_admin.evidence import snapshot as snapshots
from portal_admin.evidence.recorder import attach, journal_at
from portal_admin.jobs.targets import all_accounts
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.panels.evidence.journal_panel import JournalPanel
from portal_admin.ui.panels.evidence.snapshots_panel import SnapshotsPanel
from portal_admin.ui.panels.jobs.panel import JobsPanel
from portal_admin.ui.panels.jobs.revert_plan import RevertWindow
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import save_screenshot

Make = Callable[..., PanelContext]
PROFILE = "Sandbox"


@pytest.fixture(autouse=True)
def own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def journaled(admin: PortalClient) -> Iterator[PortalClient]:
    stop = attach(admin, profile=PROFILE, server=str(admin.base_url))
    yield admin
    stop()


async def suspend(client: PortalClient, count: int) -> jobs.JobFile:
    """A bulk job suspending ``count`` active accounts, as the command line runs one."""
    me = await client.auth.profile()
    context = jobs.JobContext(PROFILE, str(client.base_url), me.account_email, me.biz_id, "sandbox")
    active = [t async for t in all_accounts(client, status="ACTIVE") if t.id != me.biz_id]
    job = await jobs.create_job(client, jobs.ChangeStatus("SUSPEND"), active[:count], context)
    await jobs.Runner(client, job, concurrency=2).run()
    journal_at().flush()
    return job


def records_said(panel: JournalPanel) -> int:
    found = re.search(r"(\d+) records", panel.chain.text())
    return int(found.group(1)) if found else -1


def test_the_journal_follows_a_revert_and_names_the_accounts(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    journaled: PortalClient,
    panel_context: Make,
    shots: Path,
) -> None:
    job = run(loop, suspend(journaled, 2))
    panel = JournalPanel(panel_context(journaled), path=jr.default_journal_path())
    qtbot.addWidget(panel)
    panel.resize(1200, 500)
    panel.show()
    run(loop, wait_for(lambda: panel.loaded and not panel.loading))
    run(loop, panel.wait_idle())  # the names too
    before = records_said(panel)
    assert before > 0 and panel.refresh_button.isVisible()
    # Names where ids were: the account's name shown, its id in the tooltip.
    targets = [i.target_id for i in job.items()]
    names = {t: run(loop, journaled.accounts.get(t)).account_name for t in targets}
    column = next(
        n
        for n in range(panel.table.columnCount())
        if panel.table.horizontalHeaderItem(n).text() == "Targets"
    )
    shown = {panel.table.item(r, column).text() for r in range(panel.table.rowCount())}
    assert set(names.values()) <= shown
    assert not set(targets) & shown
    first = next(
        r
        for r in range(panel.table.rowCount())
        if panel.table.item(r, column).text() == names[targets[0]]
    )
    assert targets[0] in panel.table.item(first, column).toolTip()
    # The job reverted from the Jobs panel (its own window and journal writer): the Journal
    # panel, which nobody tells, follows its file.
    jobs_panel = JobsPanel(panel_context(journaled))
    qtbot.addWidget(jobs_panel)
    window = RevertWindow(jobs_panel, job_id=job.id)
    qtbot.addWidget(window)
    run(loop, window.plan())
    assert run(loop, window.run()) is not None
    journal_at().flush()
    run(loop, wait_for(lambda: records_said(panel) > before, timeout=10))
    assert "The chain verifies" in panel.chain.text()
    save_screenshot(panel, shots / "journal-after-revert.png")
    assert window.run_dialog is not None
    window.run_dialog.close()
    window.close()


def test_the_journal_refresh_button_and_a_hidden_panel(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    run(loop, suspend(journaled, 1))
    panel = JournalPanel(panel_context(journaled), path=jr.default_journal_path())
    qtbot.addWidget(panel)
    panel.show()
    run(loop, wait_for(lambda: panel.loaded and not panel.loading))
    before = records_said(panel)
    panel.hide()
    run(loop, suspend(journaled, 1))  # while hidden: nothing is read...
    run(loop, wait_for(lambda: not panel.loaded, timeout=10))  # ...but it is known stale
    assert records_said(panel) == before
    panel.show()  # read again as it shows
    run(loop, wait_for(lambda: records_said(panel) > before, timeout=10))
    # The Refresh button reads a journal the watch was not told about (the watch is off).
    assert panel.file_watch is not None
    panel.file_watch.changed.disconnect()
    count = records_said(panel)
    journal_at().append({"kind": "note", "time": "2026-01-01T00:00:00Z"})
    journal_at().flush()
    qtbot.mouseClick(panel.refresh_button, Qt.MouseButton.LeftButton)
    run(loop, wait_for(lambda: records_said(panel) == count + 1, timeout=10))


def test_the_jobs_panel_lists_a_job_run_elsewhere(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    panel = JobsPanel(panel_context(journaled))
    qtbot.addWidget(panel)
    panel.show()
    run(loop, wait_for(lambda: panel.loaded and not panel.loading))
    assert panel.rows == []
    job = run(loop, suspend(journaled, 1))  # the engine, as the command line runs it
    run(loop, wait_for(lambda: [r.id for r in panel.rows] == [job.id], timeout=10))
    assert panel.table.rowCount() == 1


def test_the_jobs_panel_reads_its_files_only_on_job_changes_and_when_shown(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    admin: PortalClient,
    panel_context: Make,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """#38: the job files are read through jobs/summary.py in a worker thread, again when a
    job run here changes (not on any change anywhere in the program), and a hidden panel
    does no work until it is shown."""
    from PySide6.QtCore import QThread
    from PySide6.QtWidgets import QApplication

    from portal_admin.ui.bulk.dialog import JOBS_TOPIC
    from portal_admin.ui.panels.jobs import panel as jobs_panel

    reads: list[bool] = []  # one per reading: was it on the GUI thread?
    real = jobs_panel.read_jobs

    def counted(folder: Path | None = None) -> list[jobs.JobSummary]:
        reads.append(QThread.currentThread() is QApplication.instance().thread())
        return real(folder)

    monkeypatch.setattr(jobs_panel, "read_jobs", counted)
    context = panel_context(admin)
    panel = JobsPanel(context)
    qtbot.addWidget(panel)
    panel.show()
    run(loop, wait_for(lambda: panel.loaded and not panel.loading))
    assert reads == [False]
    context.runner.publish({"accounts"})  # an account edited, a channel saved: no job changed
    context.runner.publish({"channels"})
    run(loop, asyncio.sleep(0.3))
    assert len(reads) == 1
    context.runner.publish({"accounts", JOBS_TOPIC})  # a bulk job ran in this program
    run(loop, wait_for(lambda: len(reads) == 2 and not panel.loading))
    panel.hide()
    context.runner.publish({JOBS_TOPIC})
    run(loop, asyncio.sleep(0.3))
    assert len(reads) == 2  # hidden: nothing read
    panel.show()
    run(loop, wait_for(lambda: len(reads) == 3 and panel.loaded and not panel.loading))
    assert reads == [False, False, False]


def test_the_snapshots_list_follows_its_folder(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make, tmp_path: Path
) -> None:
    folder = tmp_path / "snapshots"
    panel = SnapshotsPanel(panel_context(admin), folder=folder)
    qtbot.addWidget(panel)
    panel.show()
    run(loop, wait_for(lambda: panel.loaded and not panel.loading))
    assert panel.snapshots == [] and panel.refresh_button.isVisible()
    elsewhere = tmp_path / "made-elsewhere.sqlite"
    run(
        loop,
        snapshots.take_snapshot(
            admin, elsewhere, profile=PROFILE, server=str(admin.base_url), account="cli"
        ),
    )
    folder.mkdir(parents=True)  # the folder did not exist: its parent was watched
    shutil.copy(elsewhere, folder / elsewhere.name)
    run(loop, wait_for(lambda: len(panel.snapshots) == 1, timeout=10))
    assert panel.table.rowCount() == 1
    assert QCoreApplication.translate("SnapshotsPanel", "Refresh") == panel.refresh_button.text()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_picture_of_the_journal_after_a_revert(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    journaled: PortalClient,
    panel_context: Make,
    shots: Path,
    language: str,
) -> None:
    """The Journal panel after a revert: its Refresh button, the accounts by name (looked at
    in English and Japanese)."""
    job = run(loop, suspend(journaled, 2))
    jobs_panel = JobsPanel(panel_context(journaled))
    qtbot.addWidget(jobs_panel)
    window = RevertWindow(jobs_panel, job_id=job.id)
    qtbot.addWidget(window)
    run(loop, window.plan())
    assert run(loop, window.run()) is not None
    journal_at().flush()
    assert window.run_dialog is not None
    window.run_dialog.close()
    window.close()
    languages = LanguageManager()
    languages.set_language(language)
    try:
        panel = JournalPanel(panel_context(journaled), path=jr.default_journal_path())
        qtbot.addWidget(panel)
        panel.resize(1300, 420)
        panel.show()
        run(loop, wait_for(lambda: panel.loaded and not panel.loading))
        run(loop, panel.wait_idle())
        names = {run(loop, journaled.accounts.get(i.target_id)).account_name for i in job.items()}
        shown = {panel.table.item(r, 4).text() for r in range(panel.table.rowCount())}
        assert names <= shown and panel.table.rowCount() == 4  # two changes, two set back
        assert panel.refresh_button.text() == QCoreApplication.translate("JournalPanel", "Refresh")
        save_screenshot(panel, shots / f"journal-after-revert-{language}.png")
    finally:
        languages.set_language("en")
