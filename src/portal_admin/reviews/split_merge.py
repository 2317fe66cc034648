"""Splitting a campaign into one file per reviewer (by portal or institution), and merging
the decided files back.

A part is a campaign file of its own (the same campaign id, ``part`` naming it: e.g.
``portal=TENANT``), holding its items, their flags and decision history; roles and
invitations, which have no portal or institution, go to the part ``other``. Merging a file
is one transaction: refused whole (naming the file's first offending item) when it is from
another campaign, holds an item the campaign does not have (or has differently), decides an
item differently from what the campaign already holds, or changes a signed-off decision.
Decisions and sign-offs already merged are not merged again (a re-run after a kill records
nothing twice).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from portal_admin.files.terminal import printable

from . import opening
from .campaign import Campaign, CampaignError, check_attached
from .create import write_new

SPLITS = ("portal", "institution")
OTHER = "other"
#: Columns that say what an item is (a part's must match the campaign's).
IDENTITY = ("kind", "ref", "label", "name", "status", "portal", "institution", "updated", "detail")
#: Columns that say what a decision is.
DECISION = (
    "item", "decision", "justification", "reviewer", "fingerprint", "decided_at", "source",
    "account_id", "account_email",
)  # fmt: skip
#: Columns of a sign-off copied by a merge.
SIGNOFF = (
    "part", "reviewer", "fingerprint", "public_key", "signed_at", "items", "digest",
    "signature", "account_id", "account_email", "format",
)  # fmt: skip


def part_name(by: str, value: str | None) -> str:
    """``portal=TENANT``; ``other`` for items with no such value (roles, invitations)."""
    return f"{by}={value}" if value else OTHER


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:60] or "part"


def split(
    campaign: Campaign, by: str, folder: Path, reviewers: Mapping[str, str] | None = None
) -> list[Path]:
    """One campaign file per value of ``by`` (portal or institution) in ``folder``, named
    ``<campaign file>.<part>.review``; ``reviewers``: value → the reviewer a part is for (their
    own account is flagged, in the part and in the campaign alike, so that the part's
    sign-off verifies once merged). A part file already written for this campaign is kept."""
    if by not in SPLITS:
        raise CampaignError("BAD_INPUT", f"split by one of {', '.join(SPLITS)}")
    if campaign.meta.get("part"):
        raise CampaignError("BAD_INPUT", "this file is already a part: split the campaign itself")
    if campaign.is_signed():
        raise CampaignError("FROZEN", "a signed-off campaign is not split")
    reviewers = dict(reviewers or {})
    values = [
        r[0]
        for r in campaign.conn.execute(f"SELECT DISTINCT {by} FROM items ORDER BY 1")  # noqa: S608
    ]
    with campaign.transaction() as conn:
        conn.execute(
            f"UPDATE items SET part = CASE WHEN {by} IS NULL OR {by} = '' THEN ?"  # noqa: S608
            f" ELSE ? || {by} END",
            (OTHER, f"{by}="),
        )
        for value, reviewer in reviewers.items():  # their own account, flagged here too
            conn.execute(
                "INSERT OR IGNORE INTO flags (item, code, reason) SELECT seq, 'OWN',"
                " 'the reviewer''s own account: another reviewer decides it' FROM items"
                " WHERE kind = 'account' AND part = ? AND lower(label) = lower(?)",
                (part_name(by, value), reviewer.strip()),
            )
        conn.execute(
            "UPDATE items SET flags = (SELECT count(*) FROM flags WHERE flags.item = items.seq)"
        )
    folder.mkdir(parents=True, exist_ok=True)
    stem = campaign.path.name.removesuffix(".review")
    written: list[Path] = []
    for value in dict.fromkeys(v or "" for v in values):
        part = part_name(by, value)
        path = folder / f"{stem}.{_safe(part)}.review"
        if path.exists():
            try:
                with Campaign.open(path) as existing:
                    if (
                        existing.campaign_id == campaign.campaign_id
                        and existing.meta.get("part") == part
                    ):
                        written.append(path)
                        continue
            except CampaignError:
                pass
            raise CampaignError("BAD_INPUT", f"{path} exists already and is not this part")
        reviewer = reviewers.get(value, "")
        meta = {**campaign.meta, "part": part, "reviewer": reviewer}
        source = campaign.path

        def fill(
            conn: sqlite3.Connection,
            part: str = part,
            reviewer: str = reviewer,
            source: Path = source,
        ) -> None:
            conn.execute("COMMIT")
            conn.execute("ATTACH DATABASE ? AS m", (opening.uri(source),))
            conn.execute("BEGIN")
            conn.execute("INSERT INTO items SELECT * FROM m.items WHERE part = ?", (part,))
            conn.execute(
                "INSERT INTO flags SELECT f.* FROM m.flags AS f JOIN items ON items.seq = f.item"
            )
            conn.execute(
                "INSERT INTO decisions SELECT d.* FROM m.decisions AS d"
                " WHERE d.item IN (SELECT id FROM items)"
            )
            conn.execute("COMMIT")
            conn.execute("DETACH DATABASE m")
            conn.execute("BEGIN")

        write_new(path, meta, fill)
        written.append(path)
    return written


@dataclass(frozen=True, slots=True)
class Merged:
    """What merging one file brought: decisions and sign-offs new to the campaign."""

    path: Path
    part: str
    decisions: int
    signoffs: int


def merge(campaign: Campaign, path: Path) -> Merged:
    """Merge one decided part file into ``campaign`` (one transaction; see the module)."""
    path = Path(path)
    if campaign.meta.get("closed"):
        raise CampaignError("CLOSED", f"campaign {campaign.name!r} is closed")
    with Campaign.open(path) as part_file:  # names why a file is not a campaign
        other = part_file.meta
    if other.get("id") != campaign.campaign_id:
        raise CampaignError(
            "OTHER_CAMPAIGN",
            f"{path.name} is from another campaign ({other.get('name')!r}): nothing merged",
        )
    conn = campaign.conn
    conn.execute("ATTACH DATABASE ? AS p", (opening.uri(path),))
    try:
        return _merge(campaign, conn, path, other)
    except sqlite3.DatabaseError as exc:
        raise CampaignError(
            "NOT_A_CAMPAIGN", f"{path.name} cannot be merged: it is damaged ({exc})"
        ) from None
    finally:
        conn.execute("DETACH DATABASE p")


def _merge(
    campaign: Campaign, conn: sqlite3.Connection, path: Path, other: dict[str, object]
) -> Merged:
    """The merge's transaction (``p`` attached)."""
    with campaign.transaction():
        # checked when opened, but reopened by name to attach: checked again where it is read
        check_attached(conn, "p", path)
        _check(conn, path, str(other.get("part") or ""))
        before = conn.execute("SELECT coalesce(max(seq), 0) FROM decisions").fetchone()[0]
        same = " AND ".join(f"d.{c} IS pd.{c}" for c in DECISION)
        conn.execute(
            f"INSERT INTO decisions ({', '.join(DECISION)}) SELECT {', '.join('pd.' + c for c in DECISION)}"  # noqa: E501, S608
            " FROM p.decisions AS pd WHERE NOT EXISTS"
            f" (SELECT 1 FROM decisions AS d WHERE {same})"
            " ORDER BY pd.seq"
        )
        added = conn.execute("SELECT count(*) FROM decisions WHERE seq > ?", (before,)).fetchone()[
            0
        ]
        conn.execute(
            "UPDATE items SET decision_seq = (SELECT max(seq) FROM decisions AS d"
            " WHERE d.item = items.id) WHERE id IN (SELECT item FROM decisions WHERE seq > ?)",
            (before,),
        )
        conn.execute(
            "UPDATE items SET decision = (SELECT decision FROM decisions AS d"
            " WHERE d.seq = items.decision_seq) WHERE id IN"
            " (SELECT item FROM decisions WHERE seq > ?)",
            (before,),
        )
        signed = 0
        columns = ", ".join(SIGNOFF)
        for row in conn.execute(
            f"SELECT seq, {columns} FROM p.signoffs"  # noqa: S608
            " WHERE signature NOT IN (SELECT signature FROM signoffs) ORDER BY seq"
        ).fetchall():
            seq = conn.execute(
                f"INSERT INTO signoffs ({columns}) VALUES ({', '.join('?' * len(SIGNOFF))})",  # noqa: S608
                tuple(row)[1:],
            ).lastrowid
            conn.execute(
                "INSERT INTO signed_items (signoff, item, digest) SELECT ?, item, digest"
                " FROM p.signed_items WHERE signoff = ?",
                (seq, row[0]),
            )
            signed += 1
    return Merged(path, str(other.get("part") or ""), int(added), signed)


def _check(conn: sqlite3.Connection, path: Path, part: str) -> None:
    """Refuse the file (``CampaignError`` naming the item) when it cannot be merged: an item
    unknown here, or held differently (its part included: every item of a part file is of
    that part, here as there), a decision on an item the part does not hold, a decision
    that conflicts, a signed-off item changed."""
    differs = " OR ".join(f"m.{c} IS NOT pi.{c}" for c in (*IDENTITY, "part"))
    row = conn.execute(
        "SELECT pi.id, m.id IS NULL FROM p.items AS pi LEFT JOIN main.items AS m ON m.id = pi.id"  # noqa: S608
        f" WHERE m.id IS NULL OR {differs} OR pi.part IS NOT ? ORDER BY pi.seq LIMIT 1",
        (part,),
    ).fetchone()
    if row is not None:
        what = (
            "an item unknown to the campaign" if row[1] else "an item the campaign has differently"
        )
        raise CampaignError(
            "UNKNOWN_ITEM",
            f"{path.name}: {what}: {printable(row[0], 100)}; nothing of this file merged",
            item=row[0],
        )  # fmt: skip
    row = conn.execute(
        "SELECT id FROM p.decisions AS pd LEFT JOIN main.items AS m ON m.id = pd.item"
        " WHERE m.id IS NULL LIMIT 1"
    ).fetchone()
    if row is not None:
        raise CampaignError(
            "UNKNOWN_ITEM",
            f"{path.name}: a decision on an item unknown to the campaign; nothing merged",
        )
    row = conn.execute(  # every decision of a part is on one of the part's own items
        "SELECT pd.item FROM p.decisions AS pd WHERE NOT EXISTS"
        " (SELECT 1 FROM p.items AS pi WHERE pi.id = pd.item) ORDER BY pd.seq LIMIT 1"
    ).fetchone()
    if row is not None:
        raise CampaignError(
            "UNKNOWN_ITEM",
            f"{path.name}: a decision on {printable(row[0], 100)}, which this part does not"
            " hold; nothing merged",
            item=row[0],
        )
    same_latest = " AND ".join(f"x.{c} IS d.{c}" for c in DECISION)
    # An item decided here whose latest decision the file's history does not hold, while the
    # file's own latest decision is not in this campaign's history, and is another decision
    # (Keep, Revoke, Don't know): decided differently.
    row = conn.execute(
        "SELECT m.id FROM main.items AS m JOIN decisions AS d ON d.seq ="  # noqa: S608
        " (SELECT max(h.seq) FROM decisions AS h WHERE h.item = m.id)"
        " JOIN p.items AS pi ON pi.id = m.id JOIN p.decisions AS pd ON pd.seq ="
        " (SELECT max(h.seq) FROM p.decisions AS h WHERE h.item = pi.id)"
        f" WHERE NOT EXISTS (SELECT 1 FROM p.decisions AS x WHERE {same_latest})"
        " AND NOT EXISTS (SELECT 1 FROM decisions AS x WHERE "
        + " AND ".join(f"x.{c} IS pd.{c}" for c in DECISION)
        + ") AND d.decision IS NOT pd.decision ORDER BY m.seq LIMIT 1"
    ).fetchone()
    if row is not None:
        raise CampaignError(
            "CONFLICT",
            f"{path.name}: {printable(row[0], 100)} is decided differently here;"
            " nothing of this file merged",
            item=row[0],
        )
    same = " AND ".join(f"x.{c} IS pd.{c}" for c in DECISION)
    row = conn.execute(
        "SELECT pd.item FROM p.decisions AS pd WHERE pd.item IN (SELECT item FROM signed_items)"  # noqa: S608
        f" AND NOT EXISTS (SELECT 1 FROM decisions AS x WHERE {same}) LIMIT 1"
    ).fetchone()
    if row is not None:
        raise CampaignError(
            "FROZEN",
            f"{path.name}: changes {printable(row[0], 100)}, signed off here;"
            " nothing of this file merged",
            item=row[0],
        )
