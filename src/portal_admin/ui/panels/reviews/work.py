"""What the campaigns panel runs in a worker thread (no Qt): each call opens its own
:class:`~portal_admin.reviews.Campaign` (one per thread), does the costly part (create, sign,
verify, the progress counts, the closing check, the pack) and closes it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from portal_admin import jobs
from portal_admin.evidence import keys
from portal_admin.reviews import Campaign, Settings, Signoff, Verification, create_campaign, signoff
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


def progress(path: Path, today: date | None = None) -> Progress:
    """Decided of total, per decision and per reviewer, and overdue items."""
    with Campaign.open(path) as campaign:
        totals = packs.totals(campaign, today or datetime.now(UTC).date())
        rows = campaign.conn.execute(
            "SELECT d.reviewer, count(*) FROM items AS i JOIN decisions AS d"
            " ON d.seq = i.decision_seq GROUP BY d.reviewer ORDER BY 2 DESC, 1"
        ).fetchall()
        return Progress(
            totals["items"], totals["decided"], totals["kept"], totals["revoked"],
            totals["don't know"], totals["overdue"], [(r[0], r[1]) for r in rows],
            campaign.is_signed(), bool(campaign.meta.get("closed")),
        )  # fmt: skip


def check_open(path: Path) -> None:
    """Every check the engine makes of a file before using it as a campaign (``CampaignError``
    says why not)."""
    Campaign.open(path).close()


def create(path: Path, snapshot: Path, settings: Settings) -> None:
    """A new campaign file from a snapshot."""
    create_campaign(path, snapshot, settings).close()


def sign(path: Path, reviewer: str, store: keys.SecretStore | None) -> Signoff:
    """Sign the file's decisions as ``reviewer`` with this installation's key."""
    key = keys.signing_key(store)
    with Campaign.open(path) as campaign:
        return signoff.sign(campaign, reviewer, key)


def verify(path: Path) -> Verification:
    """Check every sign-off against the file now."""
    with Campaign.open(path) as campaign:
        return signoff.verify(campaign)


def check_closing(path: Path, snapshot: Path, account: str) -> dict[str, int]:
    """The closing check against ``snapshot``; the campaign is closed by ``account``."""
    with Campaign.open(path) as campaign:
        return closings.check(campaign, snapshot, close_as=account)


def revokes_not_done(path: Path) -> int:
    """Signed-off Revokes the campaign's remediation jobs have not carried out (all of them
    when it was never remediated): what closing would leave for good."""
    with Campaign.open(path) as campaign:
        refs = {
            r[0]
            for r in campaign.conn.execute(
                "SELECT ref FROM items WHERE decision = 'REVOKE'"
                " AND id IN (SELECT item FROM signed_items)"
            )
        }
        done: set[str] = set()
        for planned in (campaign.meta.get("remediation") or {}).get("jobs", []):
            try:
                job = jobs.JobFile.open(Path(planned["file"]))
            except (jobs.JobFileError, KeyError, TypeError):
                continue
            try:
                done.update(i.target_id for i in job.items([jobs.ItemState.DONE]))
            finally:
                job.close()
        return len(refs - done)


def closing_rows(path: Path, limit: int = 1000) -> list[tuple[Any, ...]]:
    """The closing check's first rows."""
    with Campaign.open(path) as campaign:
        rows = campaign.conn.execute(
            "SELECT coalesce(i.label, c.item), c.outcome, c.current, c.detail FROM closing AS c"
            " LEFT JOIN items AS i ON i.id = c.item ORDER BY c.outcome, c.item LIMIT ?",
            (limit,),
        )
        return [tuple(r) for r in rows]


def write_pack(path: Path, out: Path, store: keys.SecretStore | None) -> dict[str, Any]:
    """The campaign's signed evidence pack."""
    key = keys.signing_key(store)
    with Campaign.open(path) as campaign:
        return packs.write(campaign, out, key)
