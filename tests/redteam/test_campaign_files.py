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

from .campaign_support import KEPT, REVOKED, new_campaign, raw, signed_campaign


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


def _smuggle(path: Path, item: str, decision: str, reviewer: str, fingerprint: str) -> None:
    """A decision row written with plain SQLite, as a reviewer can into their own file."""
    raw(
        path,
        "INSERT INTO decisions (item, decision, justification, reviewer, fingerprint,"
        f" decided_at, source, account_id, account_email) VALUES ('{item}', '{decision}',"
        f" 'x', '{reviewer}', '{fingerprint}', '2026-11-27T10:00:00.000+00:00', '', '',"
        f" '{reviewer}')",
    )


def test_a_part_file_decides_an_item_of_another_part_without_conflict(tmp_path: Path) -> None:
    """Attack: the campaign is split by portal; reviewer B (PARTNER) keeps account 4 and their
    part is merged. Reviewer A (TENANT) adds to THEIR part file, with plain SQLite, a Revoke of
    account 4 - an item not in their part - under B's name. ``merge`` checks that a decision's
    item exists in the campaign, but its CONFLICT check joins the part's own ``items``, so a
    decision on an item the part does not hold is never compared: it is appended, and becomes
    account 4's latest decision, overriding B's Keep without a word. Class of fix: a part's
    decisions are only on the part's items (``item IN p.items`` and ``items.part`` = the
    part's name), and the conflict check runs on every decision merged."""
    from portal_admin.evidence import keys
    from portal_admin.reviews import decide, reviewer_of
    from portal_admin.reviews.split_merge import merge, split

    campaign = new_campaign(tmp_path)
    parts = {p.name: p for p in split(campaign, "portal", tmp_path / "parts")}
    tenant = next(p for n, p in parts.items() if "TENANT" in n)
    partner = next(p for n, p in parts.items() if "PARTNER" in n)
    b = reviewer_of("b@example.test", keys.MemoryStore())
    with Campaign.open(partner) as part_b:
        decide(part_b, "account:ACC000004", "Keep", "needed", b)
    merge(campaign, partner)
    a = reviewer_of("a@example.test", keys.MemoryStore())
    with Campaign.open(tenant) as part_a:
        decide(part_a, "account:ACC000001", "Keep", "needed", a)
    _smuggle(tenant, "account:ACC000004", "REVOKE", "b@example.test", b.fingerprint)
    try:
        merge(campaign, tenant)
    except CampaignError:
        campaign.close()
        return  # refused: fine
    latest = campaign.history("account:ACC000004")[-1].decision
    campaign.close()
    assert latest == "KEEP", "a part file overrode a decision of another part"


def test_one_sign_off_counted_twice_through_another_base64_spelling(tmp_path: Path) -> None:
    """Attack: copy the sign-off row with its signature spelled differently in base64 - the
    last character before the ``=`` padding carries two unused bits, so four spellings decode
    to the same 64 bytes (``b64decode(validate=True)`` does not check those bits) - and copy
    its signed items under the new row. ``signoffs.signature UNIQUE`` compares the text, so
    the copy goes in; ``verify`` checks it as a second valid sign-off: the file is "intact"
    and lists the reviewer's sign-off twice (a two-signature rule, a count of sign-offs in
    the report or pack, is satisfied by one person once). Class of fix: a signature is
    compared as bytes (re-encode and require the canonical spelling), and one key signs a
    part once."""
    from portal_admin.reviews import verify

    path, _ = signed_campaign(tmp_path)
    conn = sqlite3.connect(path)
    sig = conn.execute("SELECT signature FROM signoffs").fetchone()[0]
    conn.close()
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    core = sig.rstrip("=")
    other = core[:-1] + alphabet[alphabet.index(core[-1]) ^ 1] + sig[len(core) :]
    raw(
        path,
        "INSERT INTO signoffs (part, reviewer, fingerprint, public_key, signed_at, items,"
        " digest, signature, account_id, account_email, format) SELECT part, reviewer,"
        " fingerprint, public_key, signed_at, items, digest, "
        f"'{other}', account_id, account_email, format FROM signoffs;"
        " INSERT INTO signed_items SELECT 2, item, digest FROM signed_items WHERE signoff = 1;",
    )
    try:
        campaign = Campaign.open(path)
    except CampaignError:
        return
    with campaign:
        check = verify(campaign, own=None)
    assert check.status != "intact" or len(check.signoffs) == 1, (
        "one signature counted as two sign-offs"
    )


def test_a_signed_revoke_undone_after_sign_off_passes_the_closing_gate(tmp_path: Path) -> None:
    """Attack: after the sign-off, a Keep of the Revoked account is appended to the history
    (plain SQLite; the queue column set to match). Remediation refuses the file (CHANGED), so
    nothing is suspended - but the closing gate (``review close`` refuses while signed-off
    Revokes are not carried out, UNREMEDIATED) asks ``remediation.unremediated``, which takes
    ``verify(...).revokes`` without looking at the verification's status: the latest decision
    is now Keep, so no Revoke is "left", and the campaign closes with
    ``closed_unremediated: 0`` though the signed-off Revoke was never carried out.
    Class of fix: every consumer of a verification refuses one that is not intact (one
    function hands out signed decisions only from an intact file), and ``closing.check``
    verifies before it records anything."""
    from portal_admin.reviews import remediation

    path, _ = signed_campaign(tmp_path)
    raw(
        path,
        "INSERT INTO decisions (item, decision, justification, reviewer, fingerprint,"
        " decided_at, source) SELECT item, 'KEEP', 'changed my mind', reviewer, fingerprint,"
        f" decided_at, source FROM decisions WHERE item = '{REVOKED}';"
        " UPDATE items SET decision = 'KEEP', decision_seq = (SELECT max(seq) FROM decisions)"
        f" WHERE id = '{REVOKED}';",
    )
    with Campaign.open(path) as campaign:
        try:
            left = remediation.unremediated(campaign)
        except CampaignError:
            return  # refused: the gate saw the file does not verify
    assert left == [REVOKED], "a signed-off Revoke undone after sign-off passes the closing gate"


async def test_a_job_file_named_by_the_campaign_carries_sql_that_retargets_it(
    tmp_path: Path,
) -> None:
    """Attack: the campaign's ``meta.remediation`` (not signed) names a job file beside it on
    the share it came on. That job file passes ``_not_signed`` - this campaign's source, the
    signed action, every line a signed-off Revoke, state ``paused`` - so ``remediate``
    returns it to be resumed. But ``JobFile.open`` opens it as a database to obey, not as
    data: the file carries a trigger that, when the runner marks its first line as being
    sent, rewrites the second line's target to the account the reviewer KEPT. The check
    passed on the file's rows; the runner then sends what the trigger wrote. Class of fix:
    the campaign engine's "open as data" check (this program's schema exactly, no trigger,
    ``integrity_check``) for every SQLite file the program did not just write - job files
    included - and a recorded job file is only believed inside the jobs folder."""
    from portal_admin import jobs
    from portal_admin.evidence import keys
    from portal_admin.reviews import decide, remediation, reviewer_of, sign

    store = keys.MemoryStore()
    reviewer = reviewer_of("rev@example.test", store)
    campaign = new_campaign(tmp_path)
    decide(campaign, KEPT, "Keep", "needed", reviewer)
    decide(campaign, [REVOKED, "account:ACC000003"], "Revoke", "left", reviewer)
    sign(campaign, reviewer.name, keys.signing_key(store))
    share = tmp_path / "share"
    job = jobs.JobFile.create(
        {"kind": "status", "params": {"action": "SUSPEND", "reason": "x"},
         "source": f"access review 'Q4 review' ({campaign.campaign_id})", "profile": "p",
         "server": "s", "account": "a"},
        [("ACC000002", "user2", {}, "ACTIVE", "SUSPENDED", None),
         ("ACC000003", "user3", {}, "ACTIVE", "SUSPENDED", None)],
        share,
    )  # fmt: skip
    job_path = job.path
    job.close()
    raw(
        job_path,
        "UPDATE meta SET value = '\"paused\"' WHERE key = 'state';"
        " CREATE TRIGGER retarget AFTER UPDATE OF state ON items WHEN new.seq = 1 BEGIN"
        " UPDATE items SET target_id = 'ACC000001' WHERE seq = 2; END;",
    )
    with campaign.transaction() as conn:
        campaign.set_meta(conn, remediation={"jobs": [{"file": str(job_path)}]})
    context = jobs.JobContext("p", "s", "admin@example.test", "ADM1")
    try:
        plan = await remediation.remediate(
            campaign,
            None,
            context,
            folder=tmp_path / "jobs",
            key_store=store,  # type: ignore[arg-type]
        )
    except CampaignError:
        campaign.close()
        return  # refused: fine
    campaign.close()
    assert plan.resumed and [j.path for j in plan.jobs] == [job_path]  # handed on to resume
    plan.close()
    conn = sqlite3.connect(job_path)  # what the runner's first write does to the file
    conn.execute("UPDATE items SET state = 'sending' WHERE seq = 1")
    conn.commit()
    targets = [r[0] for r in conn.execute("SELECT target_id FROM items ORDER BY seq")]
    conn.close()
    assert "ACC000001" not in targets, f"the job to be resumed now suspends {targets}"
