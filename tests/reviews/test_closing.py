"""The closing check against snapshot files: each outcome, a DEACTIVATE campaign (a suspension
is not enough), a re-run replacing the check whole, and the totals' overdue count."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from portal_admin.reviews import Reviewer, Settings, closing, create_campaign, decide
from portal_admin.reviews import pack as review_pack

from .support import account, make_snapshot


def test_every_outcome_of_a_deactivate_campaign(tmp_path: Path, reviewer: Reviewer) -> None:
    scope = make_snapshot(tmp_path / "scope.sqlite3", [account(n) for n in range(1, 6)])
    end = make_snapshot(
        tmp_path / "end.sqlite3",
        [
            account(1, status="SUSPENDED"),  # revoked, only suspended: not done
            account(2, status="DEACTIVATED"),  # revoked and done
            # 3 is gone: revoked and done
            account(4, portal="PARTNER"),  # kept, changed meanwhile
            account(5),  # kept, unchanged: not listed
            account(10),  # appeared after the scope
            account(11, status="DEACTIVATED"),  # no access: not listed
        ],
        finished="2026-12-20T00:00:00+00:00",
    )
    settings = Settings("Q4", "2026-12-15", revocation="DEACTIVATE")
    with create_campaign(tmp_path / "c.review", scope, settings) as campaign:
        ids = [f"account:ACC00000{n}" for n in (1, 2, 3)]
        decide(campaign, ids, "Revoke", "left", reviewer)
        decide(campaign, ["account:ACC000004", "account:ACC000005"], "Keep", "", reviewer)
        expected = {
            "revoked and done": 2,
            "revoked, not done": 1,
            "kept, changed meanwhile": 1,
            "appeared after the scope": 1,
        }
        assert closing.check(campaign, end) == expected
        assert closing.check(campaign, end, close_as="admin@example.test") == expected  # again
        rows = {r[0]: r[1:] for r in closing.closing_rows(campaign)}
        assert len(rows) == 5
        assert rows["account:ACC000001"] == ("revoked, not done", "SUSPENDED", "")
        assert rows["account:ACC000003"][:2] == ("revoked and done", "no longer on the server")
        assert rows["account:ACC000004"][2] == "portal: TENANT → PARTNER"
        assert rows["account:ACC000010"][0] == "appeared after the scope"
        assert campaign.meta["closed"] is True
        assert campaign.meta["closed_by"] == "admin@example.test"
        totals = review_pack.totals(campaign, today=date(2026, 12, 20))
        assert (totals["revoked and done"], totals["not done"]) == (2, 1)
        assert totals["overdue"] == 0  # every item decided before the due date
    with create_campaign(tmp_path / "d.review", scope, settings) as late:
        decide(late, "account:ACC000001", "Keep", "", reviewer)
        assert review_pack.totals(late, today=date(2026, 12, 14))["overdue"] == 0
        assert review_pack.totals(late, today=date(2026, 12, 16))["overdue"] == 4  # undecided
