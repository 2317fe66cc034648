"""Who reviews in the Campaigns panel: this installation's key and, when signed in, the
server's account (``GET /profile``): never a typed name. Signed out (the offline review
window) the reviewer is the key alone, named by its fingerprint.

The key is read (made on first use, as for an evidence pack) in a worker thread; the profile
comes from the panel's context. A decision, a sign-off and the separation-of-duties check
all carry this identity (``reviews.decisions.Reviewer``)."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QCoreApplication

from portal_admin.evidence import keys
from portal_admin.reviews import CampaignError, Reviewer
from portal_admin.reviews.decisions import reviewer_name
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.i18n.text import fill

from . import work

log = logging.getLogger(__name__)


async def load(context: Any, key_store: keys.SecretStore | None, online: bool) -> Reviewer:
    """The reviewer: this installation's key (``keys.KeyUnavailable`` without a keyring) and,
    when ``online``, the account the server says is signed in (the key alone when the
    profile cannot be read)."""
    fingerprint = await in_worker(work.own_key, key_store)
    account_id = account_email = ""
    if online:
        try:
            me = await context.live_profile()
        except Exception as exc:  # signed out meanwhile, or the network: the key alone
            log.info("no live profile for the reviewer: %s", type(exc).__name__)
        else:
            account_id = str(getattr(me, "biz_id", "") or "")
            account_email = str(getattr(me, "account_email", "") or "")
    try:
        name = reviewer_name(account_email or account_id or fingerprint)
    except CampaignError:  # a server's e-mail that is not one line of text: the key names them
        name = fingerprint
    return Reviewer(name, fingerprint, account_id, account_email)


def words(reviewer: Reviewer | None, *, keyless: bool = False) -> str:
    """The reviewer in a line: the account (when signed in) and the key's fingerprint
    (``keyless``: this computer has no usable keyring, so nobody can decide here)."""
    if keyless:
        return QCoreApplication.translate(
            "CampaignIdentity", "No key: this computer has no usable keyring to decide with."
        )
    if reviewer is None:
        return QCoreApplication.translate("CampaignIdentity", "Reading this installation's key…")
    if reviewer.account_email or reviewer.account_id:
        account = reviewer.account_email or reviewer.account_id
        return fill(
            QCoreApplication.translate(
                "CampaignIdentity", "%1 (signed in), with this installation's key %2"
            ),
            account,
            reviewer.fingerprint,
        )
    return fill(
        QCoreApplication.translate(
            "CampaignIdentity", "This installation's key %1 (not signed in)"
        ),
        reviewer.fingerprint,
    )
