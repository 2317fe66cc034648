"""Remediating: the sign-offs checked in a worker thread and shown in the remediation dialog
(who signed, with which key, whether it is trusted; the separation-of-duties warning); Plan
makes the bulk job of the signed-off Revokes and shows it in the bulk window, where it
runs."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from portal_admin.reviews import CampaignError, Verification
from portal_admin.ui.error_info import ErrorInfo, describe_error
from portal_admin.ui.file_work import in_worker

from . import refusals, signers, work
from .host import CampaignsHost
from .plain import plain
from .remediation_dialog import RemediationDialog


async def remediate(panel: CampaignsHost) -> RemediationDialog | None:
    """Remediate…: check the sign-offs (a worker thread) and show who signed, with which
    key and whether this installation trusts it, and the separation-of-duties warning;
    planning waits for the dialog's Plan (refused while a signer is not trusted)."""
    if panel.campaign is None or panel.client is None or panel.kiosk:
        return None
    who = await panel.load_identity()
    if who is None:
        return None
    if panel.remediation_dialog is None:
        dialog = RemediationDialog(panel.trust_store, who.fingerprint, panel.as_panel())
        dialog.planRequested.connect(lambda: panel.spawn(panel.plan_remediation()))
        dialog.recheckRequested.connect(lambda: panel.spawn(panel.check_signers()))
        panel.remediation_dialog = dialog
    if await panel.check_signers() is None:
        return None
    panel.remediation_dialog.open()
    return panel.remediation_dialog


async def check_signers(panel: CampaignsHost) -> Verification | None:
    """Check the sign-offs and the trust in each signer's key (a worker thread) and show
    them in the remediation dialog."""
    campaign, dialog, who = panel.campaign, panel.remediation_dialog, panel.identity
    if campaign is None or dialog is None or who is None:
        return None
    try:
        check = await in_worker(work.verify, campaign.path, panel.trust_store, panel.key_store)
    except CampaignError as exc:
        summary = QCoreApplication.translate("Campaigns", "The sign-offs were not checked.")
        panel.message.show_error(refusals.refusal(summary, exc, campaign.path.name))
        return None
    dialog.show_check(campaign.name, check, signers.same_person(check, who))
    return check


async def plan_remediation(panel: CampaignsHost) -> Any:
    """Plan the signed-off revocations as a bulk job (the engine checks the sign-offs and
    the trust in their keys again) and show it in the bulk window, where it runs."""
    from portal_admin.reviews import remediation

    from ...bulk.dialog import BulkDialog, Sources

    campaign, client, dialog = panel.campaign, panel.client, panel.remediation_dialog
    if campaign is None or client is None or dialog is None or panel.kiosk:
        return None
    summary = QCoreApplication.translate("Campaigns", "Nothing was remediated.")
    try:
        context = await panel.context.job_context()
        plan = await remediation.remediate(
            campaign, client, context, key_store=panel.key_store, trust_store=panel.trust_store
        )
        campaign.reload_meta()
    except CampaignError as exc:
        panel.message.show_error(refusals.refusal(summary, exc, campaign.path.name))
        await panel.check_signers()  # the dialog says which signer or item
        return None
    except Exception as exc:  # the server: said, never only logged
        info = describe_error(exc)
        panel.message.show_error(ErrorInfo(summary, info.summary, code=info.code))
        return None
    dialog.accept()
    warning = dialog.duties.text() if dialog.reasons else ""
    if warning:
        panel.message.show_error(
            ErrorInfo(
                QCoreApplication.translate("Campaigns", "You reviewed this campaign."), warning
            )
        )
    accounts = [j for j in plan.jobs if j.meta()["kind"] != "cancel-invitation"]
    if not plan.jobs:
        panel.message.show_notice(
            QCoreApplication.translate("Campaigns", "No signed-off Revoke to carry out.")
        )
        return plan
    job = (accounts or plan.jobs)[0]
    area = "accounts" if accounts else "invitations"
    bulk = BulkDialog(
        panel.as_panel(), Sources(area), "status" if accounts else "cancel-invitation"
    )
    plain(bulk.error)  # the warning names reviewers from the file
    if plan.resumed:
        bulk.show_job(job)
    else:
        bulk.job = job
        bulk.show_plan()
    if warning:
        bulk.show_error(warning)
    panel.bulk_dialog = bulk
    bulk.show()
    return plan
