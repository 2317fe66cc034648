"""Making and opening campaign files: scope, filter, flags and their reasons, the file's
durability and permissions, refusals of what is not a campaign, the queue's SQL paging."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from portal_admin.reviews import (
    Campaign,
    CampaignError,
    Query,
    ScopeFilter,
    Settings,
    create_campaign,
)
from portal_admin.reviews import campaign as campaigns
from support.private import owner_only

from .support import account, make_snapshot


def flags(campaign: Campaign) -> dict[str, dict[str, str]]:
    """item id → flag code → reason."""
    found: dict[str, dict[str, str]] = {}
    items = campaign.page(limit=1000)
    by_seq = campaign.flags_of([i.seq for i in items])
    for item in items:
        found[item.id] = {f.code: f.reason for f in by_seq[item.seq]}
    return found


def test_the_scope_is_every_account_with_access_every_role_and_the_pending_invitations(
    campaign: Campaign,
) -> None:
    ids = [i.id for i in campaign.page(limit=1000)]
    accounts = [i for i in ids if i.startswith("account:")]
    assert accounts == [f"account:ACC00000{n}" for n in (1, 2, 3, 4, 6, 9)]
    assert [i for i in ids if i.startswith("role:")] == ["role:ROL1", "role:ROL2"]
    assert [i for i in ids if i.startswith("invitation:")] == ["invitation:INV1", "invitation:INV2"]
    assert campaign.totals()["decided"] == 0
    assert campaign.count(Query(decision="UNDECIDED")) == len(ids)


def test_every_flag_with_its_reason(campaign: Campaign) -> None:
    found = flags(campaign)
    assert found["account:ACC000001"] == {}
    assert found["account:ACC000002"] == {
        "REACTIVATED": "SUSPENDED in the earlier snapshot of 2026-06-01, ACTIVE now"
    }
    assert set(found["account:ACC000003"]) == {"ADMIN", "NEW"}
    assert found["account:ACC000003"]["NEW"] == "not in the earlier snapshot of 2026-06-01"
    assert found["account:ACC000004"]["STALE"] == "not updated for 688 days (since 2025-01-01)"
    assert "OWN" in found["account:ACC000006"]
    assert found["role:ROL1"] == {"WRITE": "holds write permissions: workspace:user:write"}
    assert "WRITE" not in found["role:ROL2"]
    assert found["invitation:INV1"] == {"EXPIRED": "pending, expired on 2026-11-08"}
    assert "EXPIRED" not in found["invitation:INV2"]
    assert campaign.flag_counts()["NEW"] == 6  # accounts 3, 4, 6, 9, role 2, invitation 2
    assert campaign.count(Query(flag="STALE")) == 1


def test_the_stale_days_are_a_setting(tmp_path: Path, scope: Path) -> None:
    settings = Settings("Q4", "2026-12-15", stale_days=5)
    with create_campaign(tmp_path / "c.review", scope, settings) as made:
        assert made.count(Query(flag="STALE")) == 6  # every account in scope: 19 days and more
        assert made.count(Query(flag="NEW")) == 0  # no earlier snapshot named


def test_a_previous_campaign_is_a_baseline(tmp_path: Path, scope: Path, old_snapshot: Path) -> None:
    with create_campaign(tmp_path / "first.review", old_snapshot, Settings("Q2", "2026-06-30")):
        pass
    with create_campaign(
        tmp_path / "second.review", scope, Settings("Q4", "2026-12-15"),
        since=tmp_path / "first.review",
    ) as made:  # fmt: skip
        found = flags(made)
    assert "NEW" not in found["account:ACC000001"]
    assert found["account:ACC000003"]["NEW"].startswith("not in the earlier campaign's scope")
    assert "REACTIVATED" in found["account:ACC000002"]


def test_a_filter_chooses_the_accounts(tmp_path: Path, scope: Path) -> None:
    settings = Settings(
        "Q4", "2026-12-15", scope_filter=ScopeFilter(portals=["PARTNER"], statuses=["SUSPENDED"])
    )
    with create_campaign(tmp_path / "c.review", scope, settings) as made:
        assert made.count(Query(kind="account")) == 1
        assert made.page(Query(kind="account"))[0].ref == "ACC000009"
        assert made.meta["filter"]["portals"] == ["PARTNER"]


def test_the_file_is_durable_private_and_whole(tmp_path: Path, campaign: Campaign) -> None:
    path = campaign.path
    assert owner_only(path)
    assert not list(tmp_path.glob(".*partial*"))
    assert campaign.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert campaign.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with pytest.raises(CampaignError) as refused:
        create_campaign(path, tmp_path / "scope.sqlite3", Settings("again", "2026-12-15"))
    assert "never overwritten" in str(refused.value)


@pytest.mark.parametrize(
    ("setting", "words"),
    [
        (Settings("", "2026-12-15"), "needs a name"),
        (Settings("Q4", "15/12/2026"), "not a date"),
        (Settings("Q4", "2026-12-15", revocation="DELETE"), "SUSPEND or DEACTIVATE"),
        (Settings("Q4", "2026-12-15", stale_days=0), "at least 1"),
    ],
)
def test_settings_that_cannot_be_used(
    tmp_path: Path, scope: Path, setting: Settings, words: str
) -> None:
    with pytest.raises(CampaignError, match=words):
        create_campaign(tmp_path / "c.review", scope, setting)
    assert not (tmp_path / "c.review").exists()


def test_what_is_not_a_campaign_is_named(tmp_path: Path, scope: Path, campaign: Campaign) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    cases = {
        tmp_path / "missing.review": "NOT_FOUND",
        text: "NOT_A_CAMPAIGN",
        other: "NOT_A_CAMPAIGN",
        scope: "NOT_A_CAMPAIGN",  # a snapshot is not a campaign
    }
    os.chmod(scope, 0o644)
    before = (scope.read_bytes(), stat.S_IMODE(scope.stat().st_mode))
    for path, code in cases.items():
        with pytest.raises(CampaignError) as refused:
            Campaign.open(path)
        assert refused.value.code == code, path
    assert (scope.read_bytes(), stat.S_IMODE(scope.stat().st_mode)) == before  # left alone
    assert not Path(f"{scope}-wal").exists()
    with campaign.transaction() as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(CampaignError) as newer:
        Campaign.open(campaign.path)
    assert newer.value.code == "NEWER_SCHEMA"
    assert "newer program" in str(newer.value) and "format 99" in str(newer.value)


def test_a_campaign_carrying_triggers_or_views_is_refused(campaign: Campaign) -> None:
    """A campaign file passed from hand to hand could carry SQL that runs on our own writes:
    a trigger turning each Revoke into a Keep as it is recorded, before the sign-off."""
    path = campaign.path
    campaign.close()
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TRIGGER soften AFTER INSERT ON decisions BEGIN"
        " UPDATE items SET decision = 'KEEP' WHERE id = NEW.item; END"
    )
    conn.commit()
    conn.close()
    with pytest.raises(CampaignError) as refused:
        Campaign.open(path)
    assert refused.value.code == "FOREIGN_SQL"
    assert "trigger 'soften'" in str(refused.value)
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER soften")
    conn.execute("CREATE VIEW queue AS SELECT * FROM items")
    conn.commit()
    conn.close()
    with pytest.raises(CampaignError) as viewed:
        Campaign.open(path)
    assert "view 'queue'" in str(viewed.value)
    conn = sqlite3.connect(path)
    conn.execute("DROP VIEW queue")
    conn.commit()
    conn.close()
    Campaign.open(path).close()  # without them, the same file opens


def test_the_queue_pages_and_filters_in_sql(tmp_path: Path) -> None:
    scope = make_snapshot(
        tmp_path / "big.sqlite3",
        [account(n, portal="SYSTEM" if n % 10 == 0 else "TENANT") for n in range(1, 2001)],
    )
    with create_campaign(tmp_path / "big.review", scope, Settings("big", "2026-12-15")) as made:
        assert made.count() == 2000
        seen: list[str] = []
        after = 0
        while page := made.page(Query(portal="SYSTEM"), after=after, limit=64):
            seen.extend(i.id for i in page)
            after = page[-1].seq
        assert (
            len(seen)
            == 200
            == made.count(Query(portal="SYSTEM"))
            == made.count(Query(flag="ADMIN"))
        )
        assert [i.id for i in made.page_at(Query(text="user1999@"), limit=5)] == [
            "account:ACC001999"
        ]
        assert made.count(Query(text="%")) == 0  # a LIKE wildcard is text
        assert made.values("portal") == ["SYSTEM", "TENANT"]
        top = made.page_at(Query(portal="SYSTEM"), order_by="label", descending=True, limit=2)
        assert [i.label for i in top] == ["user990@example.test", "user980@example.test"]
        with pytest.raises(ValueError):
            made.page_at(order_by="label; DROP TABLE items")
        plan = made.conn.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM items WHERE decision = 'REVOKE'"
        ).fetchall()
        assert "items_decision" in json.dumps([tuple(r) for r in plan])  # an index, no scan


def test_a_partial_file_is_left_by_no_failure(tmp_path: Path, scope: Path) -> None:
    def broken(conn: sqlite3.Connection) -> None:
        raise RuntimeError("disk full")

    from portal_admin.reviews.create import write_new

    with pytest.raises(RuntimeError):
        write_new(tmp_path / "c.review", {"kind": campaigns.KIND}, broken)
    assert os.listdir(tmp_path) == ["scope.sqlite3"]
