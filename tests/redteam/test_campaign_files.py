"""Red-team attacks on campaign files opened "as data" (branch h/campaign-desktop, with the
engine of h/campaign-engine): ``reviews/opening.py``, ``reviews/campaign.py``,
``reviews/remediation.py``. Each test is one attack that the current code lets through; the
docstring says the attack, what it achieves and the class of fix.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from portal_admin.reviews import Campaign, CampaignError

from .campaign_support import KEPT, REVOKED, raw, signed_campaign


def test_deeply_nested_json_in_meta_escapes_as_a_recursion_error(tmp_path: Path) -> None:
    """Attack: a meta value that is valid JSON nested 100,000 deep (``[[[...]]]``, 200 kB, well
    under MAX_META_VALUE). ``json.loads`` raises ``RecursionError``, not ``ValueError``, so
    ``opening.read_meta_rows`` lets it through and ``Campaign.open`` ends in a traceback
    instead of a named refusal (the CLI and the panel catch CampaignError, not this).
    Class of fix: every JSON read of a file bounds its depth, or catches RecursionError with
    ValueError, and names the entry (DAMAGED)."""
    path, _ = signed_campaign(tmp_path)
    deep = "[" * 100_000 + "]" * 100_000
    raw(path, f"UPDATE meta SET value = '{deep}' WHERE key = 'name'")
    with pytest.raises(CampaignError) as refused:
        Campaign.open(path).close()
    assert refused.value.code == "DAMAGED"


def test_item_detail_that_is_not_json_escapes_from_the_queue(tmp_path: Path) -> None:
    """Attack: ``items.detail`` set to text that is not JSON. The open-time checks look at the
    schema and ``meta`` only, so the file opens; the first page of the queue (``page``,
    ``item``) then raises ``json.JSONDecodeError`` from ``_item`` - a traceback where a named
    refusal is due. Class of fix: a column the program parses is checked when read, and a
    bad value is a CampaignError naming the item (DAMAGED), not an exception of the parser."""
    path, _ = signed_campaign(tmp_path)
    raw(path, f"UPDATE items SET detail = '{{not json' WHERE id = '{KEPT}'")
    # refused at open, or at the first read of the queue
    with pytest.raises(CampaignError) as refused, Campaign.open(path) as campaign:
        campaign.page()
    assert refused.value.item in (None, KEPT)


def test_file_replaced_between_the_check_and_the_use_is_obeyed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack (TOCTOU): ``Campaign.open`` checks the file on one read-only connection
    (``_check``), closes it, then opens the path again by name (``connect``). Whoever can
    write the folder (a shared drive the file is passed around on) swaps the file, or plants
    a ``-wal`` beside it, in between; the program then writes through a connection to a file
    nobody checked, and its trigger turns the reviewer's Keep into a Revoke. Here the swap is
    made at ``restrict`` (between check and connect) to make the race deterministic.
    Class of fix: check and use the same bytes - check on the connection that is then used
    (re-read ``sqlite_master`` and ``PRAGMA schema_version`` inside the first transaction of
    the writing connection), or open a private copy."""
    from portal_admin.evidence import keys
    from portal_admin.reviews import campaign as campaign_module
    from portal_admin.reviews import decide, reviewer_of

    folder = tmp_path / "a"
    folder.mkdir()
    path, _ = signed_campaign(folder)
    # an unsigned campaign (decisions not frozen): drop the sign-off with plain SQLite
    raw(path, "DELETE FROM signed_items; DELETE FROM signoffs;")
    evil = tmp_path / "evil.review"
    shutil.copy(path, evil)
    raw(
        evil,
        "CREATE TRIGGER flip AFTER INSERT ON decisions BEGIN"
        " UPDATE decisions SET decision = 'REVOKE' WHERE seq = new.seq;"
        " UPDATE items SET decision = 'REVOKE' WHERE id = new.item; END",
    )
    real_restrict = campaign_module.restrict

    def swap(p: Path) -> None:  # the other writer's move, after the check
        shutil.copy(evil, p)
        real_restrict(p)

    monkeypatch.setattr(campaign_module, "restrict", swap)
    try:
        campaign = Campaign.open(path)
    except CampaignError:
        return  # refused: the check covered what is used
    with campaign:
        reviewer = reviewer_of("other@example.test", keys.MemoryStore())
        decide(campaign, "account:ACC000003", "Keep", "needed", reviewer)
        latest = campaign.history("account:ACC000003")[-1].decision
    assert latest == "KEEP", "a trigger the check never saw rewrote the reviewer's decision"


def test_recorded_job_of_another_campaign_counts_as_carried_out(tmp_path: Path) -> None:
    """Attack: the campaign's ``meta.remediation`` (not signed) names a job file of ANOTHER
    campaign whose line for the same account is DONE (an old suspension, since undone), and
    its ``remediation`` table (not signed) maps the Revoke to it. ``remediate`` checks a
    recorded job against the signature (``_not_signed``), but ``carried_out`` /
    ``unremediated`` - what closing records as ``closed_unremediated`` and what the pack
    counts as "signed-off Revokes not carried out" - believe it: the Revoke counts as carried
    out though nothing was run for this campaign. Class of fix: one check of a recorded job
    (``_not_signed``: this campaign's source, the signed action, signed targets) applied by
    every reader of ``meta.remediation``, not only by ``remediate``."""
    from portal_admin import jobs
    from portal_admin.reviews import remediation

    path, _ = signed_campaign(tmp_path)
    other = jobs.JobFile.create(
        {"kind": "status", "params": {"action": "SUSPEND", "reason": "x"},
         "source": "access review 'Q3' (00000000-another-campaign)", "profile": "p",
         "server": "s", "account": "a"},
        [("ACC000002", "user2", {}, "ACTIVE", "SUSPENDED", None)],
        tmp_path / "jobs",
    )  # fmt: skip
    job_path = other.path
    other.close()
    conn = sqlite3.connect(job_path)
    conn.execute("UPDATE items SET state = 'done'")
    conn.commit()
    conn.close()
    with Campaign.open(path) as campaign:
        assert remediation.unremediated(campaign) == [REVOKED]  # nothing run yet
        with campaign.transaction() as write:
            campaign.set_meta(write, remediation={"jobs": [{"file": str(job_path)}]})
            write.execute(
                "INSERT INTO remediation (item, job, current, changed) VALUES (?, 'x', '', '')",
                (REVOKED,),
            )
        assert remediation.unremediated(campaign) == [REVOKED], (
            "another campaign's job counted as this campaign's remediation"
        )


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
