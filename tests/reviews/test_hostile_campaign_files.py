"""Attacks on campaign files (from the red-team review, tests/redteam/test_campaign_files.py),
each fixed: the docstring says the attack, what it achieved and the class of fix."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from portal_admin.reviews import Campaign, CampaignError

from .hostile_support import KEPT, REVOKED, new_campaign, raw, signed_campaign


def _smuggle(path: Path, item: str, decision: str, reviewer: str, fingerprint: str) -> None:
    """A decision row written with plain SQLite, as a reviewer can into their own file."""
    raw(
        path,
        "INSERT INTO decisions (item, decision, justification, reviewer, fingerprint,"
        f" decided_at, source, account_id, account_email) VALUES ('{item}', '{decision}',"
        f" 'x', '{reviewer}', '{fingerprint}', '2026-11-27T10:00:00.000+00:00', '', '',"
        f" '{reviewer}')",
    )


def _own_keep(tmp_path: Path) -> tuple[Path, object, object]:
    """A campaign reviewed by user3, whose own account's Keep is written with plain SQLite."""
    from portal_admin.evidence import keys
    from portal_admin.reviews import reviewer_of

    store = keys.MemoryStore()
    reviewer = reviewer_of("user3@example.test", store)
    campaign = new_campaign(tmp_path, reviewer="user3@example.test")
    path = campaign.path
    campaign.close()
    _smuggle(path, "account:ACC000003", "KEEP", "user3@example.test", reviewer.fingerprint)
    raw(
        path,
        "UPDATE items SET decision = 'KEEP', decision_seq = (SELECT max(seq) FROM decisions)"
        " WHERE id = 'account:ACC000003'",
    )
    return path, reviewer, store


def test_a_reviewer_keeps_their_own_account_by_writing_the_row(tmp_path: Path) -> None:
    """Attack (separation of duties): ``decide`` refuses a reviewer their own account (SELF),
    but that was the only place the rule lived. The reviewer (user3@example.test, whose
    account is item 3) writes the Keep of their own account into the file with plain SQLite,
    under their own name, key and server identity, and signs off with the program. Nothing
    after the fact looked: ``verify`` said intact. Class of fix: rules enforced on writing are
    checked again from the signed history - at sign-off (SELF, nothing signed) and at
    verification (``self_decided``, a problem naming the item)."""
    from portal_admin.evidence import keys
    from portal_admin.reviews import sign

    path, reviewer, store = _own_keep(tmp_path)
    with Campaign.open(path) as campaign, pytest.raises(CampaignError) as refused:
        sign(campaign, reviewer, keys.signing_key(store))
    assert (refused.value.code, refused.value.item) == ("SELF", "account:ACC000003")
    with Campaign.open(path) as campaign:
        assert not campaign.is_signed()


def test_a_self_decided_item_signed_elsewhere_does_not_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same file signed by a program that does not check (here: the sign-off's check
    switched off): ``verify`` names the item and the file is not intact."""
    from portal_admin.evidence import keys
    from portal_admin.reviews import sign, signoff, verify

    path, reviewer, store = _own_keep(tmp_path)
    real = signoff._self_decided
    with Campaign.open(path) as campaign:
        monkeypatch.setattr(signoff, "_self_decided", lambda row, signers: False)
        sign(campaign, reviewer, keys.signing_key(store))
        monkeypatch.setattr(signoff, "_self_decided", real)
        check = verify(campaign, own=None)
    assert check.status == "changed"
    assert check.self_decided == ["account:ACC000003"]
    assert any("account:ACC000003" in p for p in check.problems)


def _status_job(folder: Path, source: str, targets: list[str]) -> Path:
    """A suspension job file (closed) with a line per target."""
    from portal_admin import jobs

    job = jobs.JobFile.create(
        {"kind": "status", "params": {"action": "SUSPEND", "reason": "x"}, "source": source,
         "profile": "p", "server": "s", "account": "a"},
        [(t, t.lower(), {}, "ACTIVE", "SUSPENDED", None) for t in targets],
        folder,
    )  # fmt: skip
    path = job.path
    job.close()
    return path


async def test_a_job_file_named_by_the_campaign_carries_sql_that_retargets_it(
    tmp_path: Path,
) -> None:
    """Attack: the campaign's ``meta.remediation`` (not signed) named a job file beside it on
    the share it came on, by path. That job file passed ``_not_signed`` (this campaign's
    source, the signed action, every line a signed-off Revoke, state ``paused``), so
    ``remediate`` returned it to be resumed; but ``JobFile.open`` opened it as a database to
    obey: its trigger rewrote a line's target to the account the reviewer KEPT once the
    runner marked the first line as being sent. Class of fix: a campaign names job ids only,
    resolved inside this installation's jobs folder (a path is never opened), and a job file
    is opened as data (``files/sqlite_data.py``: no trigger, this program's schema exactly):
    tests/jobs/test_job_file_as_data.py."""
    from portal_admin.evidence import keys
    from portal_admin.reviews import decide, remediation, reviewer_of, sign

    store = keys.MemoryStore()
    reviewer = reviewer_of("rev@example.test", store)
    campaign = new_campaign(tmp_path)
    decide(campaign, KEPT, "Keep", "needed", reviewer)
    decide(campaign, [REVOKED, "account:ACC000003"], "Revoke", "left", reviewer)
    sign(campaign, reviewer.name, keys.signing_key(store))
    source = f"access review 'Q4 review' ({campaign.campaign_id})"
    share = _status_job(tmp_path / "share", source, ["ACC000002", "ACC000003"])
    folder = tmp_path / "jobs"
    inside = _status_job(folder, source, ["ACC000002", "ACC000003"])
    raw(
        inside,
        "CREATE TRIGGER retarget AFTER UPDATE OF state ON items WHEN new.seq = 1 BEGIN"
        " UPDATE items SET target_id = 'ACC000001' WHERE seq = 2; END;",
    )
    records = [
        {"file": str(share)},  # a path: never opened
        {"id": str(share.with_suffix("").with_suffix(""))},  # a path spelled as an id
        {"id": f"../share/{share.name.removesuffix('.job.sqlite3')}"},
        {"id": inside.name.removesuffix(".job.sqlite3")},  # inside, but carries a trigger
    ]
    for record in records:
        with campaign.transaction() as conn:
            campaign.set_meta(conn, remediation={"jobs": [record]})
        assert remediation.existing_jobs(campaign, folder) == [], record
    campaign.close()


def test_recorded_job_of_another_campaign_counts_as_carried_out(tmp_path: Path) -> None:
    """Attack: the campaign's ``meta.remediation`` (not signed) names a job of ANOTHER
    campaign whose line for the same account is DONE (an old suspension, since undone), and
    its ``remediation`` table (not signed) maps the Revoke to it. ``remediate`` checked a
    recorded job against the signature (``_not_signed``), but ``carried_out`` /
    ``unremediated`` (what closing records as ``closed_unremediated``, what the pack counts
    as "signed-off Revokes not carried out") believed it. Class of fix: one check of a
    recorded job (``recorded_jobs``: this campaign's source, the signed action, signed
    targets) applied by every reader of ``meta.remediation``."""
    from portal_admin.reviews import remediation

    path, _ = signed_campaign(tmp_path)
    folder = tmp_path / "jobs"
    job_path = _status_job(folder, "access review 'Q3' (00000000-another-campaign)", ["ACC000002"])
    raw(job_path, "UPDATE items SET state = 'done'")
    with Campaign.open(path) as campaign:
        assert remediation.unremediated(campaign, folder=folder) == [REVOKED]  # nothing run
        with campaign.transaction() as write:
            job_id = job_path.name.removesuffix(".job.sqlite3")
            campaign.set_meta(write, remediation={"jobs": [{"id": job_id}]})
            write.execute(
                "INSERT INTO remediation (item, job, current, changed) VALUES (?, 'x', '', '')",
                (REVOKED,),
            )
        assert len(remediation.existing_jobs(campaign, folder) or []) == 1  # it is found
        for job in remediation.existing_jobs(campaign, folder) or []:
            job.close()
        assert remediation.unremediated(campaign, folder=folder) == [REVOKED], (
            "another campaign's job counted as this campaign's remediation"
        )


def test_a_signed_revoke_undone_after_sign_off_passes_the_closing_gate(tmp_path: Path) -> None:
    """Attack: after the sign-off, a Keep of the Revoked account is appended to the history
    (plain SQLite; the queue column set to match). Remediation refuses the file (CHANGED),
    but the closing gate asked ``remediation.unremediated``, which took
    ``verify(...).revokes`` without looking at the verification's status: no Revoke was
    "left", and the campaign closed with ``closed_unremediated: 0``. Class of fix:
    ``unremediated`` refuses a verification that is not intact (CHANGED), and
    ``closing.check`` verifies before it records anything (and takes the revocation action
    from the verification, not from the unsigned metadata)."""
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
    with Campaign.open(path) as campaign, pytest.raises(CampaignError) as refused:
        remediation.unremediated(campaign)
    assert refused.value.code == "CHANGED"


def test_closing_takes_the_signed_revocation_action(tmp_path: Path) -> None:
    """``closing.check`` judged "revoked and done" by the metadata's revocation action, which
    is not signed: it takes the verification's (here the metadata says DEACTIVATE, the
    signature SUSPEND, so the file does not verify and closing is refused)."""
    from portal_admin.reviews import closing

    path, _ = signed_campaign(tmp_path)
    raw(path, "UPDATE meta SET value = '\"DEACTIVATE\"' WHERE key = 'revocation'")
    with Campaign.open(path) as campaign, pytest.raises(CampaignError) as refused:
        closing.check(campaign, tmp_path / "scope.sqlite3", close_as="admin@example.test")
    assert refused.value.code == "CHANGED"
    with Campaign.open(path) as campaign:
        assert not campaign.meta.get("closed") and not campaign.meta.get("closing")


def test_file_replaced_between_the_check_and_the_use_is_obeyed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack (TOCTOU): ``Campaign.open`` checked the file on one read-only connection,
    closed it, then opened the path again by name. Whoever can write the folder (a shared
    drive) swaps the file in between; the program then wrote through a connection to a file
    nobody checked, and its trigger turned the reviewer's Keep into a Revoke. Here the swap
    is made at ``restrict`` (between the old check and the old reopen; now after the check,
    on the checked connection's file). Class of fix: the connection that is checked is the
    one that is used, and each write transaction re-reads the schema cookie under the write
    lock (a schema changed since the check is refused, nothing written)."""
    from portal_admin.evidence import keys
    from portal_admin.reviews import campaign as campaign_module
    from portal_admin.reviews import decide, reviewer_of

    folder = tmp_path / "a"
    folder.mkdir()
    path, _ = signed_campaign(folder)
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

    def swap(p: Path) -> None:  # the other writer's move
        shutil.copy(evil, p)
        real_restrict(p)

    monkeypatch.setattr(campaign_module, "restrict", swap)
    try:
        campaign = Campaign.open(path)
    except CampaignError:
        return  # refused: the check covered what is used
    with campaign:
        reviewer = reviewer_of("other@example.test", keys.MemoryStore())
        try:
            decide(campaign, "account:ACC000003", "Keep", "needed", reviewer)
        except CampaignError as exc:  # refused: the write saw the schema is not the checked one
            assert exc.code == "FOREIGN_SQL"
            assert campaign.history("account:ACC000003") == []
            return
        latest = campaign.history("account:ACC000003")[-1].decision
    assert latest == "KEEP", "a trigger the check never saw rewrote the reviewer's decision"


def test_a_trigger_added_while_the_file_is_open_is_refused_before_a_write(
    tmp_path: Path,
) -> None:
    """The same attack once the file is open (after the check, on the checked connection):
    each write transaction first reads the schema cookie under the write lock; a schema
    changed since the check is checked again, and a trigger is refused (FOREIGN_SQL),
    nothing written."""
    from portal_admin.evidence import keys
    from portal_admin.reviews import decide, reviewer_of

    campaign = new_campaign(tmp_path)
    path = campaign.path
    campaign.close()
    with Campaign.open(path) as campaign:
        raw(
            path,
            "CREATE TRIGGER flip AFTER INSERT ON decisions BEGIN"
            " UPDATE decisions SET decision = 'REVOKE' WHERE seq = new.seq; END",
        )
        reviewer = reviewer_of("other@example.test", keys.MemoryStore())
        with pytest.raises(CampaignError) as refused:
            decide(campaign, "account:ACC000003", "Keep", "needed", reviewer)
        assert refused.value.code == "FOREIGN_SQL"
        assert campaign.history("account:ACC000003") == []


def test_a_part_file_swapped_between_its_check_and_the_attach_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``merge`` checked the part file (``Campaign.open``), then ATTACHed it by path: a part
    swapped in between was read unchecked. Class of fix: the attached file's schema and
    integrity are checked through the connection that reads it, after attaching."""
    from portal_admin.reviews import opening, split_merge
    from portal_admin.reviews.split_merge import merge, split

    campaign = new_campaign(tmp_path)
    part = split(campaign, "portal", tmp_path / "parts")[0]
    evil = tmp_path / "evil.review"
    shutil.copy(part, evil)
    raw(evil, "CREATE INDEX sneaky ON decisions (item)")

    class Swapping:  # ``opening`` as merge sees it: the swap is made as it attaches
        def __getattr__(self, name: str) -> object:
            return getattr(opening, name)

        @staticmethod
        def uri(p: Path, mode: str = "ro") -> str:
            shutil.copy(evil, p)
            return opening.uri(p, mode)

    monkeypatch.setattr(split_merge, "opening", Swapping())
    with pytest.raises(CampaignError) as refused:
        merge(campaign, part)
    campaign.close()
    assert refused.value.code == "FOREIGN_SQL"


def test_deeply_nested_json_in_meta_escapes_as_a_recursion_error(tmp_path: Path) -> None:
    """Attack: a meta value that is valid JSON nested 100,000 deep (``[[[...]]]``, 200 kB,
    under MAX_META_VALUE). ``json.loads`` raises ``RecursionError``, not ``ValueError``, so
    the meta reader let it through and ``Campaign.open`` ended in a traceback.
    Class of fix: every JSON read of a file goes through the one bounded reader
    (``files/json_input.loads``: depth counted first, a ValueError), and names the entry
    (DAMAGED)."""
    path, _ = signed_campaign(tmp_path)
    deep = "[" * 100_000 + "]" * 100_000
    raw(path, f"UPDATE meta SET value = '{deep}' WHERE key = 'name'")
    with pytest.raises(CampaignError) as refused:
        Campaign.open(path).close()
    assert refused.value.code == "DAMAGED"
    assert "'name'" in str(refused.value)


@pytest.mark.parametrize("detail", ["{not json", "[" * 50_000 + "]" * 50_000, "[1, 2]"])
def test_item_detail_that_is_not_json_escapes_from_the_queue(tmp_path: Path, detail: str) -> None:
    """Attack: ``items.detail`` set to text that is not JSON (or nested 50,000 deep, or not an
    object). The open-time checks look at the schema and ``meta`` only, so the file opens;
    the first page of the queue then raised ``json.JSONDecodeError`` from ``_item``. Class
    of fix: a column the program parses is checked when read, through the bounded reader,
    and a bad value is a CampaignError naming the item (DAMAGED)."""
    path, _ = signed_campaign(tmp_path)
    raw(path, f"UPDATE items SET detail = '{detail}' WHERE id = '{KEPT}'")
    with Campaign.open(path) as campaign:
        for read in (campaign.page, lambda: campaign.item(KEPT), campaign.page_at):
            with pytest.raises(CampaignError) as refused:
                read()
            assert (refused.value.code, refused.value.item) == ("DAMAGED", KEPT)
        assert campaign.item(REVOKED) is not None  # the other items are read


def test_a_part_file_decides_an_item_of_another_part_without_conflict(tmp_path: Path) -> None:
    """Attack: the campaign is split by portal; reviewer B (PARTNER) keeps account 4 and their
    part is merged. Reviewer A (TENANT) adds to THEIR part file, with plain SQLite, a Revoke
    of account 4 - an item not in their part - under B's name. ``merge`` checked that a
    decision's item exists in the campaign, but its CONFLICT check joined the part's own
    ``items``: the decision was appended and overrode B's Keep without a word. Class of fix:
    a part's decisions are only on the part's items (and its items are of its part), and
    the conflict check compares the latest decisions of the histories."""
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
    with pytest.raises(CampaignError) as refused:
        merge(campaign, tenant)
    latest = campaign.history("account:ACC000004")[-1].decision
    assert campaign.history("account:ACC000001") == []  # nothing of the file merged
    campaign.close()
    assert (refused.value.code, refused.value.item) == ("UNKNOWN_ITEM", "account:ACC000004")
    assert latest == "KEEP"


def test_a_part_file_that_moves_an_item_into_its_part_is_refused(tmp_path: Path) -> None:
    """The same attack with the item copied into the part file (its ``part`` column set to
    the attacker's part): the item is held differently from the campaign, refused."""
    from portal_admin.reviews.split_merge import merge, split

    campaign = new_campaign(tmp_path)
    parts = {p.name: p for p in split(campaign, "portal", tmp_path / "parts")}
    tenant = next(p for n, p in parts.items() if "TENANT" in n)
    with Campaign.open(tenant) as part_a:
        name = part_a.meta["part"]
    main = campaign.path
    raw(
        tenant,
        f"ATTACH DATABASE '{main}' AS m;"
        " INSERT INTO items (id, part, kind, ref, label, name, status, portal, institution,"
        f" updated, detail, flags) SELECT id, '{name}', kind, ref, label, name, status, portal,"
        " institution, updated, detail, flags FROM m.items WHERE id = 'account:ACC000004';",
    )
    with pytest.raises(CampaignError) as refused:
        merge(campaign, tenant)
    campaign.close()
    assert (refused.value.code, refused.value.item) == ("UNKNOWN_ITEM", "account:ACC000004")


def _respelled(text: str) -> str:
    """``text`` (base64) spelled otherwise: the last character before the padding carries
    unused bits; flipping the lowest gives the same bytes."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    core = text.rstrip("=")
    return core[:-1] + alphabet[alphabet.index(core[-1]) ^ 1] + text[len(core) :]


def test_one_sign_off_counted_twice_through_another_base64_spelling(tmp_path: Path) -> None:
    """Attack: copy the sign-off row with its signature spelled differently in base64 (four
    spellings decode to the same 64 bytes: ``b64decode(validate=True)`` does not check the
    unused bits) and copy its signed items under the new row. ``signoffs.signature UNIQUE``
    compares the text, so the copy went in, and ``verify`` counted it as a second valid
    sign-off: "intact", the reviewer's sign-off listed twice. Class of fix: a signature (and
    a public key) is only accepted in its canonical spelling (decoded, re-encoded, compared):
    the copy does not verify."""
    import base64

    from portal_admin.reviews import verify

    path, _ = signed_campaign(tmp_path)
    conn = sqlite3.connect(path)
    sig = conn.execute("SELECT signature FROM signoffs").fetchone()[0]
    conn.close()
    other = _respelled(sig)
    assert other != sig and base64.b64decode(other) == base64.b64decode(sig)
    raw(
        path,
        "INSERT INTO signoffs (part, reviewer, fingerprint, public_key, signed_at, items,"
        " digest, signature, account_id, account_email, format) SELECT part, reviewer,"
        " fingerprint, public_key, signed_at, items, digest, "
        f"'{other}', account_id, account_email, format FROM signoffs;"
        " INSERT INTO signed_items SELECT 2, item, digest FROM signed_items WHERE signoff = 1;",
    )
    with Campaign.open(path) as campaign:
        check = verify(campaign, own=None)
    assert check.status == "changed"
    assert [s.valid for s in check.signoffs] == [True, False]


def test_a_sign_off_whose_only_spelling_differs_does_not_verify(tmp_path: Path) -> None:
    """The single sign-off respelled (signature, or public key): not the signed bytes as
    written, so it does not verify."""
    from portal_admin.reviews import verify

    for column in ("signature", "public_key"):
        folder = tmp_path / column
        folder.mkdir()
        path, _ = signed_campaign(folder)
        conn = sqlite3.connect(path)
        value = conn.execute(f"SELECT {column} FROM signoffs").fetchone()[0]
        conn.close()
        raw(path, f"UPDATE signoffs SET {column} = '{_respelled(value)}'")
        with Campaign.open(path) as campaign:
            assert verify(campaign, own=None).status == "changed", column


async def test_a_campaign_of_one_server_is_remediated_on_another(tmp_path: Path) -> None:
    """Attack: a campaign whose scope was taken on one server (a staging or sandbox copy,
    where a reviewer happily signs "Revoke" on everything) is remediated while signed in to
    another (production, where the same account ids exist). The sign-off covered neither
    the scope's server nor the scope itself, and ``remediate`` never compared the
    campaign's server with ``context.server``. Class of fix: the sign-off (format 3) covers
    the scope's identity (server, time taken), and remediation refuses a server other than
    the signed one by name (OTHER_SERVER) before anything is read or planned (the client is
    None here: reaching the server would be an AttributeError)."""
    from portal_admin import jobs
    from portal_admin.evidence import keys
    from portal_admin.reviews import remediation

    store = keys.MemoryStore()
    path, _ = signed_campaign(tmp_path, store)
    with Campaign.open(path) as campaign:
        assert campaign.meta["scope"]["server"] == "https://portal.example.test"
        context = jobs.JobContext("prod", "https://prod.example.test", "admin@example.test", "A1")
        with pytest.raises(CampaignError) as refused:
            await remediation.remediate(
                campaign,
                None,  # type: ignore[arg-type]
                context,
                folder=tmp_path / "jobs",
                key_store=store,
            )
    assert refused.value.code == "OTHER_SERVER"
    assert "https://portal.example.test" in str(refused.value)


def test_the_scope_server_is_signed(tmp_path: Path) -> None:
    """Rewriting the scope's server in the (unsigned) metadata to the production one, to get
    past that refusal, breaks the sign-off: it no longer verifies."""
    from portal_admin.reviews import verify

    path, _ = signed_campaign(tmp_path)
    raw(
        path,
        "UPDATE meta SET value = json_set(value, '$.server', 'https://prod.example.test')"
        " WHERE key = 'scope'",
    )
    with Campaign.open(path) as campaign:
        check = verify(campaign, own=None)
    assert check.status == "changed" and not check.signoffs[0].valid
