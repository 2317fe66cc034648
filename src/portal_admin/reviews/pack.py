"""The campaign's evidence pack: a signed pack (``evidence.pack.write_pack``, verified by
``evidence verify``) holding the scope's summary, every item with its flags, decision,
justification, reviewer and time, the decision history, the sign-offs, the remediation
job's result file, the closing check, and ``report.html`` with the totals."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.evidence import pack as packs

from .campaign import Campaign
from .closing import closing_rows
from .remediation import existing_jobs, result_rows

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
)


def totals(campaign: Campaign, today: date | None = None) -> dict[str, int]:
    """Items, decided, kept, revoked, revoked and done, not done, overdue (undecided past the
    due date, or decided after it)."""
    base = campaign.totals()
    due = str(campaign.meta.get("due") or "9999-12-31")
    today = today or datetime.now(UTC).date()
    late = campaign.conn.execute(
        "SELECT count(*) FROM items AS i LEFT JOIN decisions AS d ON d.seq = i.decision_seq"
        " WHERE (i.decision IS NULL AND ? > ?) OR substr(d.decided_at, 1, 10) > ?",
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
            "SELECT i.id, i.kind, i.label, i.name, i.status, i.portal, i.institution, i.updated,"
            " (SELECT group_concat(code, ' ') FROM flags WHERE item = i.seq),"
            " (SELECT group_concat(reason, '; ') FROM flags WHERE item = i.seq),"
            " i.decision, d.justification, d.reviewer, d.fingerprint, d.decided_at, i.part"
            " FROM items AS i LEFT JOIN decisions AS d ON d.seq = i.decision_seq ORDER BY i.seq"
        )
    )


def contents(campaign: Campaign) -> tuple[dict[str, packs.Table], dict[str, Any]]:
    """(tables, summary) of the campaign's pack."""
    meta = campaign.meta
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
            ),
            list(conn.execute("SELECT * FROM signoffs ORDER BY seq")),
        ),
        "remediation": (
            ("item", "job", "state before", "changed since the scope"),
            list(conn.execute("SELECT * FROM remediation ORDER BY item")),
        ),
        "closing": (("item", "outcome", "state at closing", "detail"), closing_rows(campaign)),
    }
    for job in existing_jobs(campaign) or []:
        try:
            invitations = job.meta()["kind"] == "cancel-invitation"
            name = "remediation_result_invitations" if invitations else "remediation_result"
            tables[name] = result_rows(job)
        finally:
            job.close()
    scope = meta.get("scope") or {}
    remediation = meta.get("remediation") or {}
    signers = "; ".join(
        f"{r[0]} ({r[1]})" for r in conn.execute("SELECT reviewer, fingerprint FROM signoffs")
    )
    summary: dict[str, Any] = {
        "campaign": meta.get("name"),
        "due": meta.get("due"),
        "revocation": meta.get("revocation"),
        "scope": f"{scope.get('server')} {scope.get('finished')}",
        "signed off by": signers or "nobody",
        "remediated by": remediation.get("administrator", ""),
        "reviewer remediated own decisions": bool(remediation.get("same_person")),
        "closed": bool(meta.get("closed")),
        **totals(campaign),
    }
    return tables, summary


def write(campaign: Campaign, out: Path, key: Ed25519PrivateKey) -> dict[str, Any]:
    """Write the campaign's signed pack to ``out``; returns its manifest."""
    tables, summary = contents(campaign)
    return packs.write_pack(out, KIND, tables, summary, key)
