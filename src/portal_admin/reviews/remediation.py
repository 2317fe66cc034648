"""Remediation: every signed-off Revoke becomes a line of a bulk job (the jobs engine's dry run,
``jobs.create_job``): accounts with ``ChangeStatus`` (the campaign's SUSPEND or DEACTIVATE),
pending invitations with ``CancelInvitation``, each planned from the current state read
first: accounts already suspended are skipped as no change, accounts changed since the scope
are marked. The jobs then run as any job does (progress, pause, resume, result file, journal).

The campaign must verify (``signoff.verify``), every sign-off must be by a key this
installation trusts (its own, a trusted key, or the pinned ``--fingerprint``: UNTRUSTED
otherwise) and of the current format (OLD_SIGNOFF otherwise), and only what the verification
read is acted on: the signed-off Revokes and the revocation action its signatures cover,
read in the verification's own transaction (no queue column, index or setting outside the
signature). Revoked roles are listed for a person to act on (``manual``): no bulk action
removes a role. Separation of duties: the administrator who remediates and the reviewers
who decided and signed are both recorded; ``same_person`` says when they are one, compared
by key (this installation's key signed or decided) and by server identity (the same account
id or email), never by a typed name alone; ``reasons`` says why.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from portal_admin import jobs
from portal_admin.client import PortalClient
from portal_admin.evidence import keys
from portal_admin.evidence import trust as trusting
from portal_admin.files.terminal import printable
from portal_admin.jobs.actions import Target
from portal_admin.jobs.store import SUFFIX as JOB_SUFFIX
from portal_admin.jobs.targets import Entry, TargetList, match_accounts, match_invitations

from .campaign import Campaign, CampaignError, now_iso
from .signoff import SignedDecision, Signoff, Verification, verify

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
    #: Why the administrator is one of the reviewers (empty: they are not).
    reasons: list[str] = field(default_factory=list)
    #: The sign-offs, checked (reviewer, fingerprint, trust, server identity).
    signoffs: list[Signoff] = field(default_factory=list)

    def close(self) -> None:
        """Close every job file."""
        for job in self.jobs:
            job.close()


def _changes(item: SignedDecision, now: Target) -> str:
    scope = {
        "status": item.status, "email": item.label, "name": item.name,
        "portal": item.portal, "institution": item.institution,
    }  # fmt: skip
    parts = []
    for key in COMPARED:
        before, after = scope[key] or "", str(now.record.get(key) or "")
        if before != after:
            parts.append(f"{key}: {before} → {after}")
    return "; ".join(parts)


#: What a job id recorded in a campaign may be: a file name's stem, never a path.
_JOB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,120}")


def job_path(job_id: object, folder: Path | None = None) -> Path | None:
    """The file of the job ``job_id`` in this installation's jobs folder (``folder``: the
    default one when None), or None when ``job_id`` is not a job id (a path, say): a
    campaign names jobs, never a file to be opened."""
    if not isinstance(job_id, str) or not _JOB_ID.fullmatch(job_id):
        return None
    return (folder or jobs.jobs_dir()) / f"{job_id}{JOB_SUFFIX}"


def existing_jobs(campaign: Campaign, folder: Path | None = None) -> list[jobs.JobFile] | None:
    """The remediation jobs recorded in the campaign (by id) whose files are in this
    installation's jobs folder (``folder``) and open as job files (None: no remediation was
    planned). The record is not signed: see :func:`recorded_jobs` for the jobs it may be
    believed of."""
    meta = campaign.meta.get("remediation")
    if not meta:
        return None
    entries = meta.get("jobs") if isinstance(meta, dict) else None
    found = []
    for entry in entries if isinstance(entries, list) else []:
        path = job_path(entry.get("id") if isinstance(entry, dict) else None, folder)
        if path is not None and path.is_file():
            try:
                found.append(jobs.JobFile.open(path))
            except jobs.JobFileError:
                continue
    return found


def verify_file(
    path: Path,
    expected_fingerprint: str | None = None,
    *,
    trust_store: trusting.TrustStore | None = None,
    own: object = trusting.LOOK_UP,
) -> Verification:
    """:func:`signoff.verify` of the campaign file at ``path``, on a connection of its own."""
    with Campaign.open(path) as campaign:
        return verify(campaign, expected_fingerprint, trust_store=trust_store, own=own)


def refusal(check: Verification) -> CampaignError | None:
    """Why remediation refuses a campaign so checked (None: it may go on): NOT_SIGNED,
    CHANGED, UNTRUSTED (naming each signer and key), OLD_SIGNOFF."""
    if check.status == "unsigned":
        return CampaignError(
            "NOT_SIGNED", "nothing in this campaign is signed off: nothing to remediate"
        )
    if check.status != "intact":
        first = check.changed_items[0] if check.changed_items else None
        return CampaignError(
            "CHANGED",
            "the campaign does not verify: " + "; ".join(check.problems[:5]),
            item=first,
        )
    if check.untrusted:
        named = "; ".join(f"{s.reviewer} (key {s.fingerprint})" for s in check.untrusted[:5])
        return CampaignError(
            "UNTRUSTED",
            f"signed off with a key this installation does not trust: {named}. Check the"
            " fingerprint with the reviewer by another channel, then trust it (evidence trust"
            " add FINGERPRINT --name NAME) or give it with --fingerprint",
        )
    if check.old_format:
        named = "; ".join(f"{s.reviewer} (key {s.fingerprint})" for s in check.old_format[:5])
        return CampaignError(
            "OLD_SIGNOFF",
            f"signed off by an earlier version ({named}), whose sign-off does not cover the"
            " revocation action or the scope's server: the reviewer signs again with this"
            " version (the same key)",
        )
    return None


def same_server(signed: str, here: str) -> bool:
    """True when the server a sign-off covers and the one signed in to are one (base URLs
    compared without a trailing slash, case-insensitively); an empty one is no server."""
    one, other = signed.strip().rstrip("/").casefold(), here.strip().rstrip("/").casefold()
    return bool(one) and one == other


def same_person(
    check: Verification, administrator: str, administrator_id: str | None, own: str | None
) -> list[str]:
    """Why the administrator is one of those who decided or signed (empty: nobody is them):
    this installation's key (``own``) signed or decided, or the same server account (id, or
    email) did. Typed names are compared only as one more reason."""
    reasons: list[str] = []
    email = administrator.strip().casefold()

    def who(fingerprint: str, account_id: str, account_email: str, name: str) -> str | None:
        if own is not None and fingerprint == own:
            return "with this installation's key"
        if administrator_id and account_id and account_id == administrator_id:
            return "as the same server account"
        if email and account_email.strip().casefold() == email:
            return "as the same server account"
        if email and name.strip().casefold() == email:
            return "under the administrator's name"
        return None

    for s in check.signoffs:
        why = who(s.fingerprint, s.account_id, s.account_email, s.reviewer)
        if why:
            reasons.append(f"signed off by {s.reviewer} {why}")
    for d in check.revokes:
        why = who(d.fingerprint, d.account_id, d.account_email, d.reviewer)
        if why:
            reasons.append(f"Revoke of {d.item} decided by {d.reviewer} {why}")
    return list(dict.fromkeys(reasons))


async def remediate(
    campaign: Campaign,
    client: PortalClient,
    context: jobs.JobContext,
    *,
    folder: Path | None = None,
    expected_fingerprint: str | None = None,
    key_store: keys.SecretStore | None = None,
    trust_store: trusting.TrustStore | None = None,
) -> Remediation:
    """Plan the campaign's remediation jobs, or find them again once they have started (a
    plan that never ran, a dry run's, is made again from the state now); nothing is sent.
    ``key_store``: where this installation's key is (the OS keyring by default);
    ``trust_store``: the trusted keys (the user's by default).

    ``CampaignError``: CHANGED when the campaign does not verify (naming the item),
    NOT_SIGNED when nothing is signed off, UNTRUSTED when a signer's key is not trusted,
    OLD_SIGNOFF for a sign-off of an earlier format, OTHER_SERVER when the signed-off scope
    was taken on another server than ``context.server``, CLOSED when it is closed.
    """
    if campaign.meta.get("closed"):
        raise CampaignError("CLOSED", f"campaign {campaign.name!r} is closed")
    own = await asyncio.to_thread(trusting.own_fingerprint, key_store)
    # on a connection of its own, in a worker thread: at 100,000 items this takes about a second,
    # which the desktop's event loop must not wait out
    check = await asyncio.to_thread(
        verify_file, campaign.path, expected_fingerprint, trust_store=trust_store, own=own
    )
    refused = refusal(check)
    if refused is not None:
        raise refused
    if not same_server(check.server, context.server):  # before anything is read or planned
        raise CampaignError(
            "OTHER_SERVER",
            f"this campaign's scope was taken on"
            f" {printable(check.server, 200) or 'no named server'} (as signed off), and this"
            f" is {printable(context.server, 200)}: refused; nothing is read or planned",
            params=(check.server, context.server),
        )
    rows = {d.item: d for d in check.revokes}  # read in the verification's transaction
    revokes = list(rows)
    reviewers = sorted({s.reviewer for s in check.signoffs} | {d.reviewer for d in rows.values()})
    administrator = context.account
    reasons = same_person(check, administrator, context.self_id, own)
    same = bool(reasons)
    fingerprints = [(s.reviewer, s.fingerprint) for s in check.signoffs]
    manual = [i for i in revokes if rows[i].kind == "role"]
    conn = campaign.conn
    found_again = existing_jobs(campaign, folder) or []
    for job in found_again:  # the campaign's record of its jobs is not signed: check them
        foreign = _not_signed(job, campaign.campaign_id, check)
        if foreign is not None:
            for each in found_again:
                each.close()
            raise CampaignError(
                "CHANGED",
                f"the remediation job recorded in this campaign ({job.path.name}) {foreign}:"
                " refused; nothing is run",
            )
    if any(j.state() != jobs.JobState.PLANNED or j.is_locked_elsewhere() for j in found_again):
        marked = {
            r[0]: r[1]
            for r in conn.execute("SELECT item, changed FROM remediation WHERE changed != ''")
        }
        return Remediation(
            found_again, administrator, reviewers, same, True, marked, manual, fingerprints,
            reasons, check.signoffs,
        )  # fmt: skip
    for job in found_again:  # planned, never run (a dry run): planned again from the state now
        job.discard()
    reason = f"access review: {campaign.name}"
    source = f"access review {campaign.name!r} ({campaign.campaign_id})"
    discard_unrecorded(campaign, folder)
    made: list[jobs.JobFile] = []
    accounts = [i for i in revokes if rows[i].kind == "account"]
    changed: dict[str, str] = {}
    current: dict[str, str] = {}
    if accounts:
        listed = TargetList(
            entries=[Entry(n + 1, rows[i].ref, False) for n, i in enumerate(accounts)]
        )
        found, problems = await match_accounts(client, listed)  # the current state, first
        by_ref = {rows[i].ref: i for i in accounts}
        for target in found:
            item = by_ref.get(target.id)
            if item is not None:
                changed[item] = _changes(rows[item], target)
                current[item] = str(target.record.get("status") or "")
        action = jobs.ChangeStatus(check.revocation, reason=reason)  # as signed
        made.append(
            await jobs.create_job(
                client, action, found, context, problems=problems, folder=folder, source=source
            )
        )
    invitations = [i for i in revokes if rows[i].kind == "invitation"]
    if invitations:
        listed = TargetList(
            entries=[Entry(n + 1, rows[i].ref, False) for n, i in enumerate(invitations)]
        )
        found, problems = match_invitations(await client.invitations.list(), listed)
        by_ref = {rows[i].ref: i for i in invitations}
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
                (i, by_kind[rows[i].kind], current.get(i, "not found"), changed.get(i, ""))
                for i in [*accounts, *invitations]
            ),
        )
        campaign.set_meta(
            write,
            remediation={
                "jobs": [{"id": j.id, "kind": j.meta()["kind"]} for j in made],
                "administrator": administrator,
                "administrator_id": context.self_id or "",
                "administrator_fingerprint": own or "",
                "reviewers": reviewers,
                "same_person": same,
                "same_person_reasons": reasons,
                "revocation": check.revocation,
                "planned_at": now_iso(),
                "server": context.server,
                "manual": manual,
            },
        )
    return Remediation(
        made, administrator, reviewers, same, False,
        {k: v for k, v in changed.items() if v}, manual, fingerprints, reasons, check.signoffs,
    )  # fmt: skip


def _not_signed(job: jobs.JobFile, campaign_id: str, check: Verification) -> str | None:
    """Why a job file the campaign names is not this campaign's remediation of what was signed
    (None: it is): another source, another action than the signed revocation, or a target no
    signed-off Revoke names."""
    meta = job.meta()
    if not str(meta.get("source", "")).endswith(f"({campaign_id})"):
        return "is not this campaign's"
    kind = meta.get("kind")
    if kind == "status":
        action = (meta.get("params") or {}).get("action")
        if action != check.revocation:
            return f"would {action} accounts, not {check.revocation} them as signed"
        refs = {d.ref for d in check.revokes if d.kind == "account"}
    elif kind == "cancel-invitation":
        refs = {d.ref for d in check.revokes if d.kind == "invitation"}
    else:
        return f"is a {kind} job"
    for line in job.items():
        if line.target_id not in refs:
            return f"holds {line.target_id}, which no signed-off Revoke names"
    return None


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


def recorded_jobs(
    campaign: Campaign, check: Verification, folder: Path | None = None
) -> list[jobs.JobFile]:
    """The recorded remediation jobs (:func:`existing_jobs`) that are this campaign's
    remediation of what ``check`` found signed (:func:`_not_signed`): the one check every
    reader of the unsigned record applies; the others are closed and left out."""
    kept = []
    for job in existing_jobs(campaign, folder) or []:
        if _not_signed(job, campaign.campaign_id, check) is None:
            kept.append(job)
        else:
            job.close()
    return kept


def carried_out(
    campaign: Campaign, check: Verification | None = None, folder: Path | None = None
) -> set[str]:
    """Ids of the signed-off Revokes whose remediation job line is done, or was left alone
    because the target already had the new value (read from the recorded jobs' files that
    are this campaign's remediation of what was signed: :func:`recorded_jobs`)."""
    check = check if check is not None else verify(campaign, own=None)
    ids = {(d.kind, d.ref): d.item for d in check.revokes}
    done: set[str] = set()
    for job in recorded_jobs(campaign, check, folder):
        try:
            kind = "invitation" if job.meta()["kind"] == "cancel-invitation" else "account"
            for line in job.items():
                if line.state is jobs.ItemState.DONE or (
                    line.state is jobs.ItemState.SKIPPED and line.skip == "NO_CHANGE"
                ):
                    item = ids.get((kind, line.target_id))
                    if item is not None:
                        done.add(item)
        finally:
            job.close()
    return done


def unremediated(
    campaign: Campaign, check: Verification | None = None, folder: Path | None = None
) -> list[str]:
    """Ids of the signed-off Revokes not carried out: no remediation job line done for them
    (roles always: they are revoked by hand, which the program cannot see). ``check``: the
    campaign's verification when the caller has it (else it is made, ``own`` not looked up).
    A campaign that does not verify is refused (CHANGED): what was signed off cannot be told
    from it, so no count of it is believed."""
    check = check if check is not None else verify(campaign, own=None)
    if check.status not in ("intact", "unsigned"):
        refused = refusal(check)
        assert refused is not None
        raise refused
    done = carried_out(campaign, check, folder)
    return [d.item for d in check.revokes if d.item not in done]
