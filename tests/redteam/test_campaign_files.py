"""Red-team attacks on campaign files opened "as data" (branch h/campaign-desktop, with the
engine of h/campaign-engine): ``reviews/opening.py``, ``reviews/campaign.py``,
``reviews/remediation.py``. Each test is one attack that the current code lets through; the
docstring says the attack, what it achieves and the class of fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin.reviews import Campaign, CampaignError

from .campaign_support import raw, signed_campaign


async def test_a_campaign_of_one_server_is_remediated_on_another(tmp_path: Path) -> None:
    """Attack: a campaign whose scope was taken on one server (``meta.scope.server``: a
    staging or sandbox copy, where a reviewer happily signs "Revoke" on everything) is
    remediated while signed in to another (production, where the same account ids exist).
    The sign-off covers neither the scope's server nor the scope itself, and ``remediate``
    never compares the campaign's server with ``context.server``: it goes on to read the
    accounts and plan the suspensions on the server signed in to. Class of fix: the
    sign-off covers the scope's identity (server, snapshot time), and remediation refuses a
    server other than the scope's by name (OTHER_SERVER) before anything is read or planned.
    (Here the client is None: a remediation that reaches the server fails with
    AttributeError instead of a CampaignError.)"""
    from portal_admin import jobs
    from portal_admin.evidence import keys
    from portal_admin.reviews import remediation

    store = keys.MemoryStore()
    path, _ = signed_campaign(tmp_path, store)
    with Campaign.open(path) as campaign:
        assert campaign.meta["scope"]["server"] == "https://portal.example.test"
        context = jobs.JobContext("prod", "https://prod.example.test", "admin@example.test", "A1")
        with pytest.raises(CampaignError):
            await remediation.remediate(
                campaign,
                None,  # type: ignore[arg-type]
                context,
                folder=tmp_path / "jobs",
                key_store=store,
            )


def _smuggle(path: Path, item: str, decision: str, reviewer: str, fingerprint: str) -> None:
    """A decision row written with plain SQLite, as a reviewer can into their own file."""
    raw(
        path,
        "INSERT INTO decisions (item, decision, justification, reviewer, fingerprint,"
        f" decided_at, source, account_id, account_email) VALUES ('{item}', '{decision}',"
        f" 'x', '{reviewer}', '{fingerprint}', '2026-11-27T10:00:00.000+00:00', '', '',"
        f" '{reviewer}')",
    )
