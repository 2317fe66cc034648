"""Snapshot files are data, not databases to obey (docs/threat-model.md, "Snapshot files").

A snapshot passes from hand to hand. Each attack below is what a colleague, a ticket's
attachment or a damaged disk could hand over: SQL the program never writes (a trigger typed
in any case, a view, statistics, an extra index or table), one of our tables defined otherwise,
an index that disagrees with its table (``quick_check`` says ok), and a file swapped between
its opening and its use. Each is refused by name, wherever the snapshot is used: opened,
diffed, made a campaign's scope or baseline, a campaign's closing snapshot, packed.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from portal_admin.cli.main import main as cli_main
from portal_admin.evidence import pack
from portal_admin.evidence.diff import diff_snapshots
from portal_admin.evidence.snapshot import SnapshotError, open_snapshot
from portal_admin.reviews import CampaignError, Reviewer, Settings, closing, create_campaign, decide

from .support import account, make_snapshot

SETTINGS = Settings("Q4", "2026-12-15")


def raw(path: Path, sql: str, *, schema: bool = False) -> None:
    """Statements run by plain SQLite on the file, as anyone could."""
    conn = sqlite3.connect(path, isolation_level=None)
    if schema:
        conn.execute("PRAGMA writable_schema=ON")
    conn.executescript(sql)
    conn.close()


def forge_the_accounts_index(path: Path) -> None:
    """Make the ``accounts`` primary-key index disagree with its table: the table renames
    ACC000002 to ACC999999, the index still holds ACC000002. The schema rows end as ours."""
    conn = sqlite3.connect(path)
    ours = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'accounts'").fetchone()[0]
    conn.close()
    moved = ours.replace("id TEXT PRIMARY KEY, email TEXT", "id TEXT, email TEXT PRIMARY KEY")
    assert moved != ours
    blind = "UPDATE sqlite_master SET sql = '{}' WHERE name = 'accounts'"
    raw(path, blind.format(moved.replace("'", "''")), schema=True)
    raw(path, "UPDATE accounts SET id = 'ACC999999' WHERE id = 'ACC000002'")
    raw(path, blind.format(ours.replace("'", "''")), schema=True)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        by_index = "SELECT count(*) FROM accounts WHERE id = 'ACC000002'"
        by_table = "SELECT count(*) FROM accounts NOT INDEXED WHERE id = 'ACC000002'"
        assert (conn.execute(by_index).fetchone()[0], conn.execute(by_table).fetchone()[0]) == (
            1,
            0,
        )
    finally:
        conn.close()


@pytest.fixture
def scope(tmp_path: Path) -> Path:
    return make_snapshot(tmp_path / "scope.sqlite3", [account(n) for n in range(1, 6)])


@pytest.fixture
def later(tmp_path: Path) -> Path:
    return make_snapshot(
        tmp_path / "later.sqlite3",
        [account(n) for n in range(1, 6)],
        finished="2026-12-20T00:00:00+00:00",
    )


FOREIGN = [
    ("CREATE TRIGGER t AFTER INSERT ON roles BEGIN DELETE FROM accounts; END", "trigger 't'"),
    ("CREATE VIEW v AS SELECT * FROM accounts", "view 'v'"),
    ("CREATE INDEX accounts_status ON accounts (status)", "index 'accounts_status'"),
    ("CREATE TABLE extra (x)", "table 'extra'"),
    ("ANALYZE", "table 'sqlite_stat1'"),
]


@pytest.mark.parametrize(("sql", "named"), FOREIGN, ids=[n for _s, n in FOREIGN])
def test_sql_no_snapshot_has_is_refused_by_name(scope: Path, sql: str, named: str) -> None:
    raw(scope, sql)
    with pytest.raises(SnapshotError) as caught:
        open_snapshot(scope)
    assert (caught.value.code, named in str(caught.value)) == ("FOREIGN_SQL", True)


def test_a_trigger_typed_in_another_case_is_refused(scope: Path) -> None:
    """SQLite reads a schema row's type without regard to case: ``Trigger`` loads and fires."""
    raw(scope, "CREATE TRIGGER t AFTER INSERT ON roles BEGIN DELETE FROM accounts; END")
    raw(scope, "UPDATE sqlite_master SET type = 'Trigger' WHERE name = 't'", schema=True)
    with pytest.raises(SnapshotError) as caught:
        open_snapshot(scope)
    assert caught.value.code == "FOREIGN_SQL" and "Trigger 't'" in str(caught.value)


def test_one_of_our_tables_defined_otherwise_is_refused(scope: Path) -> None:
    raw(scope, "ALTER TABLE accounts ADD COLUMN note TEXT")
    with pytest.raises(SnapshotError) as caught:
        open_snapshot(scope)
    assert caught.value.code == "SCHEMA" and "'accounts'" in str(caught.value)


def test_an_endless_view_in_place_of_accounts_is_refused_at_once(scope: Path) -> None:
    raw(
        scope,
        "DROP TABLE accounts; CREATE VIEW accounts AS WITH RECURSIVE r (n) AS"
        " (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS id FROM r",
    )
    with pytest.raises(SnapshotError) as caught:  # from the schema rows: the view is never read
        open_snapshot(scope)
    assert caught.value.code == "FOREIGN_SQL" and "view 'accounts'" in str(caught.value)


def test_a_campaign_offered_as_a_snapshot_is_not_one(tmp_path: Path, scope: Path) -> None:
    """What ``--since`` relies on: a campaign is NOT_A_SNAPSHOT, so it is tried as a campaign."""
    with create_campaign(tmp_path / "c.review", scope, SETTINGS) as campaign:
        path = campaign.path
    with pytest.raises(SnapshotError) as caught:
        open_snapshot(path)
    assert caught.value.code == "NOT_A_SNAPSHOT"


def test_a_forged_index_is_refused_wherever_the_snapshot_is_used(
    tmp_path: Path, scope: Path, later: Path, reviewer: Reviewer,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    forge_the_accounts_index(later)
    opened = open_snapshot(later)  # listing reads the schema and metadata only
    with pytest.raises(SnapshotError) as caught:
        opened.connect()
    assert caught.value.code == "DAMAGED" and "integrity check" in str(caught.value)
    with pytest.raises(SnapshotError) as caught:
        diff_snapshots(scope, later)
    assert caught.value.code == "DAMAGED"
    with pytest.raises(SnapshotError) as caught:
        pack.snapshot_tables(opened)
    assert caught.value.code == "DAMAGED"
    out = tmp_path / "p.zip"
    assert (
        cli_main(["evidence", "pack", str(out), "--snapshot", str(later), "--ephemeral-key"]) == 2
    )
    said = capsys.readouterr().err
    assert "integrity check" in said and "Traceback" not in said and not out.exists()

    with pytest.raises(CampaignError) as refused:
        create_campaign(tmp_path / "a.review", later, SETTINGS)
    assert refused.value.code == "BAD_INPUT" and "integrity check" in str(refused.value)
    assert not (tmp_path / "a.review").exists()
    with pytest.raises(CampaignError) as refused:
        create_campaign(tmp_path / "b.review", scope, SETTINGS, since=later)
    assert "integrity check" in str(refused.value)
    assert not (tmp_path / "b.review").exists()

    with create_campaign(tmp_path / "c.review", scope, SETTINGS) as campaign:
        decide(campaign, ["account:ACC000002"], "Revoke", "left", reviewer)
        with pytest.raises(CampaignError) as refused:
            closing.check(campaign, later, close_as="admin@example.test")
        assert refused.value.code == "BAD_INPUT" and "integrity check" in str(refused.value)
        assert campaign.meta.get("closed") is not True
        assert closing.closing_rows(campaign) == []  # nothing recorded


def test_a_file_swapped_between_its_opening_and_its_use_is_refused(
    tmp_path: Path, scope: Path, later: Path
) -> None:
    """Opened (checked), then replaced before the diff attaches it: checked again there."""
    opened = open_snapshot(later)
    hostile = tmp_path / "hostile.sqlite3"
    shutil.copy(later, hostile)
    raw(hostile, "CREATE VIEW v AS SELECT * FROM accounts")
    shutil.copy(hostile, later)
    with pytest.raises(SnapshotError) as caught:
        opened.connect()
    assert caught.value.code == "FOREIGN_SQL"

    other = make_snapshot(
        tmp_path / "other.sqlite3", [account(9)], finished="2027-01-01T00:00:00+00:00"
    )
    shutil.copy(other, later)
    with pytest.raises(SnapshotError) as caught:
        opened.connect()
    assert caught.value.code == "CHANGED"


def test_the_diff_checks_the_files_it_attaches(
    tmp_path: Path, scope: Path, later: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The diff opens each file, then attaches it by name: a file swapped in between is
    checked where it is read (the check at opening passes, the swap happens after it)."""
    from portal_admin.evidence import diff as differ

    hostile = tmp_path / "hostile.sqlite3"
    shutil.copy(later, hostile)
    forge_the_accounts_index(hostile)
    real_open = differ.open_snapshot

    def open_then_swap(path: Path) -> object:
        opened = real_open(path)
        if path == later:
            shutil.copy(hostile, later)
        return opened

    monkeypatch.setattr(differ, "open_snapshot", open_then_swap)
    with pytest.raises(SnapshotError) as caught:
        diff_snapshots(scope, later)
    assert caught.value.code == "DAMAGED"


def test_a_diff_of_two_sound_snapshots_still_works(tmp_path: Path, scope: Path) -> None:
    changed = make_snapshot(
        tmp_path / "changed.sqlite3",
        [account(1, status="SUSPENDED"), *(account(n) for n in range(2, 6)), account(6)],
    )
    result = diff_snapshots(scope, changed)
    assert {(c.kind, c.change, c.id) for c in result.changes} >= {
        ("account", "changed", "ACC000001"),
        ("account", "added", "ACC000006"),
    }
