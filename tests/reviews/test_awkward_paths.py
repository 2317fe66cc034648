"""Campaign files and snapshots in a folder whose name SQLite's URI syntax would misread
(``#``, ``%``, spaces; ``?`` on POSIX in tests/files): every read-only open goes through
files/portable.sqlite_uri, as a Windows path (``C:\\Users\\...``) must; a path pasted after
``file:`` opened another file or none."""

from __future__ import annotations

from pathlib import Path

from portal_admin.evidence.diff import diff_snapshots
from portal_admin.evidence.snapshot import open_snapshot
from portal_admin.reviews import Campaign, Settings, create_campaign
from portal_admin.reviews.split_merge import split

from .support import account, make_snapshot

REVIEWER = "reviewer@example.test"


def test_a_campaign_made_split_and_opened_in_an_awkward_folder(tmp_path: Path) -> None:
    folder = tmp_path / "Q4 #2 50% review"
    folder.mkdir()
    old = make_snapshot(
        folder / "old #1.sqlite3", [account(1)], finished="2026-06-01T00:00:00+00:00"
    )
    scope = make_snapshot(folder / "scope #.sqlite3", [account(1), account(2, portal="PARTNER")])
    assert open_snapshot(scope).path == scope
    diff = diff_snapshots(old, scope)
    assert sum(diff.counts().values()) >= 1  # account 2 is new
    made = create_campaign(
        folder / "q4 #1.review", scope, Settings("Q4", "2026-12-15", reviewer=REVIEWER), since=old
    )
    try:
        ids = [i.id for i in made.page(limit=10)]
        assert ids == ["account:ACC000001", "account:ACC000002"]
        parts = split(made, "portal", folder / "parts #")
        assert len(parts) == 2
    finally:
        made.close()
    with Campaign.open(folder / "q4 #1.review") as again:
        assert again.totals()["decided"] == 0
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == [
        "old #1.sqlite3", "q4 #1.review", "scope #.sqlite3",
    ]  # fmt: skip
