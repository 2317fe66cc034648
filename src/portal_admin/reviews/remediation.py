"""Remediation: every signed-off Revoke becomes a line of a bulk job (the jobs engine's dry run,
``jobs.create_job``): accounts with ``ChangeStatus`` (the campaign's SUSPEND or DEACTIVATE),
pending invitations with ``CancelInvitation``, each planned from the current state read
first: accounts already suspended are skipped as no change, accounts changed since the scope
are marked. The jobs then run as any job does (progress, pause, resume, result file, journal).

The campaign must verify (``signoff.verify``) and only signed-off decisions are acted on.
Revoked roles are listed for a person to act on (``manual``): no bulk action removes a role.
Separation of duties: the administrator who remediates and the reviewers who decided and
signed are both recorded; ``same_person`` says when they are one.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from portal_admin import jobs
from portal_admin.client import PortalClient
from portal_admin.jobs.actions import Target
from portal_admin.jobs.targets import Entry, TargetList, match_accounts, match_invitations

from .campaign import Campaign, CampaignError, now_iso
from .signoff import Verification, signed_revokes, verify

#: Fields compared between the scope and the account now.
COMPARED = ("status", "email", "name", "portal", "institution")


@dataclass
class Remediation:
    """A remediation's jobs (accounts first, then invitations) and what the campaign recorded
    of it."""

    jobs: list[jobs.JobFile]
    administrator: str
    reviewers: list[str]
    same_person: bool
    resumed: bool
    #: item id → what changed since the scope ("status: ACTIVE → SUSPENDED; ...").
    changed: dict[str, str] = field(default_factory=dict)
    manual: list[str] = field(default_factory=list)
    fingerprints: list[tuple[str, str]] = field(default_factory=list)

    def close(self) -> None:
        """Close every job file."""
        for job in self.jobs:
            job.close()


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


def existing_jobs(campaign: Campaign) -> list[jobs.JobFile] | None:
    """The remediation jobs recorded in the campaign whose files are still there (None:
    no remediation was planned)."""
    meta = campaign.meta.get("remediation")
    if not meta:
        return None
    found = []
    for entry in meta.get("jobs") or []:
        path = Path(str(entry.get("file", "")))
        if path.is_file():
            try:
                found.append(jobs.JobFile.open(path))
            except jobs.JobFileError:
                continue
    return found


def verify_file(path: Path, expected_fingerprint: str | None = None) -> Verification:
    """:func:`signoff.verify` of the campaign file at ``path``, on a connection of its own."""
    with Campaign.open(path) as campaign:
        return verify(campaign, expected_fingerprint)


async def remediate(
    campaign: Campaign,
    client: PortalClient,
    context: jobs.JobContext,
    *,
    folder: Path | None = None,
    expected_fingerprint: str | None = None,
) -> Remediation:
    """Plan the campaign's remediation jobs, or find them again once they have started (a
    plan that never ran, a dry run's, is made again from the state now); nothing is sent.

    ``CampaignError``: CHANGED when the campaign does not verify (naming the item),
    NOT_SIGNED when nothing is signed off, CLOSED when it is closed.
    """
    if campaign.meta.get("closed"):
        raise CampaignError("CLOSED", f"campaign {campaign.name!r} is closed")
    # on a connection of its own, in a worker thread: at 100,000 items this takes about a second,
    # which the desktop's event loop must not wait out
    check = await asyncio.to_thread(verify_file, campaign.path, expected_fingerprint)
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
    revokes = signed_revokes(campaign)
    conn = campaign.conn
    rows = {
        r["id"]: r
        for r in conn.execute(
            "SELECT i.id, i.kind, i.ref, i.label, i.name, i.status, i.portal, i.institution,"
            " d.reviewer FROM items AS i JOIN decisions AS d ON d.seq = i.decision_seq"
            " WHERE i.decision = 'REVOKE' AND i.id IN (SELECT item FROM signed_items)"
        )
    }
    reviewers = sorted(
        {s.reviewer for s in check.signoffs} | {r["reviewer"] for r in rows.values()}
    )
    administrator = context.account
    same = administrator.strip().casefold() in {r.casefold() for r in reviewers}
    fingerprints = [(s.reviewer, s.fingerprint) for s in check.signoffs]
    manual = [i for i in revokes if rows[i]["kind"] == "role"]
    found_again = existing_jobs(campaign) or []
    if any(j.state() != jobs.JobState.PLANNED or j.is_locked_elsewhere() for j in found_again):
        marked = {
            r[0]: r[1]
            for r in conn.execute("SELECT item, changed FROM remediation WHERE changed != ''")
        }
        return Remediation(
            found_again, administrator, reviewers, same, True, marked, manual, fingerprints
        )
    for job in found_again:  # planned, never run (a dry run): planned again from the state now
        job.discard()
    reason = f"access review: {campaign.name}"
    source = f"access review {campaign.name!r} ({campaign.campaign_id})"
    discard_unrecorded(campaign, folder)
    made: list[jobs.JobFile] = []
    accounts = [i for i in revokes if rows[i]["kind"] == "account"]
    changed: dict[str, str] = {}
    current: dict[str, str] = {}
    if accounts:
        listed = TargetList(
            entries=[Entry(n + 1, rows[i]["ref"], False) for n, i in enumerate(accounts)]
        )
        found, problems = await match_accounts(client, listed)  # the current state, first
        by_ref = {rows[i]["ref"]: i for i in accounts}
        for target in found:
            item = by_ref.get(target.id)
            if item is not None:
                changed[item] = _changes(rows[item], target)
                current[item] = str(target.record.get("status") or "")
        action = jobs.ChangeStatus(campaign.revocation, reason=reason)
        made.append(
            await jobs.create_job(
                client, action, found, context, problems=problems, folder=folder, source=source
            )
        )
    invitations = [i for i in revokes if rows[i]["kind"] == "invitation"]
    if invitations:
        listed = TargetList(
            entries=[Entry(n + 1, rows[i]["ref"], False) for n, i in enumerate(invitations)]
        )
        found, problems = match_invitations(await client.invitations.list(), listed)
        by_ref = {rows[i]["ref"]: i for i in invitations}
        for target in found:
            item = by_ref.get(target.id)
            if item is not None:
                current[item] = str(target.record.get("status") or "")
        made.append(
            await jobs.create_job(
                client,
                jobs.CancelInvitation(reason=reason),
                found,
                context,
                problems=problems,
                folder=folder,
                source=source,
            )
        )
    by_kind = {
        "account": made[0].id if accounts else "",
        "invitation": made[-1].id if invitations else "",
    }
    with campaign.transaction() as write:
        write.execute("DELETE FROM remediation")
        write.executemany(
            "INSERT INTO remediation (item, job, current, changed) VALUES (?, ?, ?, ?)",
            (
                (i, by_kind[rows[i]["kind"]], current.get(i, "not found"), changed.get(i, ""))
                for i in [*accounts, *invitations]
            ),
        )
        campaign.set_meta(
            write,
            remediation={
                "jobs": [{"id": j.id, "file": str(j.path), "kind": j.meta()["kind"]} for j in made],
                "administrator": administrator,
                "reviewers": reviewers,
                "same_person": same,
                "planned_at": now_iso(),
                "server": context.server,
                "manual": manual,
            },
        )
    return Remediation(
        made, administrator, reviewers, same, False,
        {k: v for k, v in changed.items() if v}, manual, fingerprints,
    )  # fmt: skip


def discard_unrecorded(campaign: Campaign, folder: Path | None = None) -> int:
    """Delete the plans of this campaign that a kill left unrecorded (planned, never run, no
    runner holding them): planning again must not leave a second plan behind."""
    mark = f"({campaign.campaign_id})"
    gone = 0
    for path in jobs.list_jobs(folder):
        try:
            job = jobs.JobFile.open(path)
        except jobs.JobFileError:
            continue
        meta = job.meta()
        if (
            str(meta.get("source", "")).endswith(mark)
            and meta.get("state") == jobs.JobState.PLANNED
            and not job.is_locked_elsewhere()
        ):
            job.discard()
            gone += 1
        else:
            job.close()
    return gone


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
