"""Closing a campaign: a closing snapshot, and every decision checked against it in SQL (the
snapshot attached to the campaign file): revoked and done, revoked but not done (with the
state now), kept but changed meanwhile, and accounts that appeared after the scope (they
match the campaign's filter now and were not in its scope). One transaction: a re-run after
a kill replaces the check whole.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.client import PortalClient
from portal_admin.evidence.snapshot import Snapshot, SnapshotError, open_snapshot, take_snapshot
from portal_admin.evidence.snapshot import check_attached as check_snapshot

from . import opening
from .campaign import Campaign, CampaignError, now_iso, unreadable
from .create import ScopeFilter
from .remediation import unremediated
from .signoff import verify

OUTCOMES = (
    "revoked and done",
    "revoked, not done",
    "kept, changed meanwhile",
    "appeared after the scope",
)
#: Statuses that mean a revocation is in place.
REVOKED = {"SUSPEND": ("SUSPENDED", "DEACTIVATED"), "DEACTIVATE": ("DEACTIVATED",)}
#: Each decided item ``i`` with its latest decision ``l.decision`` in the history (never the
#: queue's derived column), from ``temp.latest``, made once per check by :func:`_latest`.
LATEST = "temp.latest AS l CROSS JOIN items AS i ON i.seq = l.seq"
#: Account fields compared between the scope and the closing snapshot.
FIELDS = (("status", "status"), ("label", "email"), ("name", "name"), ("portal", "portal"),
          ("institution", "institution"))  # fmt: skip


def check(
    campaign: Campaign,
    closing: Path | Snapshot,
    *,
    close_as: str | None = None,
    folder: Path | None = None,
) -> dict[str, int]:
    """Check every decision against the closing snapshot; record it (and, with ``close_as``,
    the campaign closed by that account, in the same transaction); return the counts.
    The campaign is verified first: the revocation action is the one its sign-offs cover,
    and closing a campaign that does not verify is refused (CHANGED). ``folder``: the jobs
    folder (the default one when None)."""
    try:
        snapshot = closing if isinstance(closing, Snapshot) else open_snapshot(Path(closing))
    except SnapshotError as exc:
        raise CampaignError(
            "BAD_INPUT", f"the closing snapshot: {exc}",
            reason="CLOSING_UNREADABLE", params=(Path(str(closing)).name,),
        ) from None  # fmt: skip
    verification = verify(campaign, own=None)  # before anything is recorded
    # the revocation action the signatures cover (the metadata's is not signed)
    done = REVOKED.get(verification.revocation, ("DEACTIVATED",))
    marks = ",".join("?" * len(done))
    filt = campaign.meta.get("filter") or {}
    scope = ScopeFilter(
        filt.get("portals", ()), filt.get("institutions", ()), filt.get("statuses", ())
    )
    where, args = scope.sql("c.")
    conn = campaign.conn
    # CHANGED when the campaign does not verify: it is not closed on a count nobody signed
    left = len(unremediated(campaign, verification, folder)) if close_as is not None else 0
    conn.execute("ATTACH DATABASE ? AS c", (opening.uri(snapshot.path),))
    try:
        with campaign.transaction():
            try:  # checked as data where it is read, in this transaction
                check_snapshot(conn, "c", snapshot)
            except SnapshotError as exc:
                raise CampaignError(
                    "BAD_INPUT", f"the closing snapshot: {exc}",
                    reason="CLOSING_UNREADABLE", params=(snapshot.path.name,),
                ) from None  # fmt: skip
            _latest(conn)
            conn.execute("DELETE FROM closing")
            conn.execute(
                "INSERT INTO closing (item, outcome, current, detail)"  # noqa: S608
                " SELECT i.id, CASE WHEN c.id IS NULL OR c.status IN"
                f" ({marks}) THEN 'revoked and done' ELSE 'revoked, not done' END,"
                " coalesce(c.status, 'no longer on the server'), ''"
                f" FROM {LATEST} LEFT JOIN c.accounts AS c ON c.id = i.ref"
                f" WHERE i.kind = 'account' AND l.decision = 'REVOKE'",
                done,
            )
            conn.execute(
                "INSERT INTO closing (item, outcome, current, detail)"  # noqa: S608
                " SELECT i.id, CASE WHEN c.id IS NULL THEN 'revoked and done'"
                " ELSE 'revoked, not done' END, coalesce(c.name, 'no longer on the server'), ''"
                f" FROM {LATEST} LEFT JOIN c.roles AS c ON c.id = i.ref"
                f" WHERE i.kind = 'role' AND l.decision = 'REVOKE'"
            )
            conn.execute(
                "INSERT INTO closing (item, outcome, current, detail)"  # noqa: S608
                " SELECT i.id, CASE WHEN c.status = 'PENDING' THEN 'revoked, not done'"
                " ELSE 'revoked and done' END, coalesce(c.status, 'no longer on the server'), ''"
                f" FROM {LATEST} LEFT JOIN c.invitations AS c ON c.id = i.ref"
                f" WHERE i.kind = 'invitation' AND l.decision = 'REVOKE'"
            )
            differs = " OR ".join(f"i.{a} IS NOT c.{b}" for a, b in FIELDS)
            detail = " || ".join(
                f"CASE WHEN i.{a} IS NOT c.{b} THEN '{b}: ' || coalesce(i.{a}, '') || ' → '"
                f" || coalesce(c.{b}, '') || '; ' ELSE '' END"
                for a, b in FIELDS
            )
            conn.execute(
                "INSERT INTO closing (item, outcome, current, detail)"  # noqa: S608
                " SELECT i.id, 'kept, changed meanwhile',"
                " coalesce(c.status, 'no longer on the server'),"
                " CASE WHEN c.id IS NULL THEN 'no longer on the server'"
                f" ELSE rtrim({detail}, '; ') END"
                f" FROM {LATEST} LEFT JOIN c.accounts AS c ON c.id = i.ref"
                f" WHERE i.kind = 'account' AND l.decision = 'KEEP'"
                f" AND (c.id IS NULL OR {differs})"
            )
            conn.execute(
                "INSERT INTO closing (item, outcome, current, detail)"  # noqa: S608
                " SELECT 'account:' || c.id, 'appeared after the scope', c.status,"
                " coalesce(c.email, '') FROM c.accounts AS c"
                f" WHERE {where} AND NOT EXISTS"
                " (SELECT 1 FROM items AS i WHERE i.id = 'account:' || c.id)",
                args,
            )
            counts = {
                o: n
                for o, n in conn.execute("SELECT outcome, count(*) FROM closing GROUP BY outcome")
            }
            result = {o: int(counts.get(o, 0)) for o in OUTCOMES}
            campaign.set_meta(
                conn,
                closing={
                    "snapshot": snapshot.path.name,
                    "server": snapshot.meta.get("server"),
                    "taken": snapshot.meta.get("finished"),
                    "checked": now_iso(),
                    "counts": result,
                },
            )
            if close_as is not None:
                campaign.set_meta(
                    conn,
                    closed=True,
                    closed_at=now_iso(),
                    closed_by=close_as,
                    closed_unremediated=left,
                )
    finally:
        conn.execute("DROP TABLE IF EXISTS temp.latest")
        conn.execute("DETACH DATABASE c")
    return result


def _latest(conn: Any) -> None:
    """``temp.latest``: each decided item's latest decision in the history, by item seq."""
    conn.execute("DROP TABLE IF EXISTS temp.latest")
    conn.execute("CREATE TEMP TABLE latest (seq INTEGER PRIMARY KEY, decision TEXT NOT NULL)")
    conn.execute(
        "INSERT INTO temp.latest SELECT i.seq, d.decision FROM items AS i"
        " JOIN decisions AS d ON d.seq = (SELECT max(h.seq) FROM decisions AS h"
        " WHERE h.item = i.id)"
    )
    conn.execute("CREATE INDEX temp.latest_decision ON latest (decision)")


async def close(
    campaign: Campaign,
    client: PortalClient,
    *,
    snapshot_path: Path | None = None,
    account: str = "",
    profile: str = "",
) -> dict[str, int]:
    """Take the closing snapshot (beside the campaign file unless ``snapshot_path``), check
    every decision against it, and mark the campaign closed (decisions are final)."""
    path = snapshot_path or campaign.path.with_name(
        f"{campaign.path.name}.closing-{now_iso()[:19].replace(':', '')}.sqlite3"
    )
    taken = await take_snapshot(
        client, path, profile=profile, server=str(client.base_url), account=account
    )
    return check(campaign, taken, close_as=account)


def closing_rows(campaign: Campaign) -> list[tuple[Any, ...]]:
    """The closing check's rows: item, outcome, the state now, what changed."""
    return list(
        campaign.conn.execute(
            "SELECT item, outcome, current, detail FROM closing ORDER BY outcome, item"
        )
    )


@dataclass(frozen=True, slots=True)
class ClosingRow:
    """One row of the closing check as shown: the item's label (its id when the scope has no
    such item), the outcome (one of :data:`OUTCOMES`), its state at closing and what
    changed."""

    label: str
    outcome: str
    current: str
    detail: str


def shown_rows(campaign: Campaign, limit: int = 1000) -> list[ClosingRow]:
    """The closing check's first ``limit`` rows, by outcome and item."""
    try:
        rows = campaign.conn.execute(
            "SELECT coalesce(i.label, c.item), c.outcome, c.current, c.detail FROM closing AS c"
            " LEFT JOIN items AS i ON i.id = c.item ORDER BY c.outcome, c.item LIMIT ?",
            (limit,),
        ).fetchall()
    except sqlite3.DatabaseError as exc:
        raise unreadable(campaign.path, exc) from None
    return [ClosingRow(*(str(v) for v in r)) for r in rows]
