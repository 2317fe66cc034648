"""Undo in the desktop program (#30): revert selected journal records from the Journal panel and
a whole job from the Jobs panel (plan shown, confirmed, run, targets back); a line changed
since shows before, after and now; the number of targets is typed on production and over the
threshold; the kiosk offers no revert; a broken journal and another server's record are
refused with their message, nothing sent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from portal_admin import jobs
from portal_admin.client import PortalClient
from portal_admin.evidence import journal as jr
from portal_admin.evidence.recorder import attach, journal_at
from portal_admin.jobs.targets import all_accounts
from portal_admin.ui.panels.evidence.journal_panel import JournalPanel
from portal_admin.ui.panels.jobs.panel import JobsPanel
from portal_admin.ui.panels.jobs.revert_plan import RevertWindow
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.profiles.store import EnvironmentType
from portal_admin.ui.tour.screenshots import save_screenshot
from support.forgery import append_forged

from ..panel_support import AUDITOR, SHOTS, run, sign_in_as, wait_for

pytestmark = pytest.mark.usefixtures("own_data_folder")

Make = Callable[..., PanelContext]
#: The profile the panel tests' context names (``sandbox_profile()``).
PROFILE = "Sandbox"


async def suspend(client: PortalClient, count: int, skip: int = 0) -> jobs.JobFile:
    """A bulk job suspending ``count`` active accounts (not the admin), run to its end."""
    me = await client.auth.profile()
    context = jobs.JobContext(PROFILE, str(client.base_url), me.account_email, me.biz_id, "sandbox")
    active = [t async for t in all_accounts(client, status="ACTIVE") if t.id != me.biz_id]
    chosen = active[skip : skip + count]
    job = await jobs.create_job(client, jobs.ChangeStatus("SUSPEND"), chosen, context)
    progress = await jobs.Runner(client, job, concurrency=4).run()
    assert progress.counts["done"] == count
    journal_at().flush()
    return job


async def statuses(client: PortalClient, ids: list[str]) -> dict[str, str]:
    found = {}
    for each in ids:
        account = await client.accounts.get(each)
        found[each] = account.account_status.code if account.account_status else ""
    return found


def journal_panel(loop: qasync.QEventLoop, qtbot: QtBot, context: PanelContext) -> JournalPanel:
    panel = JournalPanel(context, path=jr.default_journal_path())
    qtbot.addWidget(panel)
    panel.resize(1100, 500)
    panel.show()
    run(loop, panel.reload())
    return panel


def select_changes_of(panel: JournalPanel, targets: set[str]) -> list[int]:
    """Select the journal's change records of ``targets``; their seqs."""
    panel.table.clearSelection()
    panel.table.setSelectionMode(panel.table.SelectionMode.MultiSelection)
    for n, record in enumerate(panel.shown_rows):
        if record.get("kind") == "change" and set(record.get("targets") or []) & targets:
            panel.table.selectRow(n)
    return panel.selected_seqs()


def planned(loop: qasync.QEventLoop, window: RevertWindow | None) -> RevertWindow:
    assert window is not None and window.planning is not None
    run(loop, window.planning)
    return window


def test_revert_selected_records_from_the_journal_panel(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    job = run(loop, suspend(journaled, 3))
    ids = [i.target_id for i in job.items()]
    panel = journal_panel(loop, qtbot, panel_context(journaled))
    assert not panel.revert_button.isEnabled()  # nothing selected
    seqs = select_changes_of(panel, set(ids[:2]))
    assert len(seqs) == 2 and panel.revert_button.isEnabled()
    window = planned(loop, panel.open_revert())
    assert window.job is not None and window.to_change() == 2
    assert "Nothing has been sent. To set back: 2; skipped: none." in window.summary.text()
    assert [line[1:6] for line in window.lines()] == [
        ["Status", "Active", "Suspended", "Suspended", "Set back"]  # labels, not codes
    ] * 2
    assert not window.typed.isVisible()  # sandbox, 2 targets: nothing to type
    assert run(loop, statuses(journaled, ids)) == dict.fromkeys(ids, "SUSPENDED")  # dry run
    assert window.run_button.isEnabled()
    progress = run(loop, window.run())
    assert progress is not None and progress.counts["done"] == 2
    assert run(loop, statuses(journaled, ids)) == {
        ids[0]: "ACTIVE",
        ids[1]: "ACTIVE",
        ids[2]: "SUSPENDED",
    }
    dialog = window.run_dialog
    assert dialog is not None and dialog.job is not None
    assert jobs.revert.is_revert(dialog.job)
    assert "2 done" in dialog.counts.text()
    assert dialog.save(Path(dialog.job.path).with_suffix(".csv"), plan=False) == 2  # result file
    dialog.close()
    panel.close_tasks()


def test_revert_a_job_from_the_jobs_panel(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    job = run(loop, suspend(journaled, 4))
    ids = [i.target_id for i in job.items()]
    panel = JobsPanel(panel_context(journaled))
    qtbot.addWidget(panel)
    panel.show()
    run(loop, panel.wait_idle())  # the job files are read in a worker thread
    row = next(n for n, r in enumerate(panel.rows) if r.id == job.id)
    panel.table.selectRow(row)
    assert panel.revert_button.isVisible() and panel.revert_button.isEnabled()
    window = planned(loop, panel.revert_selected())
    assert window.to_change() == 4 and window.job is not None
    assert window.job.meta()["params"]["of_job"] == job.id
    progress = run(loop, window.run())
    assert progress is not None and progress.counts["done"] == 4
    assert set(run(loop, statuses(journaled, ids)).values()) == {"ACTIVE"}
    run(loop, panel.reload())
    kinds = {r.id: r.kind for r in panel.rows}
    assert window.run_dialog is not None and window.run_dialog.job is not None
    assert kinds[window.run_dialog.job.id] == "revert"
    shown = panel.table.item(next(n for n, r in enumerate(panel.rows) if r.kind == "revert"), 1)
    assert shown.text() == "Revert"
    window.run_dialog.close()


def test_a_target_changed_since_shows_before_after_and_now(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    journaled: PortalClient,
    sandbox_app: Any,
    panel_context: Make,
) -> None:
    job = run(loop, suspend(journaled, 2))
    first, second = [i.target_id for i in job.items()]
    # Someone changes the first one again after the job (as a second client would).
    run(loop, journaled.accounts.change_status(first, "DEACTIVATE"))
    journal_panel = JournalPanel(panel_context(journaled))
    qtbot.addWidget(journal_panel)  # deleted by qtbot, on this thread, after the test
    window = RevertWindow(journal_panel, job_id=job.id)
    qtbot.addWidget(window)
    window.show()
    run(loop, window.plan())
    lines = {line[0]: line for line in window.lines()}
    label = next(i.label for i in window.job.items() if i.target_id == first)  # type: ignore[union-attr]
    changed = lines[label]
    assert changed[1:6] == ["Status", "Active", "Suspended", "Deactivated", "Changed since"]
    assert "before Active, after Suspended, now Deactivated" in changed[6]
    assert "set it by hand" in changed[6]
    assert window.to_change() == 1
    assert "1 \u00d7 Changed since" in window.summary.text()
    save_screenshot(window, SHOTS / "revert-plan-changed-since.png")
    progress = run(loop, window.run())
    assert progress is not None and progress.counts["done"] == 1
    assert run(loop, statuses(journaled, [first, second])) == {
        first: "DEACTIVATED",  # left alone
        second: "ACTIVE",
    }
    assert window.run_dialog is not None
    window.run_dialog.close()


def test_production_needs_the_number_typed(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    job = run(loop, suspend(journaled, 3))
    ids = [i.target_id for i in job.items()]
    context = panel_context(journaled)
    context.profile = context.profile.replace(environment=EnvironmentType.PRODUCTION)
    journal_panel = JournalPanel(context)
    qtbot.addWidget(journal_panel)  # deleted by qtbot, on this thread, after the test
    window = RevertWindow(journal_panel, job_id=job.id)
    qtbot.addWidget(window)
    window.show()
    run(loop, window.plan())
    assert window.typed.isVisible() and window.typed.needed == 3
    assert "type 3 to confirm" in window.typed.label.text()
    assert not window.run_button.isEnabled()
    window.typed.field.setText("4")
    assert not window.run_button.isEnabled() and window.typed.wrong()
    assert run(loop, window.run()) is None  # refused: nothing sent
    assert set(run(loop, statuses(journaled, ids)).values()) == {"SUSPENDED"}
    window.typed.field.setText("3")
    assert window.run_button.isEnabled()
    progress = run(loop, window.run())
    assert progress is not None and progress.counts["done"] == 3
    assert set(run(loop, statuses(journaled, ids)).values()) == {"ACTIVE"}
    assert window.run_dialog is not None
    window.run_dialog.close()


def test_over_the_threshold_the_number_is_typed_off_production(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    """A revert of more than 100 targets is typed on any server (``jobs.confirmation_needed``,
    the command line's rule); one of 100 or fewer is not (the tests above)."""
    me = run(loop, journaled.auth.profile())
    context = jobs.JobContext(
        PROFILE, str(journaled.base_url), me.account_email, me.biz_id, "sandbox"
    )

    async def remark_all() -> jobs.JobFile:
        found = [t async for t in all_accounts(journaled) if t.id != me.biz_id]
        job = await jobs.create_job(
            journaled, jobs.UpdateField("remark", "reviewed"), found, context
        )
        assert job.counts()["planned"] > 100
        await jobs.Runner(journaled, job, concurrency=8).run()
        journal_at().flush()
        return job

    job = run(loop, remark_all(), timeout=120)
    count = job.counts()["done"]
    journal_panel = JournalPanel(panel_context(journaled))
    qtbot.addWidget(journal_panel)  # deleted by qtbot, on this thread, after the test
    window = RevertWindow(journal_panel, job_id=job.id)
    qtbot.addWidget(window)
    window.show()
    run(loop, window.plan())
    assert window.to_change() == count > 100
    assert window.typed.isVisible() and window.typed.needed == count
    assert not window.run_button.isEnabled()
    window.typed.field.setText(str(count - 1))
    assert not window.run_button.isEnabled()
    window.typed.field.setText(f"{count:,}")  # a thousands separator is fine
    assert window.run_button.isEnabled()
    progress = run(loop, window.run(), timeout=120)
    assert progress is not None and progress.counts["done"] == count
    assert window.run_dialog is not None
    window.run_dialog.close()


def test_the_kiosk_offers_no_revert(
    loop: qasync.QEventLoop, qtbot: QtBot, sandbox_app: Any, panel_context: Make
) -> None:
    kiosk = run(loop, sign_in_as(sandbox_app, *AUDITOR, read_only=True))
    try:
        context = panel_context(kiosk, kiosk=True)
        journal = JournalPanel(context, path=jr.default_journal_path())
        jobs_panel = JobsPanel(context)
        for panel in (journal, jobs_panel):
            qtbot.addWidget(panel)
            panel.show()
        run(loop, journal.reload())
        for panel in (journal, jobs_panel):  # their files are read in worker threads
            run(loop, panel.wait_idle())
        assert journal.revert_button.isHidden() and jobs_panel.revert_button.isHidden()
        journal.apply_permissions()
        jobs_panel.apply_permissions()
        assert journal.revert_button.isHidden() and jobs_panel.revert_button.isHidden()
        for panel in (journal, jobs_panel):
            menu = panel.table_actions.context_menu()
            assert not [a for a in menu.actions() if "evert" in a.text()]
        assert journal.open_revert() is None and jobs_panel.revert_selected() is None
        # The engine refuses a read-only client too, and the window says so.
        window = RevertWindow(journal, seqs=[1])
        qtbot.addWidget(window)
        assert run(loop, window.plan()) is None
        assert "read-only" in window.summary.text() and "Nothing was sent." in window.summary.text()
        assert not window.run_button.isEnabled()
    finally:
        run(loop, kiosk.aclose())


def test_a_broken_journal_is_refused_with_its_break_named(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    job = run(loop, suspend(journaled, 2))
    ids = [i.target_id for i in job.items()]
    path = jr.default_journal_path()
    lines = path.read_text(encoding="utf-8").splitlines()
    number, record = next(
        (n, json.loads(text))
        for n, text in enumerate(lines)
        if json.loads(text).get("kind") == "change"
    )
    record["before"] = {"status": "DEACTIVATED"}  # edited after it was written
    lines[number] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    journal_panel = JournalPanel(panel_context(journaled))
    qtbot.addWidget(journal_panel)  # deleted by qtbot, on this thread, after the test
    window = RevertWindow(journal_panel, job_id=job.id)
    qtbot.addWidget(window)
    window.show()
    assert run(loop, window.plan()) is None
    text = window.summary.text()
    assert "The journal does not verify, so nothing in it is reverted" in text
    assert f"at line {number + 1} (record {record['seq']})" in text
    assert "edited after it was written" in text and text.endswith("Nothing was sent.")
    assert window.job is None and not window.run_button.isEnabled()
    assert [
        p for p in jobs.list_jobs() if not p.name.startswith(job.id)
    ] == []  # no revert job kept
    assert set(run(loop, statuses(journaled, ids)).values()) == {"SUSPENDED"}
    save_screenshot(window, SHOTS / "revert-broken-journal.png")


def test_a_record_of_another_profile_is_refused(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    stop = attach(admin, profile="Staging", server=str(admin.base_url))
    try:
        job = run(loop, suspend(admin, 1))
    finally:
        stop()
    journal_panel = JournalPanel(panel_context(admin))
    qtbot.addWidget(journal_panel)  # deleted by qtbot, on this thread, after the test
    window = RevertWindow(journal_panel, job_id=job.id)
    qtbot.addWidget(window)
    assert run(loop, window.plan()) is None
    text = window.summary.text()
    assert "(profile Staging), not on the server signed in to" in text
    assert "sign in there to revert it. Nothing was sent." in text


def test_a_window_closed_while_planning_keeps_no_plan(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    job = run(loop, suspend(journaled, 2))
    journal_panel = JournalPanel(panel_context(journaled))
    qtbot.addWidget(journal_panel)  # deleted by qtbot, on this thread, after the test
    window = RevertWindow(journal_panel, job_id=job.id)
    qtbot.addWidget(window)
    window.show()

    async def close_meanwhile() -> jobs.JobFile | None:
        planning = asyncio.ensure_future(window.plan())
        await asyncio.sleep(0)
        window.close()
        return await planning

    assert run(loop, close_meanwhile()) is None and window.job is None
    assert [p.name for p in jobs.list_jobs()] == [f"{job.id}.job.sqlite3"]


def test_a_reason_typed_beside_run_is_sent_and_journaled(
    loop: qasync.QEventLoop, qtbot: QtBot, journaled: PortalClient, panel_context: Make
) -> None:
    job = run(loop, suspend(journaled, 2))
    panel = JobsPanel(panel_context(journaled))
    qtbot.addWidget(panel)
    panel.show()
    run(loop, panel.wait_idle())  # the job files are read in a worker thread
    panel.table.selectRow(next(n for n, r in enumerate(panel.rows) if r.id == job.id))
    window = planned(loop, panel.revert_selected())
    assert window.reason.isVisible() and window.reason_label.text() == "&Reason:"
    assert window.reason.placeholderText() == "Optional; kept with the change"
    window.reason.setFocus()
    qtbot.keyClicks(window.reason, "Ticket 4711: suspended by mistake")
    save_screenshot(window, SHOTS / "revert-reason.png")
    assert window.run_button.isEnabled() and window.isVisible()
    qtbot.mouseClick(window.run_button, Qt.MouseButton.LeftButton)
    run(loop, wait_for(lambda: window.closed, timeout=30))  # run to its end, then closed
    dialog = window.run_dialog
    assert dialog is not None and dialog.job is not None
    journal_at().flush()
    records = [
        r for r in jr.read() if r["kind"] == "change" and r["after"].get("job") == dialog.job.id
    ]
    assert len(records) == 2
    assert {r["fields"]["reason"] for r in records} == {"Ticket 4711: suspended by mistake"}
    dialog.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_forged_record_is_refused_in_the_readers_language(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    journaled: PortalClient,
    panel_context: Make,
    language: str,
) -> None:
    """A record appended to the journal by another hand (correctly chained, naming this
    job) is neither authenticated nor confirmed by the job file: the revert of the record
    is refused, and the job's revert leaves its line alone, said in the reader's words."""
    from portal_admin.ui.i18n.translators import LanguageManager

    job = run(loop, suspend(journaled, 2))
    path = jr.default_journal_path()
    last = list(jr.read(path))[-1]
    copy = {k: v for k, v in last.items() if k not in ("prev", "hash", "seq", "intent_seq", "time")}
    [forged] = append_forged(path, {**copy, "targets": ["NEVER-TOUCHED"]})
    languages = LanguageManager()
    languages.set_language(language)
    try:
        panel = JournalPanel(panel_context(journaled))
        qtbot.addWidget(panel)
        window = RevertWindow(panel, seqs=[forged])
        qtbot.addWidget(window)
        window.show()
        assert run(loop, window.plan()) is None and window.job is None
        text = window.summary.text()
        english = f"Records {forged} are not authenticated"
        assert (english in text) == (language == "en"), text
        assert str(forged) in text and "--accept-unauthenticated" not in text
        save_screenshot(window, SHOTS / f"revert-unauthenticated-{language}.png")
        whole = RevertWindow(panel, job_id=job.id)
        qtbot.addWidget(whole)
        whole.show()
        assert run(loop, whole.plan()) is not None
        assert whole.to_change() == 2
        cells = whole.lines()
        doubtful = next(line for line in cells if line[0] == "NEVER-TOUCHED")
        assert (doubtful[5] == "Not authenticated") == (language == "en"), doubtful
        save_screenshot(whole, SHOTS / f"revert-job-unauthenticated-{language}.png")
        whole.close()
    finally:
        languages.set_language("en")
