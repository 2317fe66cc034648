"""Every list has the same context menu (the panel's row actions, then the copies), keys and,
where an action applies to several rows, multi-select (``ui/lists/table_actions.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import qasync
from panel_support import answer_box, open_box, run, wait_for
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit, QMenu
from pytestqt.qtbot import QtBot
from test_constants_panel import build as build_constants
from test_evidence_panels import _journal
from test_portals_panel import build as build_portals
from test_portals_panel import fill_form
from test_roles_panel import build as build_roles
from test_roles_panel import select as select_role

from portal_admin import jobs
from portal_admin.client import PortalClient
from portal_admin.connection.builtin import colleague_change
from portal_admin.evidence import keys
from portal_admin.ui.bulk.dialog import BulkDialog
from portal_admin.ui.panels.evidence.journal_panel import JournalPanel
from portal_admin.ui.panels.evidence.snapshots_panel import SnapshotsPanel
from portal_admin.ui.panels.jobs.panel import JobsPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.security.history import LoginHistoryPanel
from portal_admin.ui.panels.security.ip_whitelist import IpWhitelistPanel
from portal_admin.ui.panels.security.ip_whitelist_model import ENTRY, KIND
from portal_admin.ui.panels.security.mfa import MfaPanel
from portal_admin.ui.panels.security.sessions import SessionsPanel

Make = Callable[..., PanelContext]
EXTENDED = QAbstractItemView.SelectionMode.ExtendedSelection
ONE = ["Copy cell", "Copy row as text", "Copy row as CSV"]
SEVERAL = ["Copy cell", "Copy rows as text", "Copy rows as CSV"]
SEEDED = ["203.0.113.0/24", "198.51.100.23", "2001:db8::/32"]


def select(view: QAbstractItemView, *rows: int) -> None:
    """Make ``rows[0]`` current and select ``rows`` (as Ctrl+click does)."""
    flags = QItemSelectionModel.SelectionFlag
    selection = view.selectionModel()
    view.setCurrentIndex(view.model().index(rows[0], 0))
    selection.clearSelection()
    for row in rows:
        selection.select(view.model().index(row, 0), flags.Select | flags.Rows)


def texts(menu: QMenu) -> list[str]:
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def clipboard() -> str:
    return QGuiApplication.clipboard().text()


async def no_box() -> bool:
    """True when no confirmation opened."""
    await asyncio.sleep(0.1)
    return open_box() is None


# -- security ----------------------------------------------------------------------------------


def test_sessions_are_copied_several_at_once(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Make, qtbot: QtBot
) -> None:
    panel = SessionsPanel(panel_context(admin))
    qtbot.addWidget(panel)
    assert run(loop, panel.reload())
    actions = panel.table_actions
    assert panel.table.selectionMode() == EXTENDED
    select(panel.table, 0, 1)
    assert texts(actions.context_menu()) == SEVERAL  # the server cannot end a session
    assert actions.selected_rows() == list(panel.model.rows[:2])
    actions.copy_rows_text()
    lines = clipboard().splitlines()
    assert lines[0] == "Device\tClient IP\tUser agent\tSigned in\tLast activity"
    assert len(lines) == 3 and panel.model.rows[1].client_ip in lines[2]


def test_the_sign_in_chart_table_copies_several_days(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Make, qtbot: QtBot
) -> None:
    panel = LoginHistoryPanel(panel_context(admin))
    qtbot.addWidget(panel)
    run(loop, panel.reload())
    table = panel.chart_table
    assert table.selectionMode() == EXTENDED and table.model().rowCount() >= 2
    select(table, 0, 1)
    assert texts(panel.chart_actions.context_menu()) == SEVERAL
    panel.chart_actions.copy_rows_text()
    lines = clipboard().splitlines()
    assert lines[0] == "Day\tSuccessful\tFailed\tTotal" and len(lines) == 3
    assert lines[1].split("\t")[0] == table.model().index(0, 0).data()
    panel.close_tasks()


def test_mfa_delete_on_the_authenticator_asks_to_revoke_it(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Make, qtbot: QtBot
) -> None:
    panel = MfaPanel(panel_context(admin))
    qtbot.addWidget(panel)
    assert run(loop, panel.reload())
    rows = panel.model.rows
    otp = next(r for r, s in enumerate(rows) if s.mfa_method.is_("OTP"))
    email = next(r for r, s in enumerate(rows) if not s.mfa_method.is_("OTP"))
    select(panel.table, otp)
    menu = panel.table_actions.context_menu()
    assert texts(menu) == ["Revoke authenticator\u2026", *ONE]
    assert menu.actions()[0].isEnabled()

    async def scenario() -> str:
        select(panel.table, email)
        qtbot.keyClick(panel.table, Qt.Key.Key_Delete)
        assert await no_box()  # email codes cannot be removed
        select(panel.table, otp)
        qtbot.keyClick(panel.table, Qt.Key.Key_Delete)
        return await answer_box(False)

    assert "authenticator" in run(loop, scenario())
    otp_setting = next(
        s for s in run(loop, admin.security.mfa_settings()) if s.mfa_method.is_("OTP")
    )
    assert otp_setting.is_enabled  # declined: nothing revoked


def test_mfa_menu_shows_why_the_auditor_cannot_revoke(
    loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Make, qtbot: QtBot
) -> None:
    panel = MfaPanel(panel_context(auditor))
    qtbot.addWidget(panel)
    assert run(loop, panel.reload())
    select(panel.table, 0)
    revoke = panel.table_actions.context_menu().actions()[0]
    assert not revoke.isEnabled() and "account:security:write" in revoke.toolTip()


def whitelist(loop: qasync.QEventLoop, qtbot: QtBot, context: PanelContext) -> IpWhitelistPanel:
    panel = IpWhitelistPanel(context)
    qtbot.addWidget(panel)
    panel.show()
    assert run(loop, panel.reload())
    return panel


def test_whitelist_delete_removes_the_selected_entries_and_f2_edits(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Make, qtbot: QtBot
) -> None:
    panel = whitelist(loop, qtbot, panel_context(admin))
    table = panel.table
    assert table.selectionMode() == EXTENDED
    select(table, 0, 2)
    menu = panel.table_actions.context_menu()
    assert texts(menu) == ["&Remove", *SEVERAL, "Copy ids"]
    assert menu.actions()[0].isEnabled()
    panel.table_actions.copy_id()
    assert clipboard() == f"{SEEDED[0]}\n{SEEDED[2]}"
    qtbot.keyClick(table, Qt.Key.Key_Delete)
    assert panel.model.entries() == [SEEDED[1]]
    assert panel.save_button.isEnabled()  # removed here; the server changes on Save (asked)
    assert [e.ip for e in run(loop, admin.security.ip_whitelist()).entries] == SEEDED
    table.setCurrentIndex(panel.model.index(0, KIND))
    qtbot.keyClick(table, Qt.Key.Key_F2)
    assert table.state() == QAbstractItemView.State.EditingState
    assert table.currentIndex().column() == ENTRY
    editor = table.findChild(QLineEdit, "entryEditor")
    assert editor is not None and editor.text() == SEEDED[1]


def test_whitelist_keys_do_nothing_the_auditor_may_not(
    loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Make, qtbot: QtBot
) -> None:
    panel = whitelist(loop, qtbot, panel_context(auditor))
    assert panel.model.rowCount() == 0  # the auditor has no whitelist: one shown as if read
    panel.model.set_entries(run(loop, auditor.security.ip_whitelist()).entries)
    for entry in SEEDED:
        panel.model.add_entry(entry)
    select(panel.table, 1)
    remove = panel.table_actions.context_menu().actions()[0]
    assert not remove.isEnabled() and "account:security:write" in remove.toolTip()
    qtbot.keyClick(panel.table, Qt.Key.Key_Delete)
    qtbot.keyClick(panel.table, Qt.Key.Key_F2)
    assert panel.model.entries() == SEEDED
    assert panel.table.state() != QAbstractItemView.State.EditingState


# -- accounts: roles and portals ---------------------------------------------------------------


def test_roles_menu_delete_key_and_codes(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Make, qtbot: QtBot
) -> None:
    panel = build_roles(loop, qtbot, panel_context(admin))
    owner = select_role(loop, panel, "Owner")
    menu = panel.table_actions.context_menu()
    assert texts(menu) == ["Delete role\u2026", *ONE, "Copy id"]
    assert not menu.actions()[0].isEnabled()
    assert menu.actions()[0].toolTip() == panel.detail.reason.text() != ""
    panel.table_actions.copy_id()
    assert clipboard() == owner.biz_id
    select_role(loop, panel, "Reporting")
    assert panel.table_actions.context_menu().actions()[0].isEnabled()

    async def press_delete() -> str:
        qtbot.keyClick(panel.table, Qt.Key.Key_Delete)
        return await answer_box(False)

    assert "\u201cReporting\u201d" in run(loop, press_delete())
    assert "Reporting" in [r.role_name for r in panel.controller.model.rows]
    # The permission codes: copied, several at once.
    role = select_role(loop, panel, "Owner")
    codes = panel.detail.codes
    assert codes.selectionMode() == EXTENDED and codes.count() == len(role.permission_codes) >= 2
    select(codes, 0, 1)
    assert texts(panel.detail.codes_actions.context_menu()) == SEVERAL
    panel.detail.codes_actions.copy_rows_text()
    assert clipboard().splitlines() == list(role.permission_codes[:2])
    panel.close_tasks()


def test_portals_enter_shows_the_portal_and_the_menu_copies(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Make, qtbot: QtBot
) -> None:
    panel = build_portals(loop, qtbot, panel_context(admin))
    fill_form(panel, "TENANT", "shop.example.test")
    first = run(loop, panel.submit())
    fill_form(panel, "PARTNER", "partners.example.test")
    assert run(loop, panel.submit()) is not None and first is not None
    table = panel.table
    assert table.selectionMode() == EXTENDED
    select(table, 0, 1)
    assert texts(panel.table_actions.context_menu()) == [*SEVERAL, "Copy ids"]
    select(table, 1)
    qtbot.keyClick(table, Qt.Key.Key_Return)
    assert panel.created_values["id"].text() == str(first.id)
    assert panel.created_values["domain"].text() == "shop.example.test"
    panel.close_tasks()


# -- jobs and the bulk window ------------------------------------------------------------------


@pytest.fixture
def own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(tmp_path / "portal-admin"))


async def interrupted_jobs(admin: PortalClient, n: int) -> list[jobs.JobFile]:
    """``n`` jobs left running by a program that died (as test_bulk makes one)."""
    me = await admin.auth.profile()
    targets = [t async for t in jobs.targets.all_accounts(admin, status="ACTIVE")][:3]
    context = jobs.JobContext("Sandbox", str(admin.base_url), "admin", me.biz_id, "sandbox")
    made = []
    for i in range(n):
        job = await jobs.create_job(admin, jobs.UpdateField("remark", f"r{i}"), targets, context)
        await job.set_meta(state=jobs.JobState.RUNNING)
        job.close()
        made.append(job)
    return made


def test_jobs_menu_show_and_resume_for_one_job_enter_shows_it(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Make,
    qtbot: QtBot,
    own_data_folder: None,
) -> None:
    made = run(loop, interrupted_jobs(admin, 2))
    panel = JobsPanel(panel_context(admin))
    qtbot.addWidget(panel)
    panel.show()
    run(loop, panel.wait_idle())  # the job files are read in a worker thread
    table = panel.table
    assert len(panel.rows) == 2 and table.selectionMode() == EXTENDED
    select(table, 0)
    menu = panel.table_actions.context_menu()
    assert texts(menu) == ["&Show\u2026", "&Resume", "Rever&t the job\u2026", *ONE, "Copy id"]
    assert all(a.isEnabled() for a in menu.actions()[:3])
    select(table, 0, 1)
    menu = panel.table_actions.context_menu()
    show, resume, revert = menu.actions()[:3]
    assert not show.isEnabled() and not resume.isEnabled() and not revert.isEnabled()
    assert show.toolTip() == resume.toolTip() == revert.toolTip() == "Select one job."
    assert panel.selected() is None
    panel.table_actions.copy_id()
    assert sorted(clipboard().splitlines()) == sorted(j.id for j in made)

    select(table, 1)
    qtbot.keyClick(table, Qt.Key.Key_Return)
    run(loop, panel.wait_idle())  # the job file is opened in a worker thread
    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, BulkDialog)]
    dialog = next(w for w in shown if w.isVisible())
    assert dialog.job is not None and dialog.job.id == panel.rows[1].id
    # The plan and result tables: copied, several lines at once.
    for view, actions in (
        (dialog.table, dialog.plan_actions),
        (dialog.result_table, dialog.result_actions),
    ):
        assert view.selectionMode() == EXTENDED
        view.selectAll()
        assert texts(actions.context_menu()) == SEVERAL
        actions.copy_rows_text()
        lines = clipboard().splitlines()
        assert len(lines) == 1 + dialog.plan_model.rowCount() == 4
        assert lines[0].split("\t")[0] == dialog.plan_model.headerData(0, Qt.Orientation.Horizontal)
    dialog.close()
    panel.close_tasks()


# -- evidence ----------------------------------------------------------------------------------


def test_the_journal_copies_several_records_and_their_request_ids(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Make, qtbot: QtBot, tmp_path: Path
) -> None:
    path = tmp_path / "journal.jsonl"
    _journal(path, 4)
    panel = JournalPanel(panel_context(admin), path=path, key_store=keys.MemoryStore())
    qtbot.addWidget(panel)
    run(loop, panel.reload())
    assert panel.table.selectionMode() == EXTENDED
    select(panel.table, 0, 1)
    assert texts(panel.table_actions.context_menu()) == ["&Revert\u2026", *SEVERAL, "Copy ids"]
    panel.table_actions.copy_id()
    assert clipboard() == "req-3\nreq-2"  # newest first
    panel.table_actions.copy_rows_csv()
    lines = clipboard().splitlines()
    assert lines[0].startswith('"#","Time","Account","Operation"') and len(lines) == 3
    panel.close_tasks()


def test_snapshots_menu_compare_and_pack_enter_compares_and_the_diff_copies(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Make,
    qtbot: QtBot,
    tmp_path: Path,
    sandbox_app: Any,
) -> None:
    panel = SnapshotsPanel(
        panel_context(admin), folder=tmp_path / "snapshots", key_store=keys.MemoryStore()
    )
    qtbot.addWidget(panel)
    panel.show()
    run(loop, panel.reload())
    assert run(loop, panel.take()) is not None
    colleague_change(sandbox_app)  # something to compare
    assert run(loop, panel.take()) is not None
    table = panel.table
    select(table, 0)
    menu = panel.table_actions.context_menu()
    assert texts(menu) == ["Compare the two selected", "Evidence pack\u2026", *ONE, "Copy id"]
    compare, pack = menu.actions()[:2]
    assert not compare.isEnabled() and compare.toolTip() == "Select two snapshots."
    assert pack.isEnabled()
    select(table, 0, 1)
    compare, pack = panel.table_actions.context_menu().actions()[:2]
    assert compare.isEnabled() and not pack.isEnabled()
    assert pack.toolTip() == "Select one snapshot."
    panel.table_actions.copy_id()
    assert sorted(clipboard().splitlines()) == sorted(s.path.name for s in panel.snapshots)

    async def enter() -> Any:
        qtbot.keyClick(table, Qt.Key.Key_Return)
        return await wait_for(lambda: panel.diff_view.diff, timeout=30)

    assert run(loop, enter()) is not None  # Enter compared the two selected
    view = panel.diff_view
    assert view.table.selectionMode() == EXTENDED
    assert view.table.rowCount() >= 1
    select(view.table, 0)
    assert texts(view.table_actions.context_menu()) == [*ONE, "Copy id"]
    view.table_actions.copy_id()
    assert clipboard() == view.table.item(0, 2).text() != ""
    panel.close_tasks()


# -- reference ---------------------------------------------------------------------------------


def test_constants_lists_and_items_are_copied(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Make, qtbot: QtBot
) -> None:
    panel = build_constants(qtbot, loop, panel_context(admin))
    lists = panel.lists
    lists.setCurrentRow(0)
    assert texts(panel.lists_actions.context_menu()) == ONE
    panel.lists_actions.copy_rows_text()
    assert clipboard() == lists.item(0).text()
    table = panel.list_view.table
    assert table.selectionMode() == EXTENDED  # read only: several items copied at once
    select(table, 0, 1)
    assert texts(panel.list_view.context_menu()) == [*SEVERAL, "Copy ids"]
    panel.list_view.copy_id()
    assert len(clipboard().splitlines()) == 2
    panel.activateWindow()
    lists.setFocus()
    qtbot.waitUntil(lists.hasFocus)
    qtbot.keyClick(lists, Qt.Key.Key_Return)
    qtbot.waitUntil(table.hasFocus)  # Enter goes to the chosen list's items
