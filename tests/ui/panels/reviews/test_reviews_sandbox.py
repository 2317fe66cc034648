"""The Campaigns panel against the in-process sandbox: the kiosk does everything but the
remediation; the remediation runs through the bulk window as a job and warns when the
administrator is the reviewer who decided; closing shows the closing check."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from portal_admin.client import PortalClient
from portal_admin.evidence import keys
from portal_admin.evidence.snapshot import take_snapshot
from portal_admin.evidence.trust import TrustStore
from portal_admin.reviews import Settings, create_campaign
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.reviews.panel import CampaignsPanel
from portal_admin.ui.profiles.store import sandbox_profile
from portal_admin.ui.tour.screenshots import save_screenshot

from ..panel_support import ADMIN, AUDITOR, run
from .support import CAMPAIGN_SHOTS, click_and_answer, open_through_dialog


@pytest.fixture
def campaign_path(loop: qasync.QEventLoop, tmp_path: Path, admin: PortalClient) -> Path:
    scope = tmp_path / "scope.sqlite"
    run(loop, take_snapshot(admin, scope, server=str(admin.base_url), account=ADMIN[0]))
    create_campaign(tmp_path / "c.review", scope, Settings("Sandbox review", "2030-01-31")).close()
    return tmp_path / "c.review"


@pytest.fixture
def make_panel(
    loop: qasync.QEventLoop,
    qtbot: Any,
    tmp_path: Path,
    runner: OperationRunner,
    trusted: TrustStore,
) -> Callable[..., CampaignsPanel]:
    """A panel signed in with ``client`` (None: signed out); its reviewer is the key of
    ``key_store`` (this installation's, unless another is given) and the client's account."""
    store = keys.MemoryStore()

    def make(
        client: Any, key_store: keys.SecretStore | None = None, **extras: Any
    ) -> CampaignsPanel:
        context = PanelContext(runner, sandbox_profile(), client, extras)
        panel = CampaignsPanel(
            context, folder=tmp_path, key_store=key_store or store, trust_store=trusted
        )
        qtbot.addWidget(panel)
        panel.resize(1100, 700)
        panel.show()
        run(loop, panel.wait_idle())  # shown: it reads who reviews
        assert panel.identity is not None
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
    """The administrator reviewed and signed with this installation's key: the dialog says
    so by key and account, and the bulk window repeats it."""
    panel = make_panel(admin)
    run(loop, panel.open_file(campaign_path))
    revoked = revoke_first_tenant_account(loop, panel)
    click_and_answer(loop, panel, panel.sign_button)
    assert panel.campaign is not None and panel.campaign.is_signed()
    panel.remediate_button.click()
    run(loop, panel.wait_idle())
    dialog = panel.remediation_dialog
    assert dialog is not None and dialog.isVisible()
    signer = [dialog.table.item(0, c).text() for c in range(3)]  # type: ignore[union-attr]
    assert signer[0] == ADMIN[0] and ADMIN[0] in signer[2]
    assert dialog.fingerprint.text() == panel.identity.fingerprint  # type: ignore[union-attr]
    assert signer[1] == "This installation's key"
    assert "Separation of duties" in dialog.duties.text()
    assert f"{ADMIN[0]} signed off with this installation's key." in dialog.duties.text()
    assert dialog.plan_button.isEnabled()
    dialog.plan_button.click()
    run(loop, panel.wait_idle())
    bulk = panel.bulk_dialog
    assert bulk is not None and bulk.isVisible()
    assert "Separation of duties" in panel.message.text
    assert bulk.to_change() == 1
    assert "Separation of duties" in bulk.error.text()
    assert bulk.run_button.isEnabled()
    progress = run(loop, bulk.run())  # the bulk window's own run: jobs.Runner
    assert progress is not None and progress.counts.get("done") == 1
    account = run(loop, admin.accounts.get(revoked.split(":", 1)[1]))
    assert account.account_status is not None and account.account_status.code == "SUSPENDED"
    bulk.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_signer_not_trusted_is_refused_until_trusted(
    loop: qasync.QEventLoop,
    qapp: Any,
    sandbox_app: Any,
    admin: PortalClient,
    campaign_path: Path,
    make_panel: Callable[..., CampaignsPanel],
    trusted: TrustStore,
    language: str,
) -> None:
    """Another reviewer, with a key of their own and signed in as the auditor, signs off; the
    administrator's installation does not trust that key: Remediate… names the signer, their
    account and key (copyable) as not trusted, and refuses to plan until the key is trusted
    (the Trusted keys' Add dialog); then nobody is the same person."""
    from portal_admin.ui.i18n.translators import LanguageManager

    from ..panel_support import sign_in_as

    auditor = run(loop, sign_in_as(sandbox_app, *AUDITOR, read_only=True))
    languages = LanguageManager()
    try:
        reviewer = make_panel(auditor, key_store=keys.MemoryStore(), kiosk=True)
        run(loop, reviewer.open_file(campaign_path))
        revoke_first_tenant_account(loop, reviewer)
        click_and_answer(loop, reviewer, reviewer.sign_button)
        theirs = reviewer.identity.fingerprint  # type: ignore[union-attr]
        languages.set_language(language)
        panel = make_panel(admin)
        assert panel.identity is not None and panel.identity.fingerprint != theirs
        open_through_dialog(loop, panel, campaign_path)
        panel.remediate_button.click()
        run(loop, panel.wait_idle())
        dialog = panel.remediation_dialog
        assert dialog is not None and dialog.isVisible()
        signer = [dialog.table.item(0, c).text() for c in range(3)]  # type: ignore[union-attr]
        assert signer[0] == AUDITOR[0] and AUDITOR[0] in signer[2]
        assert dialog.fingerprint.text() == theirs
        if language == "en":
            assert signer[1] == "Not trusted by this installation"
        assert not dialog.plan_button.isEnabled()  # refused until trusted
        assert dialog.refused.isVisible() and "1" in dialog.refused.text()
        assert not dialog.duties.isVisible()  # another key, another account
        run(loop, asyncio.sleep(0.1))
        save_screenshot(dialog, CAMPAIGN_SHOTS / f"remediation-untrusted-{language}.png")
        dialog.copy_button.click()
        assert qapp.clipboard().text() == theirs
        run(loop, panel.plan_remediation())  # asked anyway: the engine refuses it too
        assert "UNTRUSTED" in panel.message.text and panel.bulk_dialog is None
        dialog.trust_button.click()
        add = dialog.add_dialog
        assert add is not None and add.isVisible() and add.fingerprint.text() == theirs
        add.name.setText("Auditor desk")
        add.ok_button.click()
        run(loop, panel.wait_idle())
        assert [k.name for k in trusted.keys()] == ["Auditor desk"]  # noqa: SIM118
        if language == "en":
            assert dialog.table.item(0, 1).text() == "Trusted as “Auditor desk”"  # type: ignore[union-attr]
        assert dialog.plan_button.isEnabled() and not dialog.refused.isVisible()
        run(loop, asyncio.sleep(0.1))
        save_screenshot(dialog, CAMPAIGN_SHOTS / f"remediation-trusted-{language}.png")
        dialog.plan_button.click()
        run(loop, panel.wait_idle())
        bulk = panel.bulk_dialog
        assert bulk is not None and bulk.isVisible() and bulk.to_change() == 1
        assert "Separation of duties" not in panel.message.text
        bulk.job.discard()
        bulk.job = None
        bulk.close()
    finally:
        languages.set_language("en")
        run(loop, auditor.aclose())


def test_kiosk_does_everything_but_the_remediation(
    loop: qasync.QEventLoop,
    sandbox_app: Any,
    campaign_path: Path,
    tmp_path: Path,
    make_panel: Callable[..., CampaignsPanel],
) -> None:
    from ..panel_support import sign_in_as

    auditor = run(loop, sign_in_as(sandbox_app, *AUDITOR, read_only=True))
    try:
        panel = make_panel(auditor, kiosk=True)
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
    panel = make_panel(None)
    assert panel.identity is not None and not panel.identity.account_email  # the key alone
    assert panel.identity.fingerprint in panel.reviewer.text()
    assert "not signed in" in panel.reviewer.text()
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
    run(loop, panel.wait_idle())  # shown: it reads this installation's key
    assert panel.identity is not None and panel.identity.name == panel.identity.fingerprint
    run(loop, panel.open_file(campaign_path))
    item_id = revoke_first_tenant_account(loop, panel)
    assert panel.campaign is not None
    assert panel.campaign.item(item_id).decision == "REVOKE"  # type: ignore[union-attr]
    assert not panel.remediate_button.isVisibleTo(window)  # the kiosk never remediates
    assert "not signed in" in window.windowTitle()


@pytest.mark.parametrize(
    ("language", "folder"), [("en", ""), ("ja", ""), ("en", "Q4 #2 ?50% reviews")]
)
def test_close_asks_naming_the_revokes_not_carried_out_and_the_file_reopens(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    campaign_path: Path,
    make_panel: Callable[..., CampaignsPanel],
    language: str,
    folder: str,
) -> None:
    """Open, close (asked, Cancel, then confirmed) and reopen through the panel's buttons;
    also in a folder whose name has '#', '?' and '%' (closing once failed there, and the file
    reopened as "not a campaign")."""
    from portal_admin.ui.i18n.translators import LanguageManager

    if folder and sys.platform == "win32":
        folder = folder.replace("?", "")  # Windows forbids ? in names; '#' and '%' stay
    if folder:
        (campaign_path.parent / folder).mkdir()
        campaign_path = campaign_path.rename(campaign_path.parent / folder / campaign_path.name)
    languages = LanguageManager()
    languages.set_language(language)
    try:
        panel = make_panel(admin)
        open_through_dialog(loop, panel, campaign_path)
        assert panel.campaign is not None
        revoke_first_tenant_account(loop, panel)
        click_and_answer(loop, panel, panel.sign_button)
        shot = None if folder else CAMPAIGN_SHOTS / f"close-confirm-{language}.png"
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
