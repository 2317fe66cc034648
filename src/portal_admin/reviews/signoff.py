"""Sign-off: a reviewer signs the file's items and their latest decisions with their
installation's Ed25519 key (the key that signs evidence packs); verification names what
changed since.

Each item has a digest (SHA-256 of its canonical JSON: id, kind, what the scope said of it,
its flags, its queue decision and its latest decision in the history with justification,
reviewer, fingerprint and time). A sign-off keeps every covered item's digest
(``signed_items``) and signs the canonical JSON of: format, campaign id, part, reviewer,
fingerprint, time, item count and the SHA-256 of the sorted ``id<TAB>digest`` lines.
Verification checks that signature against the public key kept with it, then recomputes
every item's digest: a decision edited, an item added or removed is named.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from portal_admin.evidence import keys

from .campaign import Campaign, CampaignError, now_iso

FORMAT = 1
#: Problems listed by name at most (the count says the rest).
MAX_NAMED = 100


@dataclass(frozen=True, slots=True)
class Signoff:
    """One sign-off of the file."""

    seq: int
    part: str
    reviewer: str
    fingerprint: str
    signed_at: str
    items: int
    valid: bool = True


@dataclass
class Verification:
    """What checking a campaign's sign-offs found. ``status``: ``intact`` (every sign-off
    verifies and nothing it covers changed), ``changed`` (``problems`` name the items),
    ``unsigned`` (no sign-off)."""

    status: str = "intact"
    signoffs: list[Signoff] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    changed_items: list[str] = field(default_factory=list)
    #: Items no sign-off covers (decided or not).
    unsigned: int = 0

    @property
    def exit_status(self) -> int:
        """0 intact, 1 changed, 3 nothing signed."""
        return {"intact": 0, "changed": 1}.get(self.status, 3)


def _canonical(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def item_digests(conn: sqlite3.Connection) -> Iterator[tuple[str, str, str]]:
    """(item id, part, digest) of every item, in campaign order."""
    rows = conn.execute(
        "SELECT i.id, i.part, i.kind, i.ref, i.label, i.name, i.status, i.portal, i.institution,"
        " i.updated, i.detail, i.decision,"
        " (SELECT group_concat(code || '=' || reason, '|') FROM"
        "  (SELECT code, reason FROM flags WHERE flags.item = i.seq ORDER BY code)),"
        " d.decision, d.justification, d.reviewer, d.fingerprint, d.decided_at"
        " FROM items AS i LEFT JOIN decisions AS d ON d.seq ="
        " (SELECT max(seq) FROM decisions WHERE decisions.item = i.id) ORDER BY i.seq"
    )
    sha = hashlib.sha256
    for row in rows:
        values = list(row)
        values.pop(1)  # the part is where the item went, not what it is
        yield row[0], row[1], sha(_canonical(values)).hexdigest()


def _payload(
    campaign_id: str, part: str, reviewer: str, fingerprint: str, signed_at: str,
    lines: list[tuple[str, str]],
) -> tuple[bytes, str]:  # fmt: skip
    digest = hashlib.sha256()
    for item, item_digest in sorted(lines):
        digest.update(f"{item}\t{item_digest}\n".encode())
    hexdigest = digest.hexdigest()
    payload = {
        "format": FORMAT,
        "campaign": campaign_id,
        "part": part,
        "reviewer": reviewer,
        "fingerprint": fingerprint,
        "signed_at": signed_at,
        "items": len(lines),
        "digest": hexdigest,
    }
    return _canonical(payload), hexdigest


def signoffs(campaign: Campaign) -> list[Signoff]:
    """The file's sign-offs, oldest first (not checked: see :func:`verify`)."""
    rows = campaign.conn.execute(
        "SELECT seq, part, reviewer, fingerprint, signed_at, items FROM signoffs ORDER BY seq"
    )
    return [Signoff(*r) for r in rows]


def sign(campaign: Campaign, reviewer: str, key: Ed25519PrivateKey) -> Signoff:
    """Sign every item of the file with its latest decision, as ``reviewer``; the decisions
    are frozen from then on. A file already signed by this key returns that sign-off (a
    re-run after a kill signs nothing twice); signed by another key: ``CampaignError``."""
    from .decisions import reviewer_name

    name = reviewer_name(reviewer)
    if campaign.meta.get("closed"):
        raise CampaignError("CLOSED", f"campaign {campaign.name!r} is closed")
    public = key.public_key()
    fingerprint = keys.fingerprint(public)
    part = str(campaign.meta.get("part") or "")
    with campaign.transaction() as conn:
        for done in signoffs(campaign):
            if done.part == part:
                if done.fingerprint == fingerprint:
                    return done
                raise CampaignError(
                    "FROZEN",
                    f"already signed off by {done.reviewer} (key {done.fingerprint})",
                )
        lines = [(item, digest) for item, _part, digest in item_digests(conn)]
        if not lines:
            raise CampaignError("BAD_INPUT", "the campaign has no items to sign")
        signed_at = now_iso()
        payload, digest = _payload(campaign.campaign_id, part, name, fingerprint, signed_at, lines)
        signature = base64.b64encode(key.sign(payload)).decode("ascii")
        seq = conn.execute(
            "INSERT INTO signoffs (part, reviewer, fingerprint, public_key, signed_at, items,"
            " digest, signature) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                part, name, fingerprint,
                base64.b64encode(keys.public_raw(public)).decode("ascii"),
                signed_at, len(lines), digest, signature,
            ),
        ).lastrowid  # fmt: skip
        conn.executemany(
            "INSERT INTO signed_items (signoff, item, digest) VALUES (?, ?, ?)",
            ((seq, item, d) for item, d in lines),
        )
    assert seq is not None
    return Signoff(seq, part, name, fingerprint, signed_at, len(lines))


def verify(campaign: Campaign, expected_fingerprint: str | None = None) -> Verification:
    """Check every sign-off's signature and every signed item against the file now.

    ``expected_fingerprint``: a key every sign-off must have been made with (another is a
    problem). Problems: ``changed: ITEM``, ``removed: ITEM``, ``added: ITEM``, or a sentence
    about a sign-off whose signature does not verify.
    """
    from portal_admin.evidence.trust import normalize_fingerprint

    pinned = normalize_fingerprint(expected_fingerprint) if expected_fingerprint else None
    result = Verification()
    conn = campaign.conn
    rows = conn.execute(
        "SELECT seq, part, reviewer, fingerprint, public_key, signed_at, items, signature"
        " FROM signoffs ORDER BY seq"
    ).fetchall()
    if not rows:
        result.status = "unsigned"
        result.unsigned = campaign.count()
        return result
    now = {item: (part, digest) for item, part, digest in item_digests(conn)}
    seen: set[str] = set()
    changed: dict[str, str] = {}
    whole: set[str] = set()  # parts whose every item a sign-off covers ('' = the file)
    for row in rows:
        seq, part, reviewer, fingerprint = row[0], row[1], row[2], row[3]
        lines = [
            (r[0], r[1])
            for r in conn.execute(
                "SELECT item, digest FROM signed_items WHERE signoff = ? ORDER BY item", (seq,)
            )
        ]
        valid = _signature_ok(campaign.campaign_id, row, lines)
        if not valid:
            result.problems.append(
                f"the sign-off by {reviewer} of {row[5]} does not verify: it was changed"
            )
        if pinned is not None and fingerprint != pinned:
            result.problems.append(
                f"the sign-off by {reviewer} was made with another key ({fingerprint})"
            )
        result.signoffs.append(Signoff(seq, part, reviewer, fingerprint, row[5], row[6], valid))
        whole.add(part)
        for item, digest in lines:
            seen.add(item)
            found = now.get(item)
            if found is None:
                changed.setdefault(item, "removed")
            elif found[1] != digest:
                changed.setdefault(item, "changed")
    for item, (part, _digest) in now.items():
        if item not in seen:
            if "" in whole or part in whole:
                changed.setdefault(item, "added")
            else:
                result.unsigned += 1
    order = {item: n for n, item in enumerate(now)}
    for item in sorted(changed, key=lambda i: (order.get(i, len(order)), i)):
        result.changed_items.append(item)
    for item in result.changed_items[:MAX_NAMED]:
        result.problems.append(f"{changed[item]}: {item}")
    if len(result.changed_items) > MAX_NAMED:
        result.problems.append(f"... and {len(result.changed_items) - MAX_NAMED} more items")
    if result.problems:
        result.status = "changed"
    return result


def _signature_ok(campaign_id: str, row: sqlite3.Row, lines: list[tuple[str, str]]) -> bool:
    try:
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(row[4], validate=True))
        signature = base64.b64decode(row[7], validate=True)
    except (ValueError, TypeError):
        return False
    if keys.fingerprint(public) != row[3] or len(lines) != row[6]:
        return False
    payload, _digest = _payload(campaign_id, row[1], row[2], row[3], row[5], lines)
    try:
        public.verify(signature, payload)
    except InvalidSignature:
        return False
    return True


def signed_revokes(campaign: Campaign) -> list[str]:
    """Ids of the items whose latest decision is Revoke and is covered by a sign-off."""
    rows = campaign.conn.execute(
        "SELECT id FROM items WHERE decision = 'REVOKE' AND id IN (SELECT item FROM signed_items)"
        " ORDER BY seq"
    )
    return [r[0] for r in rows]
