"""Sign-off: a reviewer signs the file's items and their latest decisions with their
installation's Ed25519 key (the key that signs evidence packs); verification names what
changed since, and who signed: each signer's key goes through the trust model
(``evidence/trust.py``).

Each item has a digest (SHA-256 of its canonical JSON: id, kind, what the scope said of it,
its flags, and its latest decision in the history with justification, reviewer, key
fingerprint, time and the reviewer's server identity). A sign-off keeps every covered item's
digest (``signed_items``) and signs the canonical JSON of: format, campaign id, part,
reviewer, fingerprint, the reviewer's server identity, time, item count, the SHA-256 of the
sorted ``id<TAB>digest`` lines, and the campaign's settings (name, due date, revocation
action, scope filter, stale days). Verification checks that signature against the public
key kept with it, then recomputes every item's digest from the history: a decision edited,
an item added or removed, a setting changed is named.

Format 3 also signs the scope's identity (the server it was taken on and when): remediation
refuses another server by name (OTHER_SERVER). Format 2 signed the settings but not the
scope's server; format 1 signed neither the settings nor identities, and its item digest read
the queue's ``items.decision``. Their sign-offs still verify (``format`` says which);
remediation refuses them by name (OLD_SIGNOFF): the same key signs again, in format 3.

Nothing derived is believed: :func:`verify` reads, in one read transaction, the history it
checks, and hands remediation, the pack and the separation-of-duties check what it read
(``Verification.revokes``, ``settings``), never a column or index outside the signature.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from portal_admin.evidence import keys
from portal_admin.evidence import trust as trusting

from . import opening
from .campaign import Campaign, CampaignError, now_iso, read_meta
from .decisions import Reviewer

FORMAT = 3
FORMATS = (1, 2, 3)
#: The campaign settings a format-2 sign-off covers.
SETTINGS = ("name", "due", "revocation", "filter", "stale_days")
#: Problems listed by name at most (the count says the rest).
MAX_NAMED = 100
#: Trust verdicts of a signer's key.
TRUST = ("own", "trusted", "pinned", "untrusted")


@dataclass(frozen=True, slots=True)
class Signoff:
    """One sign-off of the file.

    ``reviewer``: the name the reviewer gave; ``fingerprint``: their key's (who they are is
    the key, not the name); ``account_id``/``account_email``: the account the server said
    they were when they signed (empty when not signed in); ``format``: 1 or 2 (see the
    module). Set by :func:`verify` only: ``valid`` (the signature verifies), ``trust``
    (``own``: this installation's key, ``trusted``: a key trusted under ``trusted_name``,
    ``pinned``: the fingerprint given for this check, ``untrusted``; empty when unchecked).
    """

    seq: int
    part: str
    reviewer: str
    fingerprint: str
    signed_at: str
    items: int
    valid: bool = True
    trust: str = ""
    trusted_name: str = ""
    account_id: str = ""
    account_email: str = ""
    format: int = FORMAT

    @property
    def trusted(self) -> bool:
        """Own, trusted or pinned."""
        return self.trust in ("own", "trusted", "pinned")


@dataclass(frozen=True, slots=True)
class SignedDecision:
    """An item's latest decision as a verified sign-off covers it, with what the scope said
    of the item: what remediation acts on (read in the verification's transaction).
    ``signers``: the fingerprints of the sign-offs covering it."""

    item: str
    kind: str
    ref: str
    label: str
    name: str | None
    status: str | None
    portal: str | None
    institution: str | None
    decision: str
    justification: str
    reviewer: str
    fingerprint: str
    decided_at: str
    account_id: str
    account_email: str
    signers: tuple[str, ...] = ()


#: What a verification finds, with the parameters of each: ORPHAN (the sign-off's number that
#: signed items name and the file does not have), SELF_DECIDED (the item), NOT_VERIFIED (the
#: reviewer, when they signed), OTHER_KEY (the reviewer, their key's fingerprint), CHANGED,
#: REMOVED, ADDED, INCONSISTENT (the item), MORE (how many more items changed).
FINDINGS = {
    "ORPHAN": "signed items name sign-off {0}, which this file does not have: they count as"
    " signed by nobody",
    "SELF_DECIDED": "decided by its own account: {0}",
    "NOT_VERIFIED": "the sign-off by {0} of {1} does not verify: it was changed",
    "OTHER_KEY": "the sign-off by {0} was made with another key ({1})",
    "CHANGED": "changed: {0}",
    "REMOVED": "removed: {0}",
    "ADDED": "added: {0}",
    "INCONSISTENT": "inconsistent: {0}",
    "MORE": "... and {0} more items",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a verification found: one of :data:`FINDINGS` and its parameters."""

    code: str
    params: tuple[str, ...] = ()

    @property
    def english(self) -> str:
        """The finding in English (the command line's, and ``Verification.problems``)."""
        return FINDINGS[self.code].format(*self.params)


@dataclass
class Verification:
    """What checking a campaign's sign-offs found. ``status``: ``intact`` (every sign-off
    verifies and nothing it covers changed), ``changed`` (``problems`` name the items),
    ``unsigned`` (no sign-off). Whether the signers are trusted is apart: ``untrusted``."""

    status: str = "intact"
    signoffs: list[Signoff] = field(default_factory=list)
    #: What was found, in English (the command line's), and as codes (``findings``).
    problems: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    changed_items: list[str] = field(default_factory=list)
    #: Items no sign-off covers (decided or not).
    unsigned: int = 0
    #: Items with no decision in the history ("not reviewed").
    undecided: int = 0
    #: Every item.
    items: int = 0
    #: The campaign's settings as read in the verification's transaction (what format-2
    #: signatures cover): name, due, revocation, filter, stale_days; and its id.
    settings: dict[str, Any] = field(default_factory=dict)
    campaign_id: str = ""
    #: The signed-off Revokes (covered by a sign-off whose signature verifies), in order.
    revokes: list[SignedDecision] = field(default_factory=list)
    #: Items whose latest decision was made by their own account (the decider's name or
    #: server identity, or a signer's with the signer's key, is the item's account): the
    #: separation-of-duties rule ``decide`` enforces, checked again from the history.
    self_decided: list[str] = field(default_factory=list)

    def found(self, code: str, *params: str) -> None:
        """Record a finding (one of :data:`FINDINGS`), in English too."""
        finding = Finding(code, params)
        self.findings.append(finding)
        self.problems.append(finding.english)

    @property
    def untrusted(self) -> list[Signoff]:
        """Sign-offs whose key this installation does not trust."""
        return [s for s in self.signoffs if not s.trusted]

    @property
    def old_format(self) -> list[Signoff]:
        """Sign-offs of an earlier format (1 covers neither the settings nor identities, 2
        not the scope's server)."""
        return [s for s in self.signoffs if s.format < FORMAT]

    @property
    def revocation(self) -> str:
        """The revocation action (SUSPEND or DEACTIVATE) the signatures cover."""
        return str(self.settings.get("revocation") or "SUSPEND")

    @property
    def server(self) -> str:
        """The server the scope was taken on, as format-3 signatures cover it (empty: none
        named)."""
        scope = self.settings.get("scope")
        return str((scope.get("server") if isinstance(scope, dict) else "") or "")

    @property
    def exit_status(self) -> int:
        """0 intact and every signer trusted, 1 changed, 3 nothing signed or a signer this
        installation does not trust."""
        if self.status == "changed":
            return 1
        if self.status == "unsigned" or self.untrusted:
            return 3
        return 0


#: Canonical JSON: keys sorted, no spaces, UTF-8 (one encoder: ``json.dumps`` with these
#: options makes a new one per call, a third of the cost at 100,000 items).
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _canonical(value: object) -> bytes:
    return _ENCODER.encode(value).encode()


@contextlib.contextmanager
def reading(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction (or the caller's, when it holds one): every read sees the same
    file."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        with contextlib.suppress(sqlite3.OperationalError):  # ended already: nothing to end
            conn.execute("COMMIT")


#: One item with its latest decision in the history (by the largest seq, not the queue's
#: ``decision_seq``), the queue's columns for the consistency check last.
_ITEM_ROWS = (
    "SELECT i.id, i.part, i.kind, i.ref, i.label, i.name, i.status, i.portal, i.institution,"
    " i.updated, i.detail, i.decision,"
    " (SELECT group_concat(code || '=' || reason, '|') FROM"
    "  (SELECT code, reason FROM flags WHERE flags.item = i.seq ORDER BY code)),"
    " d.decision, d.justification, d.reviewer, d.fingerprint, d.decided_at,"
    " d.account_id, d.account_email, d.seq, i.decision_seq"
    " FROM items AS i LEFT JOIN decisions AS d ON d.seq ="
    " (SELECT max(seq) FROM decisions WHERE decisions.item = i.id) ORDER BY i.seq"
)


def _digest(row: sqlite3.Row | tuple[Any, ...], fmt: int) -> str:
    """An item's digest in sign-off format ``fmt`` (a row of :data:`_ITEM_ROWS`)."""
    # 1: id .. detail, the queue's decision, flags, the decision of the history;
    # 2: id .. detail, flags, the decision of the history with the server identity
    values = [row[0], *row[2:18]] if fmt == 1 else [row[0], *row[2:11], *row[12:20]]
    return hashlib.sha256(_canonical(values)).hexdigest()


#: What marks an account as a signer's own: (server account ids, casefolded emails and names).
Owners = dict[str, tuple[frozenset[str], frozenset[str]]]


def _owners(signers: list[Reviewer]) -> Owners:
    """Per signing key, what :meth:`Reviewer.owns` compares an account with (precomputed:
    the check runs once per item)."""
    found: dict[str, tuple[set[str], set[str]]] = {}
    for s in signers:
        ids, labels = found.setdefault(s.fingerprint, (set(), set()))
        if s.account_id:
            ids.add(s.account_id)
        if s.account_email:
            labels.add(s.account_email.casefold())
        labels.add(s.name.strip().casefold())
    return {k: (frozenset(i), frozenset(n)) for k, (i, n) in found.items()}


def _self_decided(row: sqlite3.Row | tuple[Any, ...], owners: Owners) -> bool:
    """True when the latest decision of a row of :data:`_ITEM_ROWS` was made on the
    decider's own account: by the identity the decision records (name, server account id or
    email), or, with a signer's key, by a signer whose signed identity is the account
    (:meth:`Reviewer.owns`, inlined)."""
    if row[2] != "account" or row[13] is None:
        return False
    ref, label = row[3], str(row[4]).strip().casefold()
    if label == str(row[15] or "").strip().casefold():
        return True
    if (row[18] and ref == row[18]) or (row[19] and label == str(row[19]).casefold()):
        return True
    ids, labels = owners.get(row[16], _NOBODY)
    return ref in ids or label in labels


_NOBODY: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


def item_digests(conn: sqlite3.Connection, fmt: int = FORMAT) -> Iterator[tuple[str, str, str]]:
    """(item id, part, digest) of every item, in campaign order."""
    for row in _plain(conn, _ITEM_ROWS):
        yield row[0], row[1], _digest(row, fmt)


def settings_of(meta: dict[str, Any], fmt: int = FORMAT) -> dict[str, Any]:
    """The settings a sign-off of format ``fmt`` covers: from format 2 the campaign's
    settings; from format 3 the scope's identity too (the server it was taken on, when)."""
    settings = {k: meta.get(k) for k in SETTINGS}
    if fmt >= 3:
        scope = meta.get("scope")
        scope = scope if isinstance(scope, dict) else {}
        settings["scope"] = {"server": scope.get("server"), "finished": scope.get("finished")}
    return settings


def _payload(
    campaign_id: str,
    signoff: dict[str, Any],
    lines: list[tuple[str, str]],
    settings: dict[str, Any],
) -> tuple[bytes, str]:
    """(signed bytes, lines digest) of a sign-off: ``signoff`` has part, reviewer,
    fingerprint, signed_at, format, account_id, account_email."""
    digest = hashlib.sha256()
    for item, item_digest in sorted(lines):
        digest.update(f"{item}\t{item_digest}\n".encode())
    hexdigest = digest.hexdigest()
    payload: dict[str, Any] = {
        "format": signoff["format"],
        "campaign": campaign_id,
        "part": signoff["part"],
        "reviewer": signoff["reviewer"],
        "fingerprint": signoff["fingerprint"],
        "signed_at": signoff["signed_at"],
        "items": len(lines),
        "digest": hexdigest,
    }
    if signoff["format"] >= 2:
        payload["settings"] = settings
        payload["account"] = {"id": signoff["account_id"], "email": signoff["account_email"]}
    return _canonical(payload), hexdigest


_SIGNOFF_COLUMNS = (
    "seq, part, reviewer, fingerprint, signed_at, items, account_id, account_email, format,"
    " public_key, signature"
)


def _signoff(row: sqlite3.Row | tuple[Any, ...], **checked: Any) -> Signoff:
    return Signoff(
        seq=row[0], part=row[1], reviewer=row[2], fingerprint=row[3], signed_at=row[4],
        items=row[5], account_id=row[6], account_email=row[7], format=row[8], **checked,
    )  # fmt: skip


def signoffs(campaign: Campaign) -> list[Signoff]:
    """The file's sign-offs, oldest first (not checked: see :func:`verify`)."""
    rows = campaign.conn.execute(f"SELECT {_SIGNOFF_COLUMNS} FROM signoffs ORDER BY seq")  # noqa: S608
    return [_signoff(r) for r in rows]


def sign(
    campaign: Campaign,
    reviewer: Any,
    key: Ed25519PrivateKey,
    *,
    allow_undecided: bool = True,
) -> Signoff:
    """Sign every item of the file with its latest decision, as ``reviewer`` (a name, or a
    ``decisions.Reviewer``, whose server identity is then signed too); the decisions are
    frozen from then on. A file already signed by this key (format 2) returns that sign-off
    (a re-run after a kill signs nothing twice); signed by another key: FROZEN. Items
    without a decision are signed as "not reviewed" (the report says so); with
    ``allow_undecided=False`` they are refused instead (UNDECIDED naming how many, nothing
    signed): ask the person first (``Campaign.undecided()`` is cheap)."""
    from .decisions import reviewer_name

    name = reviewer_name(getattr(reviewer, "name", reviewer))
    account_id = str(getattr(reviewer, "account_id", "") or "")
    account_email = str(getattr(reviewer, "account_email", "") or "")
    if campaign.meta.get("closed"):
        raise CampaignError("CLOSED", f"campaign {campaign.name!r} is closed")
    public = key.public_key()
    fingerprint = keys.fingerprint(public)
    with campaign.transaction() as conn:
        meta = read_meta(conn)
        part = str(meta.get("part") or "")
        for done in signoffs(campaign):
            if done.part == part:
                if done.fingerprint == fingerprint:
                    if done.format >= FORMAT:
                        return done
                    continue  # signed in format 1 by this key: signed again, in format 2
                raise CampaignError(
                    "FROZEN",
                    f"already signed off by {done.reviewer} (key {done.fingerprint})",
                )
        undecided = campaign.undecided()
        if undecided and not allow_undecided:
            raise CampaignError(
                "UNDECIDED",
                f"{undecided:,} items have no decision: they would be signed off as not"
                " reviewed; nothing signed",
            )
        signer = _owners([Reviewer(name, fingerprint, account_id, account_email)])
        for row in _plain(conn, _ITEM_ROWS):  # the rule ``decide`` enforces, from the history
            if _self_decided(row, signer):
                raise CampaignError(
                    "SELF",
                    f"{row[0]} was decided by its own account; another reviewer decides it:"
                    " nothing signed",
                    item=row[0],
                )
        lines = [(item, digest) for item, _part, digest in item_digests(conn)]
        if not lines:
            raise CampaignError("BAD_INPUT", "the campaign has no items to sign", reason="NO_ITEMS")
        fields = {
            "part": part, "reviewer": name, "fingerprint": fingerprint, "signed_at": now_iso(),
            "format": FORMAT, "account_id": account_id, "account_email": account_email,
        }  # fmt: skip
        payload, digest = _payload(campaign.campaign_id, fields, lines, settings_of(meta))
        signature = base64.b64encode(key.sign(payload)).decode("ascii")
        seq = conn.execute(
            "INSERT INTO signoffs (part, reviewer, fingerprint, public_key, signed_at, items,"
            " digest, signature, account_id, account_email, format)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                part, name, fingerprint,
                base64.b64encode(keys.public_raw(public)).decode("ascii"),
                fields["signed_at"], len(lines), digest, signature, account_id, account_email,
                FORMAT,
            ),
        ).lastrowid  # fmt: skip
        conn.executemany(
            "INSERT INTO signed_items (signoff, item, digest) VALUES (?, ?, ?)",
            ((seq, item, d) for item, d in lines),
        )
    assert seq is not None
    return Signoff(
        seq, part, name, fingerprint, str(fields["signed_at"]), len(lines),
        account_id=account_id, account_email=account_email,
    )  # fmt: skip


def verify(
    campaign: Campaign,
    expected_fingerprint: str | None = None,
    *,
    trust_store: trusting.TrustStore | None = None,
    own: object = trusting.LOOK_UP,
) -> Verification:
    """Check every sign-off's signature and every signed item against the file now, in one
    read transaction, and say who signed (the trust model: ``own`` is this installation's
    key fingerprint, or ``trusting.LOOK_UP`` to read it from the OS keyring; ``trust_store``
    the trusted keys, the user's by default).

    ``expected_fingerprint``: a key every sign-off must have been made with (another is a
    problem; that key is ``pinned``). Problems: ``changed: ITEM``, ``removed: ITEM``,
    ``added: ITEM``, ``inconsistent: ITEM`` (the queue's decision is not the history's), a
    sentence about a sign-off whose signature does not verify, or about signed items of a
    sign-off the file does not have.
    """
    pinned = trusting.normalize_fingerprint(expected_fingerprint) if expected_fingerprint else None
    with reading(campaign.conn) as conn:
        return _verify(conn, pinned, trust_store, own)


def _plain(conn: sqlite3.Connection, sql: str) -> sqlite3.Cursor:
    """``sql``'s rows as plain tuples (a hundred thousand ``sqlite3.Row`` cost a second)."""
    cursor = conn.cursor()
    cursor.row_factory = None
    return (
        cursor.execute(sql) if not isinstance(conn, opening.Budgeted) else _armed(conn, cursor, sql)
    )


def _armed(conn: opening.Budgeted, cursor: sqlite3.Cursor, sql: str) -> sqlite3.Cursor:
    conn.arm()  # the statement's time budget, as ``conn.execute`` would start it
    return cursor.execute(sql)


def _verify(
    conn: sqlite3.Connection,
    pinned: str | None,
    store: trusting.TrustStore | None,
    own: object,
) -> Verification:
    result = Verification()
    meta = read_meta(conn)
    result.campaign_id = str(meta.get("id") or "")
    result.settings = settings_of(meta)
    rows = conn.execute(f"SELECT {_SIGNOFF_COLUMNS} FROM signoffs ORDER BY seq").fetchall()  # noqa: S608
    known = {r[0] for r in rows}
    lines_of: dict[int, list[tuple[str, str]]] = {seq: [] for seq in known}
    orphans: set[int] = set()
    for signoff_seq, item, digest in _plain(
        conn, "SELECT signoff, item, digest FROM signed_items ORDER BY signoff, item"
    ):
        if signoff_seq in lines_of:
            lines_of[signoff_seq].append((item, digest))
        else:
            orphans.add(signoff_seq)
    for seq in sorted(orphans)[:MAX_NAMED]:
        result.found("ORPHAN", str(seq))
    formats = {r[8] for r in rows if r[8] in FORMATS}
    now: dict[int, dict[str, str]] = {f: {} for f in formats}
    part_of: dict[str, str] = {}  # every item's part, in campaign order
    latest: dict[str, tuple[Any, ...]] = {}
    changed: dict[str, str] = {}
    inconsistent: list[str] = []
    digests = [(f, now[f]) for f in formats]
    owners = _owners(
        [Reviewer(str(r[2] or ""), str(r[3] or ""), str(r[6] or ""), str(r[7] or "")) for r in rows]
    )
    for row in _plain(conn, _ITEM_ROWS):
        item = row[0]
        part_of[item] = row[1]
        if _self_decided(row, owners):
            result.self_decided.append(item)
        if row[13] is None:
            result.undecided += 1
        elif row[13] == "REVOKE":
            latest[item] = row
        if row[11] != row[13] or row[21] != row[20]:
            inconsistent.append(item)  # the queue's column is not the history
        for fmt, found in digests:
            found[item] = _digest(row, fmt)
    result.items = len(part_of)
    if not rows:
        for item in inconsistent:
            changed.setdefault(item, "inconsistent")
        result.unsigned = result.items
        if orphans or changed:
            result.status = "changed"
            _name_changes(result, changed, part_of)
        else:
            result.status = "unsigned"
        return result
    for item in result.self_decided[:MAX_NAMED]:
        result.found("SELF_DECIDED", item)
    seen: set[str] = set()
    signers_of: dict[str, list[str]] = {}  # of the signed-off Revokes
    whole: set[str] = set()  # parts whose every item a sign-off covers ('' = the file)
    for row in rows:
        seq, part, reviewer, fingerprint, signed_at = row[0], row[1], row[2], row[3], row[4]
        fmt = row[8]
        lines = lines_of[seq]
        valid = fmt in FORMATS and _signature_ok(
            result.campaign_id, row, lines, settings_of(meta, fmt)
        )
        if not valid:
            result.found("NOT_VERIFIED", str(reviewer), str(signed_at))
        if pinned is not None and fingerprint != pinned:
            result.found("OTHER_KEY", str(reviewer), str(fingerprint))
        try:
            trust, trusted_name = trusting.trust_of(fingerprint, pinned, store, own)
        except trusting.TrustError:  # not a fingerprint at all: that sign-off did not verify
            trust, trusted_name = "untrusted", ""
        result.signoffs.append(_signoff(row, valid=valid, trust=trust, trusted_name=trusted_name))
        if not valid:
            continue
        whole.add(part)
        items_now = now[fmt]
        for item, digest in lines:
            seen.add(item)
            if item in latest:
                signers_of.setdefault(item, []).append(fingerprint)
            digest_now = items_now.get(item)
            if digest_now is None:
                changed.setdefault(item, "removed")
            elif digest_now != digest:
                changed.setdefault(item, "changed")
    for item, part in part_of.items():
        if item not in seen:
            if "" in whole or part in whole:
                changed.setdefault(item, "added")
            else:
                result.unsigned += 1
    for item in inconsistent:  # after what the signatures found: "changed" says more
        changed.setdefault(item, "inconsistent")
    for item, row in latest.items():  # in campaign order
        if item in signers_of:
            result.revokes.append(
                SignedDecision(
                    row[0],
                    row[2],
                    row[3],
                    row[4],
                    row[5],
                    row[6],
                    row[7],
                    row[8],
                    row[13],
                    row[14],
                    row[15],
                    row[16],
                    row[17],
                    row[18] or "",
                    row[19] or "",
                    tuple(dict.fromkeys(signers_of[item])),
                )
            )
    _name_changes(result, changed, part_of)
    if result.problems:
        result.status = "changed"
    return result


def _name_changes(result: Verification, changed: dict[str, str], items: dict[str, str]) -> None:
    if not changed:
        return
    order = {item: n for n, item in enumerate(items)}
    for item in sorted(changed, key=lambda i: (order.get(i, len(order)), i)):
        result.changed_items.append(item)
    for item in result.changed_items[:MAX_NAMED]:
        result.found(changed[item].upper(), item)
    if len(result.changed_items) > MAX_NAMED:
        result.found("MORE", str(len(result.changed_items) - MAX_NAMED))


def _signature_ok(
    campaign_id: str,
    row: sqlite3.Row | tuple[Any, ...],
    lines: list[tuple[str, str]],
    settings: dict[str, Any],
) -> bool:
    try:
        raw_key = base64.b64decode(row[9], validate=True)
        signature = base64.b64decode(row[10], validate=True)
        public = Ed25519PublicKey.from_public_bytes(raw_key)
    except (ValueError, TypeError):
        return False
    # only the canonical spelling: base64 has several for the same bytes (the unused bits of
    # the last character), and a sign-off copied under another spelling is not a second one
    if base64.b64encode(raw_key).decode("ascii") != row[9]:
        return False
    if base64.b64encode(signature).decode("ascii") != row[10]:
        return False
    if keys.fingerprint(public) != row[3] or len(lines) != row[5]:
        return False
    fields = {
        "part": row[1], "reviewer": row[2], "fingerprint": row[3], "signed_at": row[4],
        "format": row[8], "account_id": row[6], "account_email": row[7],
    }  # fmt: skip
    payload, _digest = _payload(campaign_id, fields, lines, settings)
    try:
        public.verify(signature, payload)
    except InvalidSignature:
        return False
    return True


def signed_revokes(campaign: Campaign) -> list[str]:
    """Ids of the items whose latest decision is Revoke and that a sign-off whose signature
    verifies covers (read from the history: see :func:`verify`)."""
    return [d.item for d in verify(campaign, own=None).revokes]
