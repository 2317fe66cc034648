"""Signing off (asked first, naming the undecided items; then signed in a worker thread with
this installation's key: the decisions are frozen) and verifying (each sign-off checked
against the file now, with its signer's key and whether it is trusted)."""

from __future__ import annotations

import functools
from typing import Any

from PySide6.QtCore import QCoreApplication

from portal_admin.evidence import keys
from portal_admin.reviews import CampaignError
from portal_admin.ui.error_info import ErrorInfo
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.panels.evidence import packing

from . import confirmations, refusals, signers, work
from .host import CampaignsHost


async def sign_off(panel: CampaignsHost) -> Any:
    """Sign every decision of the file as the reviewer (a worker thread): they are frozen."""
    campaign = panel.campaign
    if campaign is None:
        return None
    reviewer = await panel.load_identity()
    if reviewer is None:
        return None
    summary = QCoreApplication.translate("Campaigns", "The campaign was not signed off.")
    try:
        undecided = await in_worker(work.undecided, campaign.path)  # counted now
    except CampaignError as exc:
        panel.message.show_error(refusals.refusal(summary, exc, campaign.path.name))
        return None
    box, button = confirmations.sign_off_box(panel.as_panel(), campaign.name, undecided)
    if not await panel.ask(box, button) or panel.campaign is not campaign:
        return None
    try:  # undecided items only if the person was told of them (more since: UNDECIDED)
        done = await in_worker(
            functools.partial(
                work.sign, campaign.path, reviewer, panel.key_store,
                allow_undecided=undecided > 0,
            )
        )  # fmt: skip
        campaign.reload_meta()
    except CampaignError as exc:
        panel.message.show_error(refusals.refusal(summary, exc, campaign.path.name))
        return None
    except keys.KeyUnavailable as exc:
        panel.message.show_error(packing.failure(exc))
        return None
    panel.message.show_notice(
        fill(
            QCoreApplication.translate(
                "Campaigns",
                "Signed off by %1: %2 items, key %3. Give this fingerprint to the"
                " administrator by another channel.",
            ),
            done.reviewer,
            done.items,
            done.fingerprint,
        )
    )
    await panel.update_progress()
    return done


async def verify(panel: CampaignsHost) -> Any:
    """Check the sign-offs and the trust in each signer's key (a worker thread); name
    what changed since, and each signer with their key and its trust."""
    if panel.campaign is None:
        return None
    try:
        check = await in_worker(
            work.verify, panel.campaign.path, panel.trust_store, panel.key_store
        )
    except CampaignError as exc:
        summary = QCoreApplication.translate("Campaigns", "The sign-offs were not checked.")
        panel.message.show_error(refusals.refusal(summary, exc, panel.campaign.path.name))
        return None
    who = "\n".join(signers.line(s) for s in check.signoffs)
    if check.status == "unsigned":
        panel.message.show_notice(
            QCoreApplication.translate("Campaigns", "Nothing in this campaign is signed off yet.")
        )
    elif check.status == "intact" and check.untrusted:
        panel.message.show_error(
            ErrorInfo(
                QCoreApplication.translate(
                    "Campaigns",
                    "The sign-offs verify, but a signer's key is not trusted by this"
                    " installation: remediation is refused until it is.",
                ),
                who,
            )
        )
    elif check.status == "intact":
        panel.message.show_notice(
            fill(QCoreApplication.translate("Campaigns", "The sign-offs verify:\n%1"), who)
        )
    else:
        panel.message.show_error(
            ErrorInfo(
                QCoreApplication.translate(
                    "Campaigns", "The campaign changed since it was signed off."
                ),
                "\n".join(signers.finding_words(f) for f in check.findings[:20]),
            )
        )
    return check
