"""The invitations panel against the in-process sandbox: list, filter, invite, cancel."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from portal_admin.client import PortalClient
from portal_admin.client.records import Invitation
from portal_admin.ui.panels.invitations.dialogs import check_invitee_email
from portal_admin.ui.panels.invitations.formatting import relative_expiry
from portal_admin.ui.panels.invitations.panel import InvitationsPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import save_screenshot

from ..panel_support import SHOTS, place_panel, run, wait_for


def build(qtbot: Any, loop: qasync.QEventLoop, context: PanelContext) -> InvitationsPanel:
    panel = InvitationsPanel(context)
    place_panel(qtbot, panel, 1100, 520)
    loop.run_until_complete(panel.reload())
    loop.run_until_complete(panel.wait_idle())
    return panel


def emails(panel: InvitationsPanel) -> list[str]:
    return [str(r.invitee_email) for r in panel.model.rows]


def select(panel: InvitationsPanel, predicate: Callable[[Invitation], bool]) -> Invitation:
    for row, invitation in enumerate(panel.model.rows):
        if predicate(invitation):
            panel.list_view.table.setCurrentIndex(panel.model.index(row, 0))
            return invitation
    raise AssertionError("no such invitation")


def code(invitation: Invitation) -> str:
    assert invitation.invitation_status is not None
    return invitation.invitation_status.code


def test_lists_the_workspace_invitations(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    rows = panel.model.rows
    assert len(rows) == 9
    assert {code(r) for r in rows} == {"PENDING", "ACCEPTED", "DECLINED", "EXPIRED", "CANCELLED"}
    headers = [panel.model.headerData(i, Qt.Orientation.Horizontal) for i in range(6)]
    assert headers == ["Invitee email", "Inviter", "Status", "Message", "Expires", "Created"]
    expired = next(i for i, r in enumerate(rows) if code(r) == "EXPIRED")
    assert panel.model.index(expired, 4).data().startswith("expired (")
    pending = next(i for i, r in enumerate(rows) if code(r) == "PENDING")
    assert panel.model.index(pending, 4).data().startswith("in ")
    assert panel.model.index(pending, 2).data() == "Pending"
    assert panel.status_filter.count() == 6  # "All statuses" and the five statuses
    assert panel.create_button.isEnabled()
    save_screenshot(panel, SHOTS / "invitations.png")


def test_filters_by_status_and_text_without_asking_the_server(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    loads = panel.source.loads
    panel.set_status_filter("PENDING")
    run(loop, panel.wait_idle())
    assert len(panel.model.rows) == 3
    assert {code(r) for r in panel.model.rows} == {"PENDING"}
    panel.text_filter.setText("LI.WEI")
    run(loop, panel.wait_idle())
    assert emails(panel) == ["li.wei@example.com"]
    panel.set_status_filter(None)
    panel.text_filter.setText("Sandbox Auditor")
    run(loop, panel.wait_idle())
    assert set(emails(panel)) == {"admin@sandbox.test"}
    panel.text_filter.setText("nobody-matches-this")
    run(loop, panel.wait_idle())
    assert panel.model.rowCount() == 0
    overlay = panel.list_view.overlay
    assert overlay.label.text() == "No invitations match these filters."
    assert overlay.clear.isVisibleTo(panel)  # and the way out
    assert panel.source.loads == loads
    overlay.clear.click()
    run(loop, panel.wait_idle())
    assert panel.text_filter.text() == "" and panel.model.rowCount() > 0


def test_sorts_locally_by_a_column(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))

    async def sort(column: int, order: Qt.SortOrder) -> None:
        panel.model.sort(column, order)  # as a header click does, inside the running loop
        await panel.model.wait_idle()

    run(loop, sort(0, Qt.SortOrder.AscendingOrder))
    assert emails(panel) == sorted(emails(panel), key=str.casefold)
    run(loop, sort(5, Qt.SortOrder.DescendingOrder))
    created = [r.created_at for r in panel.model.rows]
    assert created == sorted(created, reverse=True)  # type: ignore[type-var]


def test_model_passes_qtmodeltester(
    qtbot: Any,
    qtmodeltester: Any,
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Any,
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    qtmodeltester.check(panel.model)
    panel.set_status_filter("EXPIRED")
    run(loop, panel.wait_idle())
    qtmodeltester.check(panel.model)


def test_create_with_a_valid_email(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    dialog = panel.open_create_dialog()
    assert dialog.isVisible() and not dialog.invite_button.isEnabled()
    dialog.days.setValue(99)
    assert dialog.days.value() == 30  # the sandbox's upper bound
    dialog.days.setValue(3)
    qtbot.keyClicks(dialog.email, "new.person@example.com")
    dialog.message.setPlainText("Welcome aboard")
    assert dialog.invite_button.isEnabled()
    save_screenshot(dialog, SHOTS / "invitation-create.png")
    finished: list[int] = []
    dialog.finished.connect(finished.append)

    async def scenario() -> Invitation | None:
        created = await panel.submit_create(dialog)
        await panel.wait_idle()
        return created

    created = run(loop, scenario())
    assert created is not None and created.invitee_email == "new.person@example.com"
    assert created.message == "Welcome aboard"
    assert code(created) == "PENDING"
    assert created.expires_at is not None and created.created_at is not None
    assert created.expires_at - created.created_at == timedelta(days=3)
    assert finished == [QDialog.DialogCode.Accepted.value]
    assert "new.person@example.com" in emails(panel)  # the list refreshed itself


def test_invalid_email_is_checked_as_you_type(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    dialog = panel.open_create_dialog()
    qtbot.keyClicks(dialog.email, "not-an-email")
    assert not dialog.invite_button.isEnabled()
    assert dialog.email_problem.isVisible()
    assert "not a valid email" in dialog.email_problem.text()
    dialog.email.setText("ok@example.com")
    assert dialog.invite_button.isEnabled() and not dialog.email_problem.isVisible()
    assert check_invitee_email("") is not None
    assert check_invitee_email("a b@example.com") is not None
    assert check_invitee_email("x" * 250 + "@example.com") is not None
    dialog.reject()


@pytest.mark.parametrize(
    ("email", "expected"),
    [
        ("nguyen.an@example.com", "VALIDATION.INVALID_PARAMETER"),  # already has a PENDING one
        ("admin@sandbox.test", "VALIDATION.INVALID_PARAMETER"),  # already a member
    ],
)
def test_server_refusal_is_shown_and_the_dialog_stays_filled_in(
    qtbot: Any,
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Any,
    runner: Any,
    email: str,
    expected: str,
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    before = len(panel.model.rows)
    dialog = panel.open_create_dialog()
    dialog.email.setText(email)
    dialog.message.setPlainText("Hello again")
    dialog.days.setValue(12)
    assert run(loop, panel.submit_create(dialog)) is None
    assert dialog.isVisible()
    assert dialog.values() == (email, "Hello again", 12)
    assert dialog.error.isVisible()
    assert expected in dialog.error.text()
    assert "Request id:" in dialog.error.text()
    assert runner.shown == []  # shown in the dialog, not in a separate error window
    assert dialog.invite_button.isEnabled()
    save_screenshot(dialog, SHOTS / "invitation-create-error.png")
    dialog.reject()
    run(loop, panel.wait_idle())
    assert len(panel.model.rows) == before


def cancel_via_dialog(
    loop: qasync.QEventLoop,
    panel: InvitationsPanel,
    *,
    accept: bool,
    reason: str = "",
    shot: bool = False,
) -> Invitation | None:
    async def scenario() -> Invitation | None:
        task = asyncio.ensure_future(panel.cancel_selected())
        await wait_for(lambda: panel.cancel_dialog is not None and panel.cancel_dialog.isVisible())
        dialog = panel.cancel_dialog
        assert dialog is not None
        dialog.reason.setText(reason)
        if shot:
            save_screenshot(dialog, SHOTS / "invitation-cancel.png")
        (dialog.confirm_button if accept else dialog.keep_button).click()
        result = await task
        await panel.wait_idle()
        return result

    return run(loop, scenario())


def test_cancel_names_the_invitee_and_sends_the_reason(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    target = select(panel, lambda i: i.invitee_email == "li.wei@example.com")
    assert panel.cancel_button.isEnabled()

    async def look() -> str:
        task = asyncio.ensure_future(panel.cancel_selected())
        await wait_for(lambda: panel.cancel_dialog is not None and panel.cancel_dialog.isVisible())
        assert panel.cancel_dialog is not None
        text = panel.cancel_dialog.question.text()
        panel.cancel_dialog.keep_button.click()
        assert await task is None
        return text

    assert "li.wei@example.com" in run(loop, look())
    cancelled = cancel_via_dialog(loop, panel, accept=True, reason="Wrong team", shot=True)
    assert cancelled is not None and cancelled.biz_id == target.biz_id
    assert code(cancelled) == "CANCELLED"
    assert cancelled.cancel_reason == "Wrong team"
    again = next(r for r in panel.model.rows if r.biz_id == target.biz_id)
    assert code(again) == "CANCELLED"


def test_declining_the_confirmation_changes_nothing(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    target = select(panel, lambda i: i.invitee_email == "nguyen.an@example.com")
    assert cancel_via_dialog(loop, panel, accept=False) is None
    invitations = run(loop, admin.invitations.list())
    assert code(next(i for i in invitations if i.biz_id == target.biz_id)) == "PENDING"


def test_cancel_is_disabled_for_non_pending_with_the_reason(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    assert not panel.cancel_button.isEnabled()  # nothing selected
    assert "Select a pending invitation" in panel.cancel_button.toolTip()
    select(panel, lambda i: code(i) == "ACCEPTED")
    assert not panel.cancel_button.isEnabled()
    assert panel.cancel_button.toolTip() == (
        "Only pending invitations can be cancelled; this one is Accepted."
    )
    assert panel.action_note.text() == panel.cancel_button.toolTip()
    assert run(loop, panel.cancel_selected()) is None  # refused before asking


def test_cancel_of_an_invitation_cancelled_meanwhile_shows_the_error(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any, runner: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    target = select(panel, lambda i: i.invitee_email == "li.wei@example.com")
    run(loop, admin.invitations.cancel(target.biz_id, reason="someone else was faster"))
    assert cancel_via_dialog(loop, panel, accept=True) is None
    assert len(runner.shown) == 1
    info = runner.shown[0]
    assert info.code == "VALIDATION.INVALID_PARAMETER" and info.http_status == 400
    assert info.request_id
    # the list was reloaded: the row now reads as cancelled and cannot be cancelled again
    select(panel, lambda i: i.biz_id == target.biz_id)
    assert not panel.cancel_button.isEnabled()


def test_cancel_of_an_unknown_id_is_a_validation_error(
    loop: qasync.QEventLoop, admin: PortalClient
) -> None:
    from portal_admin.client import ValidationError

    with pytest.raises(ValidationError) as caught:
        run(loop, admin.invitations.cancel("INV-NO-SUCH"))
    assert caught.value.code == "VALIDATION.INVALID_PARAMETER"


def test_auditor_sees_the_list_with_actions_disabled_and_why(
    qtbot: Any, loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(auditor))
    assert len(panel.model.rows) == 9
    reason = "Your role lacks the permission workspace:invitation:write."
    assert not panel.create_button.isEnabled()
    assert panel.create_button.toolTip() == reason
    select(panel, lambda i: code(i) == "PENDING")
    assert not panel.cancel_button.isEnabled()
    assert panel.cancel_button.toolTip() == reason
    assert reason in panel.action_note.text()


def test_auditor_forbidden_answer_is_explained(
    qtbot: Any, loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Any
) -> None:
    """Should a 403 come anyway (permissions not known in advance), the dialog explains it."""
    panel = build(qtbot, loop, panel_context(auditor))
    dialog = panel.open_create_dialog()
    dialog.email.setText("someone.new@example.com")
    assert run(loop, panel.submit_create(dialog)) is None
    assert "permission" in dialog.error.text()
    assert "ACCESS.PERMISSION_DENIED" in dialog.error.text()
    dialog.reject()


def test_list_failure_is_shown_in_the_list(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    run(loop, admin.auth.logout())
    panel = build(qtbot, loop, panel_context(admin))
    assert panel.model.rowCount() == 0
    assert panel.list_view.overlay.isVisible()
    assert "could not be loaded" in panel.list_view.overlay.label.text()
    assert panel.list_view.overlay.retry.isVisible()


def test_relative_expiry_texts() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert relative_expiry(now - timedelta(seconds=1), now) == "expired"
    assert relative_expiry(now + timedelta(days=3, hours=2), now) == "in 3 days"
    assert relative_expiry(now + timedelta(days=1), now) == "in 1 day"
    assert relative_expiry(now + timedelta(hours=5), now) == "in 5 hours"
    assert relative_expiry(now + timedelta(seconds=30), now) == "in 1 minute"
    assert relative_expiry(None, now) == ""


def test_retranslates_on_language_change(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    from PySide6.QtCore import QEvent

    panel = build(qtbot, loop, panel_context(admin))
    panel.create_button.setText("stale")
    QApplication.sendEvent(panel, QEvent(QEvent.Type.LanguageChange))
    assert panel.create_button.text() == "Invite\u2026"
    assert panel.create_button.accessibleName() == "Invite someone"
    assert isinstance(panel, QWidget) and panel.objectName() == "invitationsPanel"
    assert QModelIndex().isValid() is False


def test_f5_in_the_main_window_fetches_the_invitations_again(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    from portal_admin.ui.mainwindow.window import MainWindow
    from portal_admin.ui.panels import invitations
    from portal_admin.ui.panels.registry import PanelRegistry

    registry = PanelRegistry()
    invitations.register(registry)
    context = panel_context(admin)
    window = MainWindow(context.profile, context.runner, registry, context=context)
    qtbot.addWidget(window)
    window.show()
    panel = window.show_panel("invitations")
    assert isinstance(panel, InvitationsPanel)
    run(loop, wait_for(lambda: panel.loaded))
    run(loop, panel.wait_idle())
    # invited elsewhere (another administrator): this window does not know yet
    run(loop, admin.invitations.create("elsewhere@example.com"))
    assert "elsewhere@example.com" not in emails(panel)
    window.refresh_action.trigger()  # F5
    run(loop, wait_for(lambda: "elsewhere@example.com" in emails(panel)))
    run(loop, panel.wait_idle())


def test_the_delete_key_and_the_context_menu_ask_to_cancel(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    select(panel, lambda i: i.invitee_email == "li.wei@example.com")
    entries = [a for a in panel.list_view.context_menu().actions() if not a.isSeparator()]
    assert entries[0].text() == panel.cancel_button.text() and entries[0].isEnabled()

    async def by_key() -> str:
        table = panel.list_view.table
        table.setFocus()
        qtbot.keyClick(table, Qt.Key.Key_Delete)
        await wait_for(lambda: panel.cancel_dialog is not None and panel.cancel_dialog.isVisible())
        assert panel.cancel_dialog is not None
        text = panel.cancel_dialog.question.text()
        panel.cancel_dialog.keep_button.click()
        await panel.wait_idle()
        return text

    assert "li.wei@example.com" in run(loop, by_key())
