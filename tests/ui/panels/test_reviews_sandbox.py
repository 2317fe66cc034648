"""The Campaigns panel against the in-process sandbox: the kiosk does everything but the
remediation; the remediation runs through the bulk window as a job and warns when the
administrator is the reviewer who decided; closing shows the closing check."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import qasync
from panel_support import ADMIN, AUDITOR, run
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_reviews_support import CAMPAIGN_SHOTS, click_and_answer, open_through_dialog

from portal_admin.client import PortalClient
from portal_admin.evidence import keys
from portal_admin.evidence.snapshot import take_snapshot
from portal_admin.reviews import Settings, create_campaign
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.reviews.panel import CampaignsPanel
from portal_admin.ui.profiles.store import sandbox_profile


@pytest.fixture
def campaign_path(loop: qasync.QEventLoop, tmp_path: Path, admin: PortalClient) -> Path:
    scope = tmp_path / "scope.sqlite"
    run(loop, take_snapshot(admin, scope, server="sandbox", account=ADMIN[0]))
    create_campaign(tmp_path / "c.review", scope, Settings("Sandbox review", "2030-01-31")).close()
    return tmp_path / "c.review"


@pytest.fixture
def make_panel(
    qtbot: Any, tmp_path: Path, runner: OperationRunner
) -> Callable[..., CampaignsPanel]:
    store = keys.MemoryStore()

    def make(client: Any, reviewer: str, **extras: Any) -> CampaignsPanel:
        context = PanelContext(runner, sandbox_profile(), client, extras)
        panel = CampaignsPanel(context, folder=tmp_path, key_store=store)
        qtbot.addWidget(panel)
        panel.resize(1100, 700)
        panel.show()
        panel.reviewer.setText(reviewer)
        panel._reviewer_changed()
        return panel

    return make


def revoke_first_tenant_account(loop: qasync.QEventLoop, panel: CampaignsPanel) -> str:
    panel.text_filter.setText("@")
    panel.decision_portal.setCurrentIndex(panel.decision_portal.findData("TENANT"))
    panel.apply_filters()
    item = panel.model.item(0)
    assert item is not None
    panel.table.selectRow(0)
    panel.justification.setText("left the company")
    panel.table.setFocus()
    QTest.keyClick(panel.table, Qt.Key.Key_R)
    run(loop, panel.wait_idle())
    assert panel.campaign is not None and panel.campaign.item(item.id).decision == "REVOKE"  # type: ignore[union-attr]
    return item.id


def test_remediation_runs_as_a_bulk_job_and_warns_the_same_person(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    campaign_path: Path,
    make_panel: Callable[..., CampaignsPanel],
) -> None:
    panel = make_panel(admin, ADMIN[0])
    run(loop, panel.open_file(campaign_path))
    revoked = revoke_first_tenant_account(loop, panel)
    click_and_answer(loop, panel, panel.sign_button)
    assert panel.campaign is not None and panel.campaign.is_signed()
    assert panel.remediate_button.isVisible() and panel.remediate_button.isEnabled()
    plan = run(loop, panel.remediate())
    assert plan is not None and plan.same_person
    assert "Separation of duties" in panel.message.text
    assert ADMIN[0] in panel.message.text
    dialog = panel.bulk_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.job is plan.jobs[0] and dialog.to_change() == 1
    assert "Separation of duties" in dialog.error.text()
    assert dialog.run_button.isEnabled()
    progress = run(loop, dialog.run())  # the bulk window's own run: jobs.Runner
    assert progress is not None and progress.counts.get("done") == 1
    account = run(loop, admin.accounts.get(revoked.split(":", 1)[1]))
    assert account.account_status is not None and account.account_status.code == "SUSPENDED"
    dialog.close()


def test_remediation_of_this_installations_key_under_another_name_warns(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    campaign_path: Path,
    make_panel: Callable[..., CampaignsPanel],
) -> None:
    """A reviewer is the holder of a key: signed with this installation's key under another
    typed name is still the administrator (another administrator's key: see
    tests/reviews/test_campaign_files.py)."""
    panel = make_panel(admin, "someone.else@example.test")
    run(loop, panel.open_file(campaign_path))
    revoke_first_tenant_account(loop, panel)
    click_and_answer(loop, panel, panel.sign_button)
    plan = run(loop, panel.remediate())
    assert plan is not None and plan.same_person
    assert any("this installation's key" in r for r in plan.reasons)
    panel.bulk_dialog.job.discard()
    panel.bulk_dialog.job = None
    panel.bulk_dialog.close()


def test_kiosk_does_everything_but_the_remediation(
    loop: qasync.QEventLoop,
    sandbox_app: Any,
    campaign_path: Path,
    tmp_path: Path,
    make_panel: Callable[..., CampaignsPanel],
) -> None:
    from panel_support import sign_in_as

    auditor = run(loop, sign_in_as(sandbox_app, *AUDITOR, read_only=True))
    try:
        panel = make_panel(auditor, AUDITOR[0], kiosk=True)
        run(loop, panel.open_file(campaign_path))
        assert not panel.remediate_button.isVisible()
        assert run(loop, panel.remediate()) is None  # refused whatever the button
        assert panel.bulk_dialog is None
        revoke_first_tenant_account(loop, panel)  # decide
        click_and_answer(loop, panel, panel.sign_button)  # sign
        assert panel.campaign is not None and panel.campaign.is_signed()
        assert run(loop, panel.verify()).status == "intact"  # verify
        asked = click_and_answer(loop, panel, panel.close_button)  # close, with the check
        assert "Signed-off Revokes not carried out: 1." in asked
        assert panel.campaign.meta.get("closed")
        assert "not done: 1" in panel.message.text
        assert panel.closing.isVisible() and panel.closing.rowCount() >= 1
        assert "Closed" in panel.due.text()
        manifest = run(loop, panel.write_pack(tmp_path / "pack.zip"))  # pack
        assert manifest is not None and (tmp_path / "pack.zip").is_file()
    finally:
        run(loop, auditor.aclose())


def test_signed_out_the_panel_decides_and_signs(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = make_panel(None, "offline.reviewer@example.test")
    run(loop, panel.open_file(campaign_path))
    revoke_first_tenant_account(loop, panel)
    click_and_answer(loop, panel, panel.sign_button)
    assert panel.campaign is not None and panel.campaign.is_signed()
    assert not panel.remediate_button.isEnabled() and not panel.close_button.isEnabled()
    assert "Sign in" in panel.close_button.toolTip()


def test_a_campaign_file_is_reviewed_without_signing_in(
    loop: qasync.QEventLoop, qtbot: Any, campaign_path: Path, runner: OperationRunner
) -> None:
    from portal_admin.ui.panels.reviews.offline import OfflineReviewWindow

    store = {"evidence_key_store": keys.MemoryStore()}  # not the real keyring
    window = OfflineReviewWindow(runner, sandbox_profile(), kiosk=True, extras=store)
    qtbot.addWidget(window)
    window.show()
    panel = window.panel
    assert panel.context.client is None and panel.kiosk
    panel.reviewer.setText("offline.reviewer@example.test")
    panel._reviewer_changed()
    run(loop, panel.open_file(campaign_path))
    item_id = revoke_first_tenant_account(loop, panel)
    assert panel.campaign is not None
    assert panel.campaign.item(item_id).decision == "REVOKE"  # type: ignore[union-attr]
    assert not panel.remediate_button.isVisibleTo(window)  # the kiosk never remediates
    assert "not signed in" in window.windowTitle()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_close_asks_naming_the_revokes_not_carried_out_and_the_file_reopens(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    campaign_path: Path,
    make_panel: Callable[..., CampaignsPanel],
    language: str,
) -> None:
    from portal_admin.ui.i18n.translators import LanguageManager

    languages = LanguageManager()
    languages.set_language(language)
    try:
        panel = make_panel(admin, ADMIN[0])
        open_through_dialog(loop, panel, campaign_path)
        assert panel.campaign is not None
        revoke_first_tenant_account(loop, panel)
        click_and_answer(loop, panel, panel.sign_button)
        shot = CAMPAIGN_SHOTS / f"close-confirm-{language}.png"
        asked = click_and_answer(loop, panel, panel.close_button, accept=False, shot=shot)
        if language == "en":
            assert "Signed-off Revokes not carried out: 1." in asked
        assert "1" in asked
        assert not panel.campaign.meta.get("closed")  # Cancel: nothing happened
        assert panel.close_button.isEnabled()
        click_and_answer(loop, panel, panel.close_button, accept=True)
        assert panel.campaign.meta.get("closed")
        assert panel.closing.isVisible() and panel.closing.rowCount() == 1
        assert not panel.close_button.isEnabled()
        if language == "en":
            assert "Closed. Revoked and done: 0; not done: 1" in panel.message.text
        open_through_dialog(loop, panel, campaign_path)  # the same file, the same session
        assert panel.campaign is not None and panel.campaign.meta.get("closed")
        if language == "en":
            assert "damaged" not in panel.message.text
        assert panel.closing.isVisible()
        assert not panel.keep_button.isEnabled()
    finally:
        languages.set_language("en")
