"""The engine speaks in codes: every flag's reason, as the engine writes it into a campaign
file, reads back as a reason code with its parameters (``flags.reason_of``); every refusal
the desktop can meet carries a code, and a BAD_INPUT one its reason and parameters. The
command line's English is unchanged (it is the message)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from portal_admin.evidence import keys
from portal_admin.reviews import (
    Campaign,
    CampaignError,
    Decision,
    Reviewer,
    Settings,
    create_campaign,
    decide,
    flags,
)
from portal_admin.reviews.errors import CODES, REASONS
from portal_admin.reviews.signoff import FINDINGS, sign, verify


def _all_flags(campaign: Campaign) -> list[tuple[str, str]]:
    found = campaign.flags_of([i.seq for i in campaign.page(limit=1000)])
    return [(f.code, f.reason) for each in found.values() for f in each]


@pytest.mark.parametrize("baseline", ["snapshot", "campaign"])
def test_every_flag_the_engine_writes_reads_back_as_a_reason_code(
    tmp_path: Path, scope: Path, old_snapshot: Path, baseline: str
) -> None:
    since = old_snapshot
    if baseline == "campaign":
        since = tmp_path / "first.review"
        create_campaign(since, old_snapshot, Settings("Q2", "2026-06-30")).close()
    settings = Settings("Q4", "2026-12-15", reviewer="rev@example.test")
    with create_campaign(tmp_path / "q4.review", scope, settings, since=since) as made:
        written = _all_flags(made)
    seen = set()
    for code, text in written:
        reason = flags.reason_of(code, text)
        assert reason is not None, (code, text)
        assert reason.code in flags.REASONS and reason.code.split("_")[0] == code.split("_")[0]
        seen.add(reason.code)
    kind = baseline.upper()
    assert {f"NEW_{kind}", f"REACTIVATED_{kind}", "ADMIN", "STALE", "EXPIRED", "WRITE",
            "OWN"} <= seen  # fmt: skip
    stale = next(t for c, t in written if c == "STALE")
    assert flags.reason_of("STALE", stale) == flags.Reason(
        "STALE", tuple(stale.removeprefix("not updated for ").replace(" days (since ", " ")
                       .rstrip(")").split())
    )  # fmt: skip
    reactivated = next(t for c, t in written if c == "REACTIVATED")
    reason = flags.reason_of("REACTIVATED", reactivated)
    assert reason is not None and reason.params[0] == "SUSPENDED" and reason.params[2] == "ACTIVE"


def test_a_reason_the_engine_never_writes_has_no_code() -> None:
    assert flags.reason_of("STALE", "not updated for ever") is None
    assert flags.reason_of("ADMIN", "not updated for 3 days (since 2026-01-01)") is None  # code
    assert flags.reason_of("UNKNOWN", "a system-portal (administrator) account") is None


def test_refusals_carry_their_reason_and_parameters(
    tmp_path: Path, scope: Path, campaign: Campaign, reviewer: Reviewer
) -> None:
    with pytest.raises(CampaignError) as refused:
        Settings(" ", "2026-12-15").check()
    assert (refused.value.code, refused.value.reason) == ("BAD_INPUT", "NO_NAME")
    with pytest.raises(CampaignError) as refused:
        Settings("Q4", "15/12/2026").check()
    assert (refused.value.reason, refused.value.params) == ("BAD_DUE", ("15/12/2026",))
    with pytest.raises(CampaignError) as refused:
        create_campaign(campaign.path, scope, Settings("Q4", "2026-12-15"))
    assert (refused.value.reason, refused.value.params) == ("EXISTS", (campaign.path.name,))
    assert str(refused.value).endswith("exists already: a campaign is never overwritten")
    with pytest.raises(CampaignError) as refused:
        decide(campaign, "account:ACC000001", Decision.REVOKE, " ", reviewer)
    assert (refused.value.reason, refused.value.params) == ("JUSTIFICATION_REQUIRED", ("REVOKE",))
    assert "a justification is required (Revoke)" in str(refused.value)  # the CLI's English
    with pytest.raises(CampaignError) as refused:
        decide(campaign, "account:ACC000001", "maybe", "", reviewer)
    assert (refused.value.reason, refused.value.params) == ("NOT_A_DECISION", ("maybe",))
    with pytest.raises(CampaignError) as refused:
        decide(campaign, "account:ACC000001", Decision.KEEP, "x" * 2001, reviewer)
    assert (refused.value.reason, refused.value.params) == ("JUSTIFICATION_TOO_LONG", ("2000",))


def test_codes_and_reasons_are_closed_lists() -> None:
    """A code or reason nobody listed cannot be raised: the desktop's sentences cover the
    lists (tests/ui/panels/test_campaign_codes.py)."""
    assert len(set(CODES)) == len(CODES) and len(set(REASONS)) == len(REASONS)
    with pytest.raises(AssertionError):
        CampaignError("NO_SUCH_CODE", "x")
    with pytest.raises(AssertionError):
        CampaignError("BAD_INPUT", "x", reason="NO_SUCH_REASON")


def test_a_verification_says_what_it_found_as_codes_and_in_english(
    campaign: Campaign, reviewer: Reviewer, store: keys.MemoryStore
) -> None:
    """Each finding is a code with its parameters; ``problems`` is the same in English (the
    command line's), one line per finding."""
    decide(campaign, "account:ACC000002", "Revoke", "left", reviewer)
    sign(campaign, reviewer.name, keys.signing_key(store))
    path = campaign.path
    campaign.close()
    with sqlite3.connect(path) as conn:  # behind the program's back
        conn.execute(
            "UPDATE decisions SET justification = 'other' WHERE item = 'account:ACC000002'"
        )
        conn.execute("DELETE FROM items WHERE id = 'role:ROL2'")
    with Campaign.open(path) as reopened:
        check = verify(reopened)
    found = {(f.code, f.params) for f in check.findings}
    assert ("CHANGED", ("account:ACC000002",)) in found
    assert ("REMOVED", ("role:ROL2",)) in found
    assert check.problems == [f.english for f in check.findings]
    assert "changed: account:ACC000002" in check.problems
    assert {f.code for f in check.findings} <= set(FINDINGS)


def test_a_read_that_fails_is_a_named_refusal_not_a_sqlite_error(
    tmp_path: Path, scope: Path
) -> None:
    """Every read the desktop makes of an open campaign (the queue's pages and counts, the
    progress counts) turns a SQLite failure into a ``CampaignError``: here the connection
    is gone from under the reads."""
    from portal_admin.reviews import Query
    from portal_admin.reviews import pack as packs

    made = create_campaign(tmp_path / "c.review", scope, Settings("Q4", "2026-12-15"))
    made.close()
    reads = (
        lambda: made.count(),
        lambda: made.page_at(Query(), offset=0),
        lambda: made.position(Query(), 1),
        lambda: made.ids(),
        lambda: made.decisions_by_reviewer(),
        lambda: packs.totals(made),
    )
    for read in reads:
        with pytest.raises(CampaignError) as refused:
            read()
        assert refused.value.code == "DAMAGED"
        assert refused.value.__cause__ is None  # said by name, the sqlite3 error not chained
