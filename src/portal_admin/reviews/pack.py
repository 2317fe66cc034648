"""The campaign's evidence pack: a signed pack (``evidence.pack.write_pack``, verified by
``evidence verify``) holding the scope's summary, every item with its flags, decision,
justification, reviewer and time, the decision history, the sign-offs (with each signer's
key, trust verdict and server identity), the remediation job's result file, the closing
check, and ``report.html`` with the totals.

What it says of decisions and sign-offs is read in the same read transaction as the sign-offs'
verification (``signoff.verify``), from the history (each item's latest decision), never from
the queue's derived columns; the summary carries the verification's verdict. Items without a
decision are "not reviewed"; signed-off Revokes no remediation job carried out are counted."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.evidence import pack as packs

from .campaign import Campaign, reads
from .closing import closing_rows
from .remediation import recorded_jobs, result_rows, unremediated
from .signoff import Verification, reading, verify

#: What an item without a decision is called in the pack.
NOT_REVIEWED = "not reviewed"

KIND = "access review"
ITEM_HEADER = (
    "id",
    "kind",
    "label",
    "name",
    "status",
    "portal",
    "institution",
    "updated",
    "flags",
    "flag reasons",
    "decision",
    "justification",
    "reviewer",
    "fingerprint",
    "decided at",
    "part",
    "account id",
    "account email",
)
#: The latest decision in the history of the item ``i`` (never the queue's column).
LATEST = "(SELECT max(h.seq) FROM decisions AS h WHERE h.item = i.id)"


@reads
def totals(campaign: Campaign, today: date | None = None) -> dict[str, int]:
    """Items, decided, kept, revoked, revoked and done, not done, overdue (undecided past the
    due date, or decided after it), from the history."""
    row = campaign.conn.execute(
        "SELECT count(*), count(d.seq), sum(d.decision = 'KEEP'), sum(d.decision = 'REVOKE'),"  # noqa: S608
        " sum(d.decision = 'DONT_KNOW') FROM items AS i"
        f" LEFT JOIN decisions AS d ON d.seq = {LATEST}"
    ).fetchone()
    base = dict(
        zip(
            ("items", "decided", "kept", "revoked", "dont_know"),
            (int(v or 0) for v in row),
            strict=True,
        )
    )
    due = str(campaign.meta.get("due") or "9999-12-31")
    today = today or datetime.now(UTC).date()
    late = campaign.conn.execute(
        f"SELECT count(*) FROM items AS i LEFT JOIN decisions AS d ON d.seq = {LATEST}"  # noqa: S608
        " WHERE (d.seq IS NULL AND ? > ?) OR substr(d.decided_at, 1, 10) > ?",
        (today.isoformat(), due, due),
    ).fetchone()[0]
    closing = (campaign.meta.get("closing") or {}).get("counts") or {}
    return {
        "items": base["items"],
        "decided": base["decided"],
        "kept": base["kept"],
        "revoked": base["revoked"],
        "don't know": base["dont_know"],
        "revoked and done": int(closing.get("revoked and done", 0)),
        "not done": int(closing.get("revoked, not done", 0)),
        "kept, changed meanwhile": int(closing.get("kept, changed meanwhile", 0)),
        "appeared after the scope": int(closing.get("appeared after the scope", 0)),
        "overdue": int(late),
    }


def _items(campaign: Campaign) -> list[tuple[Any, ...]]:
    return list(
        campaign.conn.execute(
            "SELECT i.id, i.kind, i.label, i.name, i.status, i.portal, i.institution, i.updated,"  # noqa: S608
            " (SELECT group_concat(code, ' ') FROM flags WHERE item = i.seq),"
            " (SELECT group_concat(reason, '; ') FROM flags WHERE item = i.seq),"
            " coalesce(d.decision, ?), d.justification, d.reviewer, d.fingerprint, d.decided_at,"
            " i.part, d.account_id, d.account_email"
            f" FROM items AS i LEFT JOIN decisions AS d ON d.seq = {LATEST} ORDER BY i.seq",
            (NOT_REVIEWED,),
        )
    )


def _known(signoff: Any) -> bool:
    return bool(signoff.account_email or signoff.account_id)


def contents(
    campaign: Campaign, folder: Path | None = None
) -> tuple[dict[str, packs.Table], dict[str, Any]]:
    """(tables, summary) of the campaign's pack, read in one transaction with the
    verification of its sign-offs (``folder``: the jobs folder, the default one when None)."""
    with reading(campaign.conn):
        check = verify(campaign)
        return _contents(campaign, check, folder)


def _contents(
    campaign: Campaign, check: Verification, folder: Path | None
) -> tuple[dict[str, packs.Table], dict[str, Any]]:
    meta = campaign.reload_meta()
    conn = campaign.conn
    scope_rows = [
        (k, json.dumps(v, ensure_ascii=False) if isinstance(v, dict | list) else v)
        for k, v in sorted(meta.items())
    ]
    tables: dict[str, packs.Table] = {
        "campaign": (("key", "value"), scope_rows),
        "items": (ITEM_HEADER, _items(campaign)),
        "decisions": (
            (
                "seq",
                "item",
                "decision",
                "justification",
                "reviewer",
                "fingerprint",
                "decided at",
                "source",
                "account id",
                "account email",
            ),
            list(conn.execute("SELECT * FROM decisions ORDER BY seq")),
        ),
        "signoffs": (
            (
                "seq",
                "part",
                "reviewer",
                "fingerprint",
                "public key",
                "signed at",
                "items",
                "digest",
                "signature",
                "account id",
                "account email",
                "format",
            ),
            list(conn.execute("SELECT * FROM signoffs ORDER BY seq")),
        ),
        "signers": (
            (
                "seq",
                "part",
                "reviewer",
                "fingerprint",
                "trust",
                "trusted as",
                "valid",
                "account id",
                "account email",
                "format",
            ),
            [
                (
                    s.seq,
                    s.part,
                    s.reviewer,
                    s.fingerprint,
                    s.trust,
                    s.trusted_name,
                    s.valid,
                    s.account_id,
                    s.account_email,
                    s.format,
                )
                for s in check.signoffs
            ],
        ),
        "remediation": (
            ("item", "job", "state before", "changed since the scope"),
            list(conn.execute("SELECT * FROM remediation ORDER BY item")),
        ),
        "closing": (("item", "outcome", "state at closing", "detail"), closing_rows(campaign)),
    }
    for job in recorded_jobs(campaign, check, folder):
        try:
            invitations = job.meta()["kind"] == "cancel-invitation"
            name = "remediation_result_invitations" if invitations else "remediation_result"
            tables[name] = result_rows(job)
        finally:
            job.close()
    scope = meta.get("scope") or {}
    remediation = meta.get("remediation") or {}
    signers = "; ".join(
        f"{s.reviewer} (key {s.fingerprint}, {s.trust}"
        + (f" as {s.trusted_name}" if s.trusted_name else "")
        + (
            f", account {s.account_email or s.account_id}"
            if s.account_id or s.account_email
            else ""
        )
        + ("" if s.valid else ", SIGNATURE DOES NOT VERIFY")
        + ")"
        for s in check.signoffs
    )
    not_done = unremediated(campaign, check, folder) if check.status != "changed" else None
    summary: dict[str, Any] = {
        "campaign": meta.get("name"),
        "due": meta.get("due"),
        "revocation": meta.get("revocation"),
        "scope": f"{scope.get('server')} {scope.get('finished')}",
        "signed off by": signers or "nobody",
        "sign-offs": check.status,
        "not reviewed (no decision; they stay not reviewed)": check.undecided,
        "signed-off Revokes not carried out": (
            len(not_done) if not_done is not None else "unknown: the sign-offs do not verify"
        ),
        "remediated by": remediation.get("administrator", ""),
        "reviewer remediated own decisions": bool(remediation.get("same_person")),
        "closed": bool(meta.get("closed")),
        **totals(campaign),
    }
    return tables, summary


def write(
    campaign: Campaign, out: Path, key: Ed25519PrivateKey, folder: Path | None = None
) -> dict[str, Any]:
    """Write the campaign's signed pack to ``out``; returns its manifest (``folder``: the
    jobs folder, the default one when None)."""
    tables, summary = contents(campaign, folder)
    return packs.write_pack(out, KIND, tables, summary, key)
