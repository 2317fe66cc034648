"""Sign-off and its verification (edits named by item), and splitting a campaign into one
file per reviewer and merging the decided files back (refusals whole, naming the item)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from portal_admin.evidence import keys
from portal_admin.reviews import (
    Campaign,
    CampaignError,
    Reviewer,
    Settings,
    create_campaign,
    decide,
    reviewer_of,
    sign,
    verify,
)
from portal_admin.reviews.split_merge import merge, split
from support.private import owner_only


@pytest.fixture
def signed(campaign: Campaign, reviewer: Reviewer, store: keys.MemoryStore) -> Campaign:
    decide(campaign, "account:ACC000001", "Keep", "", reviewer)
    decide(campaign, "account:ACC000002", "Revoke", "left", reviewer)
    done = sign(campaign, reviewer.name, keys.signing_key(store))
    assert (done.reviewer, done.fingerprint) == (reviewer.name, reviewer.fingerprint)
    return campaign


def test_an_untouched_sign_off_verifies(signed: Campaign, reviewer: Reviewer) -> None:
    check = verify(signed, own=reviewer.fingerprint)  # signed with this installation's key
    assert check.status == "intact" and check.exit_status == 0
    assert check.signoffs[0].trust == "own"
    assert [(s.reviewer, s.fingerprint) for s in check.signoffs] == [
        (reviewer.name, reviewer.fingerprint)
    ]
    assert verify(signed, reviewer.fingerprint.replace(" ", "")).status == "intact"
    other = keys.fingerprint(keys.signing_key(keys.MemoryStore()).public_key())
    assert "made with another key" in verify(signed, other).problems[0]


def edit(campaign: Campaign, sql: str) -> None:
    """A change made behind the program's back (another SQLite client)."""
    conn = sqlite3.connect(campaign.path)
    conn.execute(sql)
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        ("UPDATE decisions SET justification = 'other' WHERE item = 'account:ACC000002'",
         "changed: account:ACC000002"),
        ("UPDATE items SET decision = 'KEEP' WHERE id = 'account:ACC000002'",
         "inconsistent: account:ACC000002"),
        ("INSERT INTO decisions (item, decision, justification, reviewer, fingerprint,"
         " decided_at, source) VALUES ('account:ACC000001', 'REVOKE', 'x', 'rev', 'f', 't', '')",
         "changed: account:ACC000001"),
        ("DELETE FROM items WHERE id = 'role:ROL2'", "removed: role:ROL2"),
        ("INSERT INTO items (id, kind, ref, label) VALUES ('account:X', 'account', 'X', 'x')",
         "added: account:X"),
        ("UPDATE flags SET reason = 'nothing' WHERE code = 'ADMIN'", "changed: account:ACC000003"),
        ("UPDATE signoffs SET reviewer = 'someone else'", "does not verify"),
        ("UPDATE signed_items SET digest = 'x' WHERE item = 'role:ROL1'", "does not verify"),
    ],
)  # fmt: skip
def test_a_later_change_is_named(signed: Campaign, sql: str, problem: str) -> None:
    path = signed.path
    signed.close()
    edit(Campaign.open(path), sql)
    with Campaign.open(path) as reopened:
        check = verify(reopened)
    assert check.status == "changed" and check.exit_status == 1
    assert any(problem in p for p in check.problems), check.problems


def test_signing_again(signed: Campaign, reviewer: Reviewer, store: keys.MemoryStore) -> None:
    again = sign(signed, reviewer.name, keys.signing_key(store))
    assert again.seq == 1  # the same sign-off: nothing signed twice
    with pytest.raises(CampaignError, match="already signed off by"):
        sign(signed, "someone", keys.signing_key(keys.MemoryStore()))


def test_an_unsigned_campaign(campaign: Campaign) -> None:
    check = verify(campaign)
    assert check.status == "unsigned" and check.exit_status == 3


def test_split_decide_sign_and_merge_back(
    tmp_path: Path, campaign: Campaign, store: keys.MemoryStore
) -> None:
    parts = split(campaign, "portal", tmp_path / "parts", {"TENANT": "user4@example.test"})
    names = {p.name for p in parts}
    assert all(owner_only(p) for p in parts)
    assert names == {"q4.portal-PARTNER.review", "q4.portal-SYSTEM.review",
                     "q4.portal-TENANT.review", "q4.other.review"}  # fmt: skip
    ana_store, ben_store = keys.MemoryStore(), keys.MemoryStore()
    ana, ben = (
        reviewer_of("user4@example.test", ana_store),  # in scope: account 4 is hers
        reviewer_of("ben@example.test", ben_store),
    )
    counted = 0
    for path in parts:
        with Campaign.open(path) as part:
            assert part.campaign_id == campaign.campaign_id
            counted += part.count()
            who, key_store = (ana, ana_store) if "TENANT" in path.name else (ben, ben_store)
            ids = [i.id for i in part.page() if i.label != who.name]
            decide(part, ids, "Don't know", "ask the owner", who)
            if "TENANT" in path.name:  # her own account: flagged there, decided by ben
                own = part.item("account:ACC000004")
                assert own is not None
                assert "OWN" in [f.code for f in part.flags_of([own.seq])[own.seq]]
                decide(part, own.id, "Keep", "hers: ben decides", ben)
            sign(part, who.name, keys.signing_key(key_store))
    assert counted == campaign.count()
    merged = [merge(campaign, p) for p in parts]
    assert sum(m.decisions for m in merged) == campaign.count()
    assert sum(m.signoffs for m in merged) == 4
    assert campaign.totals()["decided"] == campaign.count()
    check = verify(campaign)
    assert check.status == "intact", check.problems
    assert {s.reviewer for s in check.signoffs} == {ana.name, ben.name}
    again = merge(campaign, parts[0])  # a re-run (after a kill, say) records nothing twice
    assert (again.decisions, again.signoffs) == (0, 0)
    edit(campaign, "UPDATE decisions SET justification = 'x' WHERE seq = 1")
    assert verify(campaign).status == "changed"


def test_a_merge_refuses_a_file_whole(
    tmp_path: Path, campaign: Campaign, scope: Path, reviewer: Reviewer
) -> None:
    parts = split(campaign, "portal", tmp_path / "parts")
    tenant = next(p for p in parts if "TENANT" in p.name)
    copy = tmp_path / "copy.review"
    shutil.copy(tenant, copy)
    with Campaign.open(tenant) as part:
        decide(part, ["account:ACC000001", "account:ACC000002"], "Revoke", "left", reviewer)
    with Campaign.open(copy) as part:
        decide(part, "account:ACC000001", "Revoke", "left", reviewer)
        decide(part, "account:ACC000002", "Keep", "stays", reviewer)
    assert merge(campaign, tenant).decisions == 2
    with pytest.raises(CampaignError) as conflict:
        merge(campaign, copy)  # decided differently in two files
    assert conflict.value.code == "CONFLICT" and conflict.value.item == "account:ACC000002"
    assert campaign.totals()["decided"] == 2 and len(campaign.history("account:ACC000002")) == 1

    other = create_campaign(tmp_path / "other.review", scope, Settings("other", "2026-12-15"))
    other.close()
    with pytest.raises(CampaignError) as foreign:
        merge(campaign, tmp_path / "other.review")
    assert foreign.value.code == "OTHER_CAMPAIGN"

    partner = next(p for p in parts if "PARTNER" in p.name)
    with Campaign.open(partner) as part:
        decide(part, "account:ACC000009", "Revoke", "gone", reviewer)
    edit(Campaign.open(partner), "INSERT INTO items (id, kind, ref, label) VALUES"
         " ('account:ZZZ', 'account', 'ZZZ', 'zzz@example.test')")  # fmt: skip
    with pytest.raises(CampaignError) as unknown:
        merge(campaign, partner)
    assert unknown.value.code == "UNKNOWN_ITEM" and unknown.value.item == "account:ZZZ"
    assert "account:ZZZ" in str(unknown.value)
    assert campaign.item("account:ACC000009").decision is None  # type: ignore[union-attr]
    for bad, code in ((scope, "NOT_A_CAMPAIGN"), (tmp_path / "none.review", "NOT_FOUND")):
        with pytest.raises(CampaignError) as refused:
            merge(campaign, bad)
        assert refused.value.code == code
