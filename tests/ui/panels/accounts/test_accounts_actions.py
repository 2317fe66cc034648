"""Accounts panel actions: status changes (accept, decline, disallowed, own account), edit with
pickers (confirm, failure keeps the dialog), admin password reset (the sandbox mailbox), the
auditor's disabled actions, a 403 explained."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.protocol.enums import ACCOUNT_TRANSITIONS
from portal_admin.ui.panels.accounts.accounts_panel import AccountsPanel
from portal_admin.ui.panels.accounts.edit_dialog import AccountEditDialog
from portal_admin.ui.panels.accounts.status_dialog import StatusChangeDialog
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.permissions import Permissions

from ..panel_support import run, wait_for
from .builders import build_accounts as build
from .builders import choose
from .support import answer_box, dialog_open, drain, settle, shot, wait_window

Make = Callable[..., PanelContext]


@pytest.fixture
def panel(loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make) -> Any:
    p = build(loop, qtbot, panel_context(admin))
    yield p
    p.close_tasks()


def offered(panel: AccountsPanel) -> list[str]:
    return [n for n, b in panel.detail.buttons.items() if b.isVisibleTo(panel.detail)]


def test_suspend_declined_then_accepted_with_reason(
    loop: qasync.QEventLoop, panel: AccountsPanel, admin: PortalClient, runner: Any
) -> None:
    row = choose(loop, panel, "ACTIVE")
    changed: list[frozenset[str]] = []
    runner.changed.connect(changed.append)

    async def decline() -> bool:
        task = asyncio.ensure_future(panel.controller.run_action("SUSPEND"))
        dialog = await wait_window(StatusChangeDialog)
        assert row.account_email in dialog.question.text()
        assert row.account_name in dialog.question.text()
        dialog.cancel_button.click()
        return await task

    assert run(loop, decline()) is False
    assert run(loop, admin.accounts.get(row.biz_id)).account_status.code == "ACTIVE"
    assert changed == []

    async def accept() -> bool:
        task = asyncio.ensure_future(panel.controller.run_action("SUSPEND"))
        dialog = await wait_window(StatusChangeDialog)
        assert dialog.cancel_button.isDefault()
        dialog.reason.setText("Left the company")
        await settle()
        shot(dialog, "account-status-confirm.png")
        dialog.confirm_button.click()
        return await task

    assert run(loop, accept()) is True
    fresh = run(loop, admin.accounts.get(row.biz_id))
    assert fresh.account_status.code == "SUSPENDED"
    assert changed == [frozenset({"accounts"})]
    index = panel.controller.model.index_of(row.biz_id)
    assert panel.controller.model.index(index.row(), 2).data() == fresh.account_status.label
    assert panel.detail.values["status"].text().endswith("(SUSPENDED)")
    assert offered(panel) == ["ACTIVATE", "DEACTIVATE", "EDIT", "RESET"]
    # a sentence naming the account (#31), not "Suspend done."
    assert panel.message.text.startswith("The account ") and "was suspended." in panel.message.text
    assert panel.view.table.currentIndex().row() == index.row()  # the list was not reset


def test_activate_and_deactivate(
    loop: qasync.QEventLoop, panel: AccountsPanel, admin: PortalClient
) -> None:
    row = choose(loop, panel, "SUSPENDED")

    async def act(name: str) -> bool:
        task = asyncio.ensure_future(panel.controller.run_action(name))
        dialog = await wait_window(StatusChangeDialog)
        assert row.account_email in dialog.question.text()
        dialog.confirm_button.click()
        return await task

    assert run(loop, act("DEACTIVATE"))
    assert run(loop, admin.accounts.get(row.biz_id)).account_status.code == "DEACTIVATED"
    assert offered(panel) == ["ACTIVATE", "EDIT", "RESET"]
    assert run(loop, act("ACTIVATE"))
    assert run(loop, admin.accounts.get(row.biz_id)).account_status.code == "ACTIVE"


def test_only_allowed_transitions_are_offered(
    loop: qasync.QEventLoop, panel: AccountsPanel
) -> None:
    seen = set()
    for row in panel.controller.model.rows:
        status = row.account_status.code
        if status in seen or row.account_email == "admin@sandbox.test":
            continue
        seen.add(status)
        names = [a.name for a in panel.controller.actions(row)]
        allowed = list(ACCOUNT_TRANSITIONS.get(status, {}))
        assert names == [*allowed, "EDIT", "RESET"], status
    assert {"ACTIVE", "SUSPENDED", "PENDING_INIT"} <= seen
    pending = choose(loop, panel, "PENDING_INIT")
    assert offered(panel) == ["DEACTIVATE", "EDIT", "RESET"]
    # a transition not offered is refused without asking anything
    assert run(loop, panel.controller.change_status(pending, "ACTIVATE")) is False


def test_own_status_cannot_be_changed(loop: qasync.QEventLoop, panel: AccountsPanel) -> None:
    panel.filters.email.setText("admin@sandbox.test")
    panel.filters._emit()
    # The first page is fetched when the table asks for it, after the filter's reset: under
    # Wine's windows platform later than wait_idle() looks (it saw no fetch, and no rows).
    run(loop, wait_for(lambda: panel.controller.model.rows))
    run(loop, panel.controller.model.wait_idle())
    own = panel.controller.model.rows[0]
    states = {a.name: a for a in panel.controller.actions(own)}
    assert states["SUSPEND"].reason == "You cannot change the status of your own account."
    assert states["EDIT"].enabled


def test_edit_with_pickers_decline_then_save(
    loop: qasync.QEventLoop, panel: AccountsPanel, admin: PortalClient
) -> None:
    row = choose(loop, panel, "ACTIVE")

    async def scenario() -> Any:
        task = asyncio.ensure_future(panel.controller.run_action("EDIT"))
        dialog = await wait_window(AccountEditDialog)
        await settle(0.3)  # the constants lists arrive
        assert dialog.name.text() == row.account_name
        assert not dialog.save_button.isEnabled()  # nothing changed yet
        languages = dialog.language.codes()
        assert languages[:5] == ["en", "zh", "zh-Hant", "ja", "vi"]
        assert "ko" in languages or "fr" in languages  # carried by accounts
        completer = dialog.timezone.completer()
        completer.setCompletionPrefix("tokyo")
        matches = [
            completer.completionModel().index(i, 0).data()
            for i in range(completer.completionCount())
        ]
        assert any("(Asia/Tokyo)" in m for m in matches)
        dialog.name.setText("Renamed Person")
        dialog.phone.setText("+81-3-1234-5678")
        dialog.remark.setText("VIP customer")
        dialog.language.set_code("ja")
        dialog.timezone.set_code("Asia/Tokyo")
        dialog.country.set_code("JP")
        assert dialog.country.currentText().endswith("(JP)")
        assert dialog.save_button.isEnabled()
        await settle()
        shot(dialog, "account-edit.png")
        dialog.save_button.click()
        box = await answer_box(accept=False)
        assert row.account_email in box.text() and "Renamed Person" in box.text()
        await settle()
        assert dialog.isVisible() and dialog.name.text() == "Renamed Person"
        dialog.save_button.click()
        await answer_box(accept=True)
        result = await task
        assert not dialog_open(panel.controller.edit_dialog)
        return result

    assert run(loop, scenario()) is True
    fresh = run(loop, admin.accounts.get(row.biz_id))
    assert (fresh.account_name, fresh.account_phone, fresh.account_remark) == (
        "Renamed Person", "+81-3-1234-5678", "VIP customer",
    )  # fmt: skip
    assert (fresh.default_language, fresh.default_timezone, fresh.default_country) == (
        "ja", "Asia/Tokyo", "JP",
    )  # fmt: skip
    index = panel.controller.model.index_of(row.biz_id)
    assert panel.controller.model.index(index.row(), 1).data() == "Renamed Person"
    assert panel.detail.values["name"].text() == "Renamed Person"


def test_failed_save_keeps_the_dialog_filled(
    loop: qasync.QEventLoop, panel: AccountsPanel, admin: PortalClient
) -> None:
    row = choose(loop, panel, "ACTIVE")
    too_long = "+1 " + "5" * 40

    async def scenario() -> AccountEditDialog:
        task = asyncio.ensure_future(panel.controller.run_action("EDIT"))
        dialog = await wait_window(AccountEditDialog)
        dialog.phone.setText(too_long)
        dialog.save_button.click()
        await answer_box(accept=True)
        for _ in range(100):
            if dialog.message.isVisible():
                break
            await asyncio.sleep(0.02)
        assert dialog.isVisible()
        assert dialog.phone.text() == too_long
        text = dialog.message.text
        assert "did not accept" in text and "VALIDATION.INVALID_PARAMETER" in text
        dialog.reject()
        assert await task is False
        return dialog

    run(loop, scenario())
    assert run(loop, admin.accounts.get(row.biz_id)).account_phone == row.account_phone


def test_admin_password_reset_mails_a_token(
    loop: qasync.QEventLoop, panel: AccountsPanel, admin: PortalClient
) -> None:
    row = choose(loop, panel, "ACTIVE")

    async def mailbox() -> list[dict[str, Any]]:
        answer = await admin.http.get("/sandbox/mailbox", params={"to": row.account_email})
        return list(answer.json()["data"])

    before = len(run(loop, mailbox()))

    async def reset(accept: bool) -> bool:
        task = asyncio.ensure_future(panel.controller.run_action("RESET"))
        box = await answer_box(accept)
        assert row.account_email in box.text() and row.account_name in box.text()
        return await task

    assert run(loop, reset(False)) is False
    assert len(run(loop, mailbox())) == before
    assert run(loop, reset(True)) is True
    mails = run(loop, mailbox())
    assert len(mails) == before + 1 and mails[0]["token"]
    assert row.account_email in panel.message.text


def test_auditor_sees_actions_disabled_with_the_reason(
    loop: qasync.QEventLoop, qtbot: QtBot, auditor: PortalClient, panel_context: Make
) -> None:
    panel = build(loop, qtbot, panel_context(auditor))
    row = choose(loop, panel, "ACTIVE")
    for name in ("SUSPEND", "DEACTIVATE", "EDIT", "RESET"):
        button = panel.detail.buttons[name]
        assert button.isVisibleTo(panel.detail) and not button.isEnabled()
        assert "workspace:user:write" in button.toolTip()
    assert "Your role lacks the permission workspace:user:write." in panel.detail.reasons.text()
    assert run(loop, panel.controller.change_status(row, "SUSPEND")) is False
    panel.close_tasks()


def test_a_403_answer_is_explained(
    loop: qasync.QEventLoop, qtbot: QtBot, auditor: PortalClient, panel_context: Make,
    admin: PortalClient,
) -> None:  # fmt: skip
    panel = build(loop, qtbot, panel_context(auditor))
    # a server whose profile carries no permission codes: everything looks allowed
    panel.permissions, panel.profile_record = Permissions(None), None
    row = choose(loop, panel, "ACTIVE")
    assert panel.detail.buttons["SUSPEND"].isEnabled()

    async def suspend() -> bool:
        task = asyncio.ensure_future(panel.controller.run_action("SUSPEND"))
        dialog = await wait_window(StatusChangeDialog)
        dialog.confirm_button.click()
        return await task

    assert run(loop, suspend()) is False
    text = panel.message.text
    assert "does not allow" in text and "ACCESS.PERMISSION_DENIED" in text and "403" in text
    assert run(loop, admin.accounts.get(row.biz_id)).account_status.code == "ACTIVE"
    panel.close_tasks()


def test_keyboard_and_context_menu_reach_the_same_actions(
    loop: qasync.QEventLoop, qtbot: QtBot, panel: AccountsPanel
) -> None:
    """Without the mouse: choose a row, Enter moves into the detail's actions, F2 edits; the
    list's context menu offers the detail's actions with the same state."""
    row = choose(loop, panel, "ACTIVE")
    menu = panel.view.context_menu()
    entries = [a for a in menu.actions() if not a.isSeparator()]
    buttons = [panel.detail.buttons[n] for n in offered(panel)]
    assert [a.text() for a in entries[: len(buttons)]] == [b.text() for b in buttons]
    assert [a.isEnabled() for a in entries[: len(buttons)]] == [b.isEnabled() for b in buttons]
    assert "Copy row as CSV" in [a.text() for a in entries]
    panel.view.table.setFocus()
    qtbot.keyClick(panel.view.table, Qt.Key.Key_Return)
    focused = QApplication.focusWidget()
    assert focused in panel.detail.buttons.values() and focused.isEnabled()

    async def edit_by_f2() -> AccountEditDialog:
        panel.view.table.setFocus()
        qtbot.keyClick(panel.view.table, Qt.Key.Key_F2)
        return await wait_window(AccountEditDialog)

    dialog = run(loop, edit_by_f2())
    assert dialog.name.text() == row.account_name
    dialog.reject()
    run(loop, drain(panel))


def test_the_detail_folds_away_and_opens_beside_or_below(
    loop: qasync.QEventLoop, qtbot: QtBot, panel: AccountsPanel
) -> None:
    """Nothing chosen: the table has all the room. An account chosen: the detail opens beside
    the list in a wide window and below it in a narrow one."""
    view = panel.view
    view.table.clearSelection()
    panel.controller.show_account(None)
    assert not panel.detail.isVisible()
    choose(loop, panel, "ACTIVE")
    assert panel.detail.isVisible()
    for width, height, orientation in (
        (1366, 768, Qt.Orientation.Horizontal),
        (1024, 700, Qt.Orientation.Vertical),
        (1920, 1080, Qt.Orientation.Horizontal),
    ):
        panel.resize(width, height)
        run(loop, settle())
        assert view.splitter.orientation() == orientation, width
        assert panel.detail.isVisible()
        shot(panel, f"accounts-detail-{width}.png")


def test_keyboard_only_filter_open_and_act(
    loop: qasync.QEventLoop, qtbot: QtBot, panel: AccountsPanel
) -> None:
    """Without the mouse: Alt+E reaches the e-mail filter, typing filters the list, Tab moves
    on towards the table, the arrows choose an account, Enter moves into its actions, Space
    runs one (its dialog opens), Escape closes it and changes nothing."""
    panel.activateWindow()
    qtbot.waitUntil(panel.isActiveWindow, timeout=2000)
    qtbot.keyClick(panel, Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)
    assert QApplication.focusWidget() is panel.filters.email
    qtbot.keyClicks(panel.filters.email, "etienne")
    run(loop, drain(panel))
    run(loop, settle(0.5))  # the filter's typing pause, then the reload
    run(loop, drain(panel))
    model = panel.controller.model
    assert model.rowCount() >= 1
    assert all(r.account_email.startswith("etienne") for r in model.rows)
    table = panel.view.table
    for _ in range(40):  # Tab along the window's focus order until the table has the focus
        if QApplication.focusWidget() is table:
            break
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is table
    qtbot.keyClick(table, Qt.Key.Key_Down)
    run(loop, drain(panel))
    chosen = panel.detail.account
    assert chosen is not None and chosen.account_email.startswith("etienne")
    qtbot.keyClick(table, Qt.Key.Key_Return)
    action = QApplication.focusWidget()
    assert action in panel.detail.buttons.values() and action.isEnabled()

    async def act() -> Any:
        qtbot.keyClick(action, Qt.Key.Key_Space)
        for _ in range(200):
            dialogs = [
                w
                for w in QApplication.topLevelWidgets()
                if isinstance(w, (StatusChangeDialog, AccountEditDialog)) and w.isVisible()
            ]
            if dialogs:
                return dialogs[0]
            await asyncio.sleep(0.02)
        return None

    dialog = run(loop, act())
    assert dialog is not None
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    run(loop, drain(panel))
    still = [
        w
        for w in QApplication.topLevelWidgets()
        if isinstance(w, (StatusChangeDialog, AccountEditDialog)) and w.isVisible()
    ]
    assert still == []
    fresh = panel.detail.account
    assert fresh is not None and fresh.account_status.code == chosen.account_status.code
