"""Bulk changes in the accounts and invitations panels and the Jobs panel: selection, plan,
run, pause and resume, cancel, resuming an interrupted job, a bad import, the kiosk."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import qasync
from panel_support import AUDITOR, run, sign_in_as, wait_for
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from test_accounts_support import settle

from portal_admin import jobs
from portal_admin.client import PortalClient
from portal_admin.ui.bulk.dialog import BulkDialog
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.panels.accounts.accounts_panel import AccountsPanel
from portal_admin.ui.panels.invitations.panel import InvitationsPanel
from portal_admin.ui.panels.jobs.panel import JobsPanel
from portal_admin.ui.panels.registry import PanelContext

Make = Callable[..., PanelContext]


@pytest.fixture(autouse=True)
def own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(tmp_path / "portal-admin"))


@pytest.fixture
def auditor_read_only(loop: qasync.QEventLoop, sandbox_app: Any) -> Iterator[PortalClient]:
    """The auditor on a read-only client, as the kiosk signs in."""
    client = run(loop, sign_in_as(sandbox_app, *AUDITOR, read_only=True))
    yield client
    run(loop, client.aclose())


@pytest.fixture
def accounts(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> Iterator[AccountsPanel]:
    panel = AccountsPanel(panel_context(admin))
    qtbot.addWidget(panel)
    panel.resize(1180, 660)
    panel.show()
    task = panel.controller.start()
    assert task is not None
    run(loop, task)
    yield panel
    panel.close_tasks()


def select_rows(panel: AccountsPanel, rows: range) -> None:
    """Click the first row, shift-click the last (as a person selects a range)."""
    table = panel.view.table
    model = table.model()
    selection = table.selectionModel()
    flags = QItemSelectionModel.SelectionFlag
    selection.setCurrentIndex(model.index(rows[0], 0), flags.ClearAndSelect | flags.Rows)
    for r in rows[1:]:
        selection.select(model.index(r, 0), flags.Select | flags.Rows)


def open_bulk(panel: Any, kind: str) -> BulkDialog:
    dialog = panel.bulk.open_dialog(kind)
    return dialog


async def statuses(client: PortalClient, ids: set[str]) -> dict[str, str]:
    return {
        a.biz_id: a.account_status.code if a.account_status else ""
        async for a in client.accounts.iterate(size=100)
        if a.biz_id in ids
    }


def test_ctrl_a_and_ranges_select_many_rows(
    loop: qasync.QEventLoop, accounts: AccountsPanel, qtbot: QtBot
) -> None:
    table = accounts.view.table
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert len(accounts.view.selected_rows()) == table.model().rowCount() > 1
    select_rows(accounts, range(2, 7))
    assert len(accounts.bulk_sources().selected) == 5


def test_plan_then_run_on_the_selected_accounts(
    loop: qasync.QEventLoop, accounts: AccountsPanel, admin: PortalClient
) -> None:
    active = [
        i
        for i in range(accounts.controller.model.rowCount())
        if accounts.controller.model.row_at(i).account_status.code == "ACTIVE"
    ][:6]
    table = accounts.view.table
    selection = table.selectionModel()
    flags = QItemSelectionModel.SelectionFlag
    selection.clearSelection()
    for r in active:
        selection.select(table.model().index(r, 0), flags.Select | flags.Rows)
    chosen = {a.biz_id for a in accounts.view.selected_rows()}
    dialog = open_bulk(accounts, "status")
    assert dialog.use_selected.isChecked()
    job = run(loop, dialog.plan())
    assert job is not None and dialog.pages.currentIndex() == 1
    me = run(loop, admin.auth.profile()).biz_id
    expected = len(chosen - {me})
    assert dialog.to_change() == expected
    assert dialog.plan_model.rowCount() == len(chosen)
    assert run(loop, statuses(admin, chosen)) == dict.fromkeys(chosen, "ACTIVE")  # dry run
    assert dialog.run_button.isEnabled()
    progress = run(loop, dialog.run())
    assert progress is not None and progress.state is jobs.JobState.FINISHED
    assert progress.counts["done"] == expected
    after = run(loop, statuses(admin, chosen))
    assert {s for i, s in after.items() if i != me} == {"SUSPENDED"}
    assert "done" in dialog.counts.text()
    result = Path(dialog.job.path).with_suffix(".csv") if dialog.job else None
    assert result is not None and dialog.save(result, plan=False) == len(chosen)
    dialog.close()


def test_production_needs_the_count_typed(loop: qasync.QEventLoop, accounts: AccountsPanel) -> None:
    from portal_admin.ui.profiles.store import EnvironmentType

    accounts.context.profile = accounts.context.profile.replace(
        environment=EnvironmentType.PRODUCTION
    )
    dialog = open_bulk(accounts, "update")
    dialog.field.setCurrentIndex(3)  # remark
    dialog.value.setText("reviewed")
    dialog.use_matching.setChecked(True)
    run(loop, dialog.plan())
    count = dialog.to_change()
    assert count > 0 and dialog.confirm.isVisible()
    assert not dialog.run_button.isEnabled()
    dialog.confirm.setText(str(count + 1))
    assert not dialog.run_button.isEnabled()
    dialog.confirm.setText(str(count))
    assert dialog.run_button.isEnabled()
    dialog.close()  # not run: the plan is not kept
    assert jobs.list_jobs() == []


def test_pause_resume_and_cancel(
    loop: qasync.QEventLoop, accounts: AccountsPanel, admin: PortalClient
) -> None:
    dialog = open_bulk(accounts, "update")
    dialog.field.setCurrentIndex(0)  # language
    dialog.value.setText("vi")
    dialog.use_matching.setChecked(True)
    run(loop, dialog.plan())
    total = dialog.to_change()
    dialog.concurrency.setValue(1)

    async def pause_then_resume_then_cancel() -> jobs.Progress | None:
        task = asyncio.ensure_future(dialog.run())
        await wait_for(lambda: dialog.last_progress and dialog.last_progress.counts["done"] >= 3)
        dialog.pause_button.click()
        await wait_for(lambda: dialog.runner is not None and dialog.runner.paused)
        assert "Paused" in dialog.pause_note.text() and dialog.pause_button.text() == "Resume"
        held = dialog.runner.progress().counts["done"] if dialog.runner else 0
        await asyncio.sleep(0.1)
        assert dialog.runner is not None and dialog.runner.progress().counts["done"] <= held + 1
        dialog.pause_button.click()  # resume
        await wait_for(lambda: dialog.last_progress and dialog.last_progress.counts["done"] >= 8)
        dialog.cancel_button.click()
        return await task

    progress = run(loop, pause_then_resume_then_cancel())
    assert progress is not None and progress.state is jobs.JobState.CANCELLED
    assert 8 <= progress.counts["done"] < total
    assert progress.counts["cancelled"] > 0
    dialog.close()


def test_the_wait_for_unanswered_requests_is_shown(accounts: AccountsPanel) -> None:
    """A resumed job waits before reading back what a crash left unanswered, and says so."""
    dialog = open_bulk(accounts, "update")
    counts = {"planned": 2, "sending": 3, "done": 5}
    state = jobs.JobState.RUNNING
    dialog.show_progress(jobs.Progress(total=10, counts=counts, state=state, settling=41.6))
    assert dialog.rate.text() == (
        "Waiting 42 s, then reading back 3 targets whose outcome is unknown"
        " (the server may still be applying them)"
    )
    dialog.close()


def test_a_bad_import_names_the_line(
    loop: qasync.QEventLoop, accounts: AccountsPanel, tmp_path: Path
) -> None:
    bad = tmp_path / "list.csv"
    bad.write_bytes(b"email\nann@example.org\nb\xe9a@example.org\n")
    dialog = open_bulk(accounts, "reset-password")
    assert not dialog.load_file(str(bad))
    assert dialog.error.text() == "Line 3: The file is not UTF-8 text."
    dialog.paste.setPlainText("first,second\nx,y\n")
    assert run(loop, dialog.plan()) is None
    assert dialog.error.text().startswith("Line 1: No column is named email or id")
    dialog.close()


def test_an_endless_file_is_refused_without_reading_it_whole(
    accounts: AccountsPanel, tmp_path: Path
) -> None:
    dialog = open_bulk(accounts, "reset-password")
    assert not dialog.load_file("/dev/zero")
    assert dialog.error.text() == "The file is too large (64 MiB at most)."
    assert not dialog.paste.toPlainText()
    assert not dialog.use_list.isChecked()
    dialog.close()


def test_an_imported_list_keeps_unmatched_lines(
    loop: qasync.QEventLoop, accounts: AccountsPanel, tmp_path: Path
) -> None:
    rows = [accounts.controller.model.row_at(i) for i in range(3)]
    listed = tmp_path / "list.csv"
    listed.write_text(
        "email\n" + "".join(f"{r.account_email}\n" for r in rows) + "nobody@nowhere.test\n",
        encoding="utf-8",
    )
    dialog = open_bulk(accounts, "update")
    dialog.field.setCurrentIndex(3)
    dialog.value.setText("imported")
    assert dialog.load_file(str(listed)) and dialog.use_list.isChecked()
    job = run(loop, dialog.plan())
    assert job is not None
    assert job.skip_counts().get("NOT_FOUND") == 1
    labels = [dialog.plan_model.index(r, 0).data() for r in range(dialog.plan_model.rowCount())]
    assert "line 5: nobody@nowhere.test" in labels
    dialog.close()


def test_invitations_cancel_selected_and_invite_a_list(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    panel = InvitationsPanel(panel_context(admin))
    qtbot.addWidget(panel)
    panel.show()
    run(loop, panel.reload())
    dialog = open_bulk(panel, "invite")
    dialog.paste.setPlainText("one@bulk.test\ntwo@bulk.test\n")
    dialog.message.setText("Welcome")
    run(loop, dialog.plan())
    assert dialog.to_change() == 2
    assert run(loop, dialog.run()).counts["done"] == 2  # type: ignore[union-attr]
    dialog.close()
    run(loop, panel.reload())
    model = panel.model
    wanted = [
        r
        for r in range(model.rowCount())
        if model.row_at(r).invitee_email in ("one@bulk.test", "two@bulk.test")
    ]
    selection = panel.list_view.table.selectionModel()
    flags = QItemSelectionModel.SelectionFlag
    for r in wanted:
        selection.select(model.index(r, 0), flags.Select | flags.Rows)
    dialog = open_bulk(panel, "cancel-invitation")
    dialog.reason.setText("sent by mistake")
    assert dialog.use_selected.isChecked()
    run(loop, dialog.plan())
    assert run(loop, dialog.run()).counts["done"] == 2  # type: ignore[union-attr]
    statuses_now = {
        i.invitee_email: i.invitation_status.code
        for i in run(loop, admin.invitations.list())
        if i.invitation_status
    }
    assert statuses_now["one@bulk.test"] == statuses_now["two@bulk.test"] == "CANCELLED"
    dialog.close()
    panel.close_tasks()


def test_the_jobs_panel_resumes_an_interrupted_job(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    async def interrupted() -> jobs.JobFile:
        me = await admin.auth.profile()
        targets = [t async for t in jobs.targets.all_accounts(admin, status="ACTIVE")][:5]
        context = jobs.JobContext("Sandbox", str(admin.base_url), "admin", me.biz_id, "sandbox")
        job = await jobs.create_job(admin, jobs.UpdateField("remark", "resumed"), targets, context)
        await job.set_meta(state=jobs.JobState.RUNNING)  # as a program that died leaves it
        job.close()
        return job

    job = run(loop, interrupted())
    panel = JobsPanel(panel_context(admin))
    qtbot.addWidget(panel)
    panel.show()
    run(loop, panel.wait_idle())  # the job files are read in a worker thread
    assert [r.state for r in panel.rows] == ["interrupted"]
    # the words and the local time are shown; the job file's codes and UTC time on hover
    created = panel.table.item(0, 7)
    assert created.toolTip() == panel.rows[0].created
    assert created.text() == format_datetime(datetime.fromisoformat(panel.rows[0].created))
    assert "T" not in created.text()
    assert panel.table.item(0, 2).text() == "Interrupted"
    assert panel.table.item(0, 2).toolTip() == "interrupted"
    kind = panel.table.item(0, 1)
    assert (kind.text(), kind.toolTip()) == ("Set a field", panel.rows[0].kind)
    panel.table.selectRow(0)
    assert panel.resume_button.isEnabled()
    progress = run(loop, panel.resume_selected())
    assert progress is not None and progress.state is jobs.JobState.FINISHED
    assert [r.state for r in panel.rows] == ["finished"]
    assert jobs.JobFile.open(job.path).counts()["done"] >= 4
    panel.close_tasks()


def test_a_job_file_damaged_after_listing_is_said_not_raised(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    """Show and Resume open the job file in a worker thread; one damaged meanwhile (another
    program, a disk) is said above the list, and no window opens."""

    async def interrupted() -> jobs.JobFile:
        me = await admin.auth.profile()
        targets = [t async for t in jobs.targets.all_accounts(admin, status="ACTIVE")][:2]
        context = jobs.JobContext("Sandbox", str(admin.base_url), "admin", me.biz_id, "sandbox")
        job = await jobs.create_job(admin, jobs.UpdateField("remark", "x"), targets, context)
        await job.set_meta(state=jobs.JobState.RUNNING)
        job.close()
        return job

    job = run(loop, interrupted())
    panel = JobsPanel(panel_context(admin))
    qtbot.addWidget(panel)
    panel.show()
    run(loop, panel.wait_idle())
    panel.table.selectRow(0)
    job.path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4096)  # damaged after listing
    assert run(loop, panel.show_selected()) is None
    assert panel.error.isVisible() and panel.error.text()
    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, BulkDialog)]
    assert not any(w.isVisible() for w in shown)
    panel.error.clear_error()
    assert run(loop, panel.resume_selected()) is None
    assert panel.error.isVisible()
    panel.close_tasks()


def test_the_kiosk_has_no_bulk_actions(
    loop: qasync.QEventLoop, qtbot: QtBot, auditor_read_only: PortalClient, panel_context: Make
) -> None:
    panel = AccountsPanel(panel_context(auditor_read_only, kiosk=True))
    qtbot.addWidget(panel)
    panel.show()
    task = panel.controller.start()
    assert task is not None
    run(loop, task)
    run(loop, settle())
    assert not panel.bulk.isVisible()
    dialog = open_bulk(panel, "status")
    dialog.use_matching.setChecked(True)
    assert run(loop, dialog.plan()) is None  # the engine refuses a read-only client
    assert dialog.error.text() == "This session is read-only: no bulk change can be planned."
    assert jobs.list_jobs() == []
    dialog.close()
    panel.close_tasks()


def test_the_plan_shows_labels_with_their_codes_and_the_export_carries_both(
    loop: qasync.QEventLoop, accounts: AccountsPanel, tmp_path: Path
) -> None:
    import csv

    from portal_admin.ui.i18n.translators import LanguageManager

    model = accounts.controller.model
    active = [i for i in range(model.rowCount()) if model.row_at(i).account_status.code == "ACTIVE"]
    select_rows(accounts, range(active[1], active[1] + 1))
    dialog = open_bulk(accounts, "status")
    job = run(loop, dialog.plan())
    assert job is not None
    plan = dialog.plan_model
    cells = [plan.index(0, c).data() for c in (1, 2)]
    assert cells == ["Active", "Suspended"]  # not ACTIVE and SUSPENDED
    tip = Qt.ItemDataRole.ToolTipRole
    assert plan.index(0, 2).data(tip) == "Suspended (SUSPENDED)"
    out = tmp_path / "plan.csv"
    assert dialog.save(out, plan=True) == 1
    with out.open(encoding="utf-8-sig", newline="") as fh:
        line = next(csv.DictReader(fh))
    assert (line["new"], line["new (label)"]) == ("SUSPENDED", "Suspended")
    languages = LanguageManager()
    languages.set_language("vi")
    try:
        run(loop, settle(0.05))  # LanguageChange reaches the dialog
        assert [plan.index(0, c).data() for c in (1, 2)] == ["Đang hoạt động", "Bị tạm ngưng"]
        assert plan.index(0, 2).data(tip) == "Bị tạm ngưng (SUSPENDED)"
    finally:
        languages.set_language("en")
    dialog.close()
