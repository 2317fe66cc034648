"""Who signed a campaign off, in the reader's language: each sign-off's reviewer, the server
account they were signed in as, their key's fingerprint and whether this installation trusts
that key (its own, trusted under a name, the pinned one, or not trusted); and why the
administrator about to remediate is one of those who decided or signed (separation of
duties), by key and server identity, never by a typed name; and what a verification found,
from the engine's finding codes (``reviews.signoff.FINDINGS``)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from portal_admin.reviews import Reviewer, Signoff, Verification
from portal_admin.reviews.signoff import Finding
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

TRUST = {
    "own": QT_TRANSLATE_NOOP("CampaignSigners", "This installation's key"),
    "trusted": QT_TRANSLATE_NOOP("CampaignSigners", "Trusted as “%1”"),
    "pinned": QT_TRANSLATE_NOOP("CampaignSigners", "The key given for this check"),
    "untrusted": QT_TRANSLATE_NOOP("CampaignSigners", "Not trusted by this installation"),
}

DECIDED = {
    "key": QT_TRANSLATE_NOOP(
        "CampaignSigners", "%1 decided %2 of these Revokes with this installation's key."
    ),
    "account": QT_TRANSLATE_NOOP(
        "CampaignSigners", "%1 decided %2 of these Revokes as your server account."
    ),
}

#: What a verification found, by the engine's code (``%1``, ``%2``: its parameters).
FINDINGS = {
    "ORPHAN": QT_TRANSLATE_NOOP(
        "CampaignSigners",
        "Signed items name sign-off %1, which this file does not have: they count as signed"
        " by nobody.",
    ),
    "SELF_DECIDED": QT_TRANSLATE_NOOP("CampaignSigners", "decided by its own account: %1"),
    "NOT_VERIFIED": QT_TRANSLATE_NOOP(
        "CampaignSigners", "the sign-off by %1 of %2 does not verify: it was changed"
    ),
    "OTHER_KEY": QT_TRANSLATE_NOOP(
        "CampaignSigners", "the sign-off by %1 was made with another key (%2)"
    ),
    "CHANGED": QT_TRANSLATE_NOOP("CampaignSigners", "changed: %1"),
    "REMOVED": QT_TRANSLATE_NOOP("CampaignSigners", "removed: %1"),
    "ADDED": QT_TRANSLATE_NOOP("CampaignSigners", "added: %1"),
    "INCONSISTENT": QT_TRANSLATE_NOOP(
        "CampaignSigners", "its decision in the queue is not the history's: %1"
    ),
    "MORE": QT_TRANSLATE_NOOP("CampaignSigners", "… and %1 more items"),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("CampaignSigners", text)


def trust_words(signoff: Signoff) -> str:
    """Whether this installation trusts the signer's key, in words."""
    template = TRUST.get(signoff.trust, TRUST["untrusted"])
    return fill(_tr(template), signoff.trusted_name)


def account_words(signoff: Signoff) -> str:
    """The server account the signer was signed in as (its id too), or that they were not."""
    if signoff.account_email and signoff.account_id:
        return fill(
            QCoreApplication.translate("CampaignSigners", "%1 (account %2)"),
            signoff.account_email,
            signoff.account_id,
        )
    if signoff.account_email or signoff.account_id:
        return signoff.account_email or signoff.account_id
    return QCoreApplication.translate("CampaignSigners", "Not signed in")


def line(signoff: Signoff) -> str:
    """One sign-off in a line: reviewer, account, key and trust."""
    return fill(
        QCoreApplication.translate("CampaignSigners", "%1 (%2), key %3: %4"),
        signoff.reviewer,
        account_words(signoff),
        signoff.fingerprint,
        trust_words(signoff),
    )


def same_person(check: Verification, administrator: Reviewer) -> list[str]:
    """Why ``administrator`` (this installation's key and the signed-in account) is one of
    those who signed off or decided the Revokes to carry out; empty when nobody is them."""
    fingerprint = administrator.fingerprint
    account_id = administrator.account_id
    email = administrator.account_email.strip().casefold()

    def how(key: str, their_id: str, their_email: str) -> str | None:
        if key == fingerprint:
            return "key"
        if (account_id and their_id == account_id) or (
            email and their_email.strip().casefold() == email
        ):
            return "account"
        return None

    reasons: list[str] = []
    for s in check.signoffs:
        found = how(s.fingerprint, s.account_id, s.account_email)
        if found == "key":
            reasons.append(
                fill(
                    QCoreApplication.translate(
                        "CampaignSigners", "%1 signed off with this installation's key."
                    ),
                    s.reviewer,
                )
            )
        elif found == "account":
            reasons.append(
                fill(
                    QCoreApplication.translate(
                        "CampaignSigners", "%1 signed off as your server account."
                    ),
                    s.reviewer,
                )
            )
    decided: dict[tuple[str, str], int] = {}
    for d in check.revokes:
        found = how(d.fingerprint, d.account_id, d.account_email)
        if found is not None:
            decided[(d.reviewer, found)] = decided.get((d.reviewer, found), 0) + 1
    for (reviewer, found), n in decided.items():
        reasons.append(fill(_tr(DECIDED[found]), reviewer, n))
    return reasons


def finding_words(finding: Finding) -> str:
    """What a verification found, in the reader's language (the engine's English for a code
    this program has no sentence for)."""
    template = FINDINGS.get(finding.code)
    return fill(_tr(template), *finding.params) if template is not None else finding.english
