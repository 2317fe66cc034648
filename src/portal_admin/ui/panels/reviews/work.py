"""What the campaigns panel runs in a worker thread (no Qt): each call opens its own
:class:`~portal_admin.reviews.Campaign` (one per thread), does the costly part (create, sign,
verify, the progress counts, the closing check, the pack) and closes it.

A file is checked whole once, when the panel opens it (:func:`check_open`: the engine's
``Campaign.open`` with a time limit); the frequent reads after (the progress counts, the
closing rows, the loop's own connection) reopen it (``Campaign.reopen``) without checking it
again. The steps that sign, verify, remediate, close or pack open it with every check again."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from portal_admin.evidence import keys
from portal_admin.evidence import trust as trusting
from portal_admin.reviews import (
    Campaign,
    Reviewer,
    Settings,
    Signoff,
    Verification,
    create_campaign,
    remediation,
    signoff,
)
from portal_admin.reviews import closing as closings
from portal_admin.reviews import pack as packs


@dataclass
class Progress:
    """The counts the panel's header shows."""

    items: int = 0
    decided: int = 0
    kept: int = 0
    revoked: int = 0
    dont_know: int = 0
    overdue: int = 0
    #: (reviewer, decisions) of the latest decisions, most first.
    reviewers: list[tuple[str, int]] = field(default_factory=list)
    signed: bool = False
    closed: bool = False


def check_open(path: Path, limit: float) -> None:
    """Every check the engine makes of a file before it is used as a campaign, within
    ``limit`` seconds (``CampaignError``: NOT_FOUND, NOT_A_CAMPAIGN, FOREIGN_SQL, SCHEMA,
    DAMAGED, NEWER_SCHEMA, TOO_SLOW); a file of an earlier schema is upgraded in place."""
    Campaign.open(path, timeout=limit).close()


def progress(path: Path, today: date | None = None) -> Progress:
    """Decided of total, per decision and per reviewer, and overdue items."""
    with Campaign.reopen(path) as campaign:
        totals = packs.totals(campaign, today or datetime.now(UTC).date())
        return Progress(
            totals["items"], totals["decided"], totals["kept"], totals["revoked"],
            totals["don't know"], totals["overdue"], campaign.decisions_by_reviewer(),
            campaign.is_signed(), bool(campaign.meta.get("closed")),
        )  # fmt: skip


def create(path: Path, snapshot: Path, settings: Settings) -> None:
    """A new campaign file from a snapshot."""
    create_campaign(path, snapshot, settings).close()


def own_key(store: keys.SecretStore | None) -> str:
    """This installation's key fingerprint (the key is made on first use, as for a pack;
    ``keys.KeyUnavailable`` without a keyring)."""
    return keys.fingerprint(keys.signing_key(store).public_key())


def undecided(path: Path) -> int:
    """Items with no decision in the history."""
    with Campaign.reopen(path) as campaign:
        return campaign.undecided()


def sign(
    path: Path, reviewer: Reviewer, store: keys.SecretStore | None, *, allow_undecided: bool
) -> Signoff:
    """Sign the file's decisions as ``reviewer`` with this installation's key (items without
    a decision only when ``allow_undecided``: UNDECIDED otherwise)."""
    key = keys.signing_key(store)
    with Campaign.open(path) as campaign:
        return signoff.sign(campaign, reviewer, key, allow_undecided=allow_undecided)


def verify(
    path: Path, trust_store: trusting.TrustStore | None, store: keys.SecretStore | None
) -> Verification:
    """Check every sign-off against the file now, and whether this installation trusts each
    signer's key (its own, a trusted one, or not)."""
    own = trusting.own_fingerprint(store)
    with Campaign.open(path) as campaign:
        return signoff.verify(campaign, trust_store=trust_store, own=own)


def check_closing(path: Path, snapshot: Path, account: str) -> dict[str, int]:
    """The closing check against ``snapshot``; the campaign is closed by ``account``."""
    with Campaign.open(path) as campaign:
        return closings.check(campaign, snapshot, close_as=account)


def revokes_not_done(path: Path) -> int:
    """Signed-off Revokes not carried out (no remediation job line done for them): what
    closing would leave for good."""
    with Campaign.open(path) as campaign:
        return len(remediation.unremediated(campaign))


def closing_rows(path: Path, limit: int = 1000) -> list[closings.ClosingRow]:
    """The closing check's first rows."""
    with Campaign.reopen(path) as campaign:
        return closings.shown_rows(campaign, limit)


def write_pack(path: Path, out: Path, store: keys.SecretStore | None) -> dict[str, Any]:
    """The campaign's signed evidence pack."""
    key = keys.signing_key(store)
    with Campaign.open(path) as campaign:
        return packs.write(campaign, out, key)
