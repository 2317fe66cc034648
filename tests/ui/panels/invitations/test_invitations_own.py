"""Own invitations ("my-invitations" panel): status filter, expiry, unacceptable ones marked."""

from __future__ import annotations

from typing import Any

import qasync
from PySide6.QtCore import Qt

from portal_admin.client import PortalClient
from portal_admin.client.events import RequestStarted
from portal_admin.ui.panels.invitations.own import MyInvitationsPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import save_screenshot

from ..panel_support import SHOTS, place_panel


def build(qtbot: Any, loop: qasync.QEventLoop, context: PanelContext) -> MyInvitationsPanel:
    panel = MyInvitationsPanel(context)
    place_panel(qtbot, panel, 1100, 420)
    loop.run_until_complete(panel.reload())
    loop.run_until_complete(panel.wait_idle())
    return panel


def codes(panel: MyInvitationsPanel) -> list[str]:
    return [r.invitation_status.code for r in panel.model.rows if r.invitation_status]


def column(panel: MyInvitationsPanel, key: str) -> int:
    return [c.key for c in panel.model.columns].index(key)


def test_lists_own_invitations_with_unacceptable_ones_marked(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    assert sorted(codes(panel)) == ["ACCEPTED", "CANCELLED", "DECLINED", "EXPIRED", "PENDING"]
    model = panel.model
    note = column(panel, "acceptable")
    expires = column(panel, "expires")
    for row, invitation in enumerate(model.rows):
        text = model.index(row, note).data()
        brush = model.index(row, 0).data(Qt.ItemDataRole.ForegroundRole)
        font = model.index(row, 0).data(Qt.ItemDataRole.FontRole)
        assert invitation.invitation_status is not None
        if invitation.can_accept:
            assert text == "Yes" and brush is None and font is None
            assert model.index(row, expires).data().startswith("in ")
        else:
            assert brush is not None and font is not None and font.italic()
            assert text.startswith("Cannot be accepted: ")
            assert "Cannot be accepted" in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    reasons = {
        r.invitation_status.code: model.index(i, note).data()
        for i, r in enumerate(model.rows)
        if r.invitation_status
    }
    assert reasons["EXPIRED"] == "Cannot be accepted: expired"
    assert reasons["CANCELLED"] == "Cannot be accepted: cancelled"
    assert reasons["DECLINED"] == "Cannot be accepted: declined"
    assert reasons["ACCEPTED"] == "Cannot be accepted: already accepted"
    assert panel.statuses.count() == 5
    save_screenshot(panel, SHOTS / "my-invitations.png")


def test_status_filter_is_sent_to_the_server(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    sent: list[RequestStarted] = []
    admin.events.subscribe(sent.append, RequestStarted)
    panel.set_checked(["PENDING", "EXPIRED"])
    loop.run_until_complete(panel.wait_idle())
    assert sorted(codes(panel)) == ["EXPIRED", "PENDING"]
    own = [e for e in sent if e.operation_id == "invitations.own"]
    assert len(own) == 1
    assert panel.checked_statuses() == ["PENDING", "EXPIRED"]
    panel.set_checked([])
    loop.run_until_complete(panel.wait_idle())
    assert panel.model.rowCount() == 0
    assert len([e for e in sent if e.operation_id == "invitations.own"]) == 1  # nothing asked
    all_codes = [
        panel.statuses.item(i).data(Qt.ItemDataRole.UserRole) for i in range(panel.statuses.count())
    ]
    panel.set_checked(all_codes)
    loop.run_until_complete(panel.wait_idle())
    assert panel.checked_statuses() is None and len(panel.model.rows) == 5


def test_checking_an_item_refetches(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    accepted = next(
        panel.statuses.item(i)
        for i in range(panel.statuses.count())
        if panel.statuses.item(i).data(Qt.ItemDataRole.UserRole) == "ACCEPTED"
    )
    accepted.setCheckState(Qt.CheckState.Unchecked)
    loop.run_until_complete(panel.wait_idle())
    assert "ACCEPTED" not in codes(panel) and len(codes(panel)) == 4


def test_own_model_passes_qtmodeltester(
    qtbot: Any,
    qtmodeltester: Any,
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Any,
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    qtmodeltester.check(panel.model)


def test_auditor_sees_its_own_invitations(
    qtbot: Any, loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(auditor))
    assert panel.model.state.value in {"ready", "empty"}
    assert panel.list_view.overlay.retry.isVisible() is False


def test_signed_out_answer_is_shown(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    loop.run_until_complete(admin.auth.logout())
    panel = build(qtbot, loop, panel_context(admin))
    text = panel.list_view.overlay.label.text()
    assert "could not be loaded" in text and "signed in" in text
