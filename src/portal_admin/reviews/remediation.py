"""Remediation: every signed-off Revoke of an account becomes a line of a bulk job (the jobs
engine's dry run: ``jobs.create_job`` with ``ChangeStatus``), planned from the accounts'
current state read first: accounts already suspended are skipped as no change, accounts
changed since the scope are marked. The job then runs as any job does (progress, pause,
resume, result file, journal).

The campaign must verify (``signoff.verify``) and only signed-off decisions are acted on.
Revoked roles and invitations are listed for a person to act on (``manual``): no bulk action
removes a role, and a pending invitation is cancelled from the Invitations panel.
Separation of duties: the administrator who remediates and the reviewers who decided are
both recorded; ``same_person`` says when they are one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from portal_admin import jobs
from portal_admin.client import PortalClient
from portal_admin.jobs.actions import Target
from portal_admin.jobs.targets import Entry, TargetList, match_accounts

from .campaign import Campaign, CampaignError, now_iso
from .signoff import signed_revokes, verify

#: Fields compared between the scope and the account now.
COMPARED = ("status", "email", "name", "portal", "institution")


@dataclass
class Remediation:
    """A remediation's job and what the campaign recorded of it."""

    job: jobs.JobFile
    administrator: str
    reviewers: list[str]
    same_person: bool
    resumed: bool
    #: item id → what changed since the scope ("status: ACTIVE → SUSPENDED; ...").
    changed: dict[str, str] = field(default_factory=dict)
    manual: list[str] = field(default_factory=list)
    fingerprints: list[tuple[str, str]] = field(default_factory=list)


def _changes(item: Any, now: Target) -> str:
    scope = {
        "status": item["status"], "email": item["label"], "name": item["name"],
        "portal": item["portal"], "institution": item["institution"],
    }  # fmt: skip
    parts = []
    for key in COMPARED:
        before, after = scope[key] or "", str(now.record.get(key) or "")
        if before != after:
            parts.append(f"{key}: {before} → {after}")
    return "; ".join(parts)


def existing_job(campaign: Campaign) -> jobs.JobFile | None:
    """The remediation job recorded in the campaign, when its file is still there."""
    meta = campaign.meta.get("remediation") or {}
    path = meta.get("job_file")
    if not path or not Path(path).is_file():
        return None
    try:
        return jobs.JobFile.open(Path(path))
    except jobs.JobFileError:
        return None


async def remediate(
    campaign: Campaign,
    client: PortalClient,
    context: jobs.JobContext,
    *,
    folder: Path | None = None,
    expected_fingerprint: str | None = None,
) -> Remediation:
    """Plan (or find again) the campaign's remediation job; nothing is sent.

    ``CampaignError``: CHANGED when the campaign does not verify (naming the item),
    NOT_SIGNED when nothing is signed off, CLOSED when it is closed.
    """
    if campaign.meta.get("closed"):
        raise CampaignError("CLOSED", f"campaign {campaign.name!r} is closed")
    check = verify(campaign, expected_fingerprint)
    if check.status == "unsigned":
        raise CampaignError(
            "NOT_SIGNED", "nothing in this campaign is signed off: nothing to remediate"
        )
    if check.status != "intact":
        first = check.changed_items[0] if check.changed_items else None
        raise CampaignError(
            "CHANGED",
            "the campaign does not verify: " + "; ".join(check.problems[:5]),
            item=first,
        )
    reviewers = sorted({s.reviewer for s in check.signoffs})
    administrator = context.account
    same = administrator.strip().casefold() in {r.casefold() for r in reviewers}
    fingerprints = [(s.reviewer, s.fingerprint) for s in check.signoffs]
    revokes = signed_revokes(campaign)
    conn = campaign.conn
    rows = {
        r["id"]: r
        for r in conn.execute(
            "SELECT id, kind, ref, label, name, status, portal, institution FROM items"
            " WHERE decision = 'REVOKE' AND id IN (SELECT item FROM signed_items)"
        )
    }
    manual = [i for i in revokes if rows[i]["kind"] != "account"]
    job = existing_job(campaign)
    if job is not None:
        marked = {
            r[0]: r[1]
            for r in conn.execute("SELECT item, changed FROM remediation WHERE changed != ''")
        }
        return Remediation(job, administrator, reviewers, same, True, marked, manual, fingerprints)
    accounts = [i for i in revokes if rows[i]["kind"] == "account"]
    listed = TargetList(
        entries=[Entry(n + 1, rows[i]["ref"], False) for n, i in enumerate(accounts)]
    )
    found, problems = await match_accounts(client, listed)  # the current state, read first
    by_ref = {rows[i]["ref"]: i for i in accounts}
    changed: dict[str, str] = {}
    for target in found:
        item = by_ref.get(target.id)
        if item is not None:
            changed[item] = _changes(rows[item], target)
    action = jobs.ChangeStatus(campaign.revocation, reason=f"access review: {campaign.name}")
    job = await jobs.create_job(
        client,
        action,
        found,
        context,
        problems=problems,
        folder=folder,
        source=f"access review {campaign.name!r}",
    )
    current = {t.id: str(t.record.get("status") or "") for t in found}
    with campaign.transaction() as write:
        write.execute("DELETE FROM remediation")
        write.executemany(
            "INSERT INTO remediation (item, job, current, changed) VALUES (?, ?, ?, ?)",
            (
                (i, job.id, current.get(rows[i]["ref"], "not found"), changed.get(i, ""))
                for i in accounts
            ),
        )
        campaign.set_meta(
            write,
            remediation={
                "job": job.id,
                "job_file": str(job.path),
                "administrator": administrator,
                "reviewers": reviewers,
                "same_person": same,
                "planned_at": now_iso(),
                "server": context.server,
            },
        )
    return Remediation(
        job, administrator, reviewers, same, False,
        {k: v for k, v in changed.items() if v}, manual, fingerprints,
    )  # fmt: skip


def result_rows(job: jobs.JobFile) -> tuple[tuple[str, ...], list[tuple[Any, ...]]]:
    """The job's result file as rows (``jobs.write_result``'s columns)."""
    from portal_admin.jobs.plan import RESULT_HEADER, outcome

    rows = [
        (
            i.target_id, i.label, i.current, i.after if i.after is not None else "", outcome(i),
            i.skip if i.state is jobs.ItemState.SKIPPED else (i.error_code or ""),
            i.request_id or "", i.finished_at or "", i.note or "",
        )
        for i in job.items()
    ]  # fmt: skip
    return RESULT_HEADER, rows
