"""Decisions: the justification rules, history (nothing overwritten, nothing recorded
twice), the reviewer's own account, all-or-nothing calls, and the decisions CSV (BOM,
delimiter, formula guard; bad lines named, nothing recorded)."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin.evidence import keys
from portal_admin.files.csv_rules import ENCODING, write_rows
from portal_admin.reviews import (
    Campaign,
    CampaignError,
    Decision,
    Query,
    Reviewer,
    decide,
    read_csv,
    record,
    reviewer_of,
    sign,
)

UNFLAGGED = "account:ACC000001"
FLAGGED = "account:ACC000003"  # ADMIN, NEW


def test_keep_on_an_unflagged_item_needs_no_justification(
    campaign: Campaign, reviewer: Reviewer
) -> None:
    assert decide(campaign, UNFLAGGED, Decision.KEEP, "", reviewer) == 1
    item = campaign.item(UNFLAGGED)
    assert item is not None and item.decision == "KEEP"
    latest = campaign.decision_of(item)
    assert latest is not None
    assert (latest.reviewer, latest.fingerprint) == (reviewer.name, reviewer.fingerprint)
    assert latest.decided_at.endswith("+00:00")


@pytest.mark.parametrize(
    ("item", "decision", "why"),
    [
        (UNFLAGGED, "Revoke", "Revoke"),
        (UNFLAGGED, "Don't know", "Don't know"),
        (FLAGGED, "Keep", "a flagged item"),
    ],
)
def test_a_justification_is_required(
    campaign: Campaign, reviewer: Reviewer, item: str, decision: str, why: str
) -> None:
    with pytest.raises(CampaignError, match=f"justification is required \\({why}\\)") as refused:
        decide(campaign, item, decision, "   ", reviewer)
    assert refused.value.item == item
    assert campaign.totals()["decided"] == 0
    assert decide(campaign, item, decision, "left in October", reviewer) == 1


def test_a_change_is_history_and_a_repeat_is_not_recorded_again(
    campaign: Campaign, reviewer: Reviewer, store: keys.MemoryStore
) -> None:
    decide(campaign, UNFLAGGED, "keep", "", reviewer)
    assert decide(campaign, UNFLAGGED, "keep", "", reviewer) == 0  # the same: nothing new
    decide(campaign, UNFLAGGED, "revoke", "left", reviewer)
    other = reviewer_of("second@example.test", store)
    decide(campaign, UNFLAGGED, "revoke", "left", other)  # another reviewer: recorded
    history = campaign.history(UNFLAGGED)
    assert [(h.decision, h.reviewer) for h in history] == [
        ("KEEP", reviewer.name), ("REVOKE", reviewer.name), ("REVOKE", other.name),
    ]  # fmt: skip
    assert campaign.item(UNFLAGGED).decision == "REVOKE"  # type: ignore[union-attr]


def test_a_call_for_many_items_is_all_or_nothing(campaign: Campaign, reviewer: Reviewer) -> None:
    with pytest.raises(CampaignError) as refused:
        decide(campaign, [UNFLAGGED, "account:NOPE", "role:ROL2"], "Revoke", "x", reviewer)
    assert refused.value.code == "UNKNOWN_ITEM" and refused.value.item == "account:NOPE"
    assert campaign.totals()["decided"] == 0
    assert decide(campaign, [UNFLAGGED, "role:ROL2"], "Revoke", "x", reviewer) == 2


def test_the_reviewer_cannot_decide_their_own_account(
    campaign: Campaign, reviewer: Reviewer
) -> None:
    with pytest.raises(CampaignError) as refused:
        decide(campaign, "account:ACC000006", "Keep", "it is me", reviewer)
    assert refused.value.code == "SELF"
    assert campaign.own_items(" REV@example.test ") == ["account:ACC000006"]
    other = reviewer_of("colleague@example.test", keys.MemoryStore())
    assert decide(campaign, "account:ACC000006", "Keep", "works here", other) == 1


def test_not_a_decision(campaign: Campaign, reviewer: Reviewer) -> None:
    with pytest.raises(CampaignError, match="not a decision"):
        decide(campaign, UNFLAGGED, "maybe", "x", reviewer)


def test_decisions_are_frozen_after_sign_off_and_final_after_closing(
    campaign: Campaign, reviewer: Reviewer, store: keys.MemoryStore
) -> None:
    decide(campaign, UNFLAGGED, "keep", "", reviewer)
    sign(campaign, reviewer.name, keys.signing_key(store))
    with pytest.raises(CampaignError) as frozen:
        decide(campaign, UNFLAGGED, "revoke", "changed my mind", reviewer)
    assert frozen.value.code == "FROZEN"
    with campaign.transaction() as conn:
        campaign.set_meta(conn, closed=True)
    with pytest.raises(CampaignError) as closed:
        decide(campaign, UNFLAGGED, "revoke", "x", reviewer)
    assert closed.value.code == "CLOSED"


def write_csv(path: Path, rows: list[list[str]], delimiter: str = ",") -> bytes:
    """A CSV as the program writes it (BOM, quoting, formula guard)."""
    with path.open("w", encoding=ENCODING, newline="") as fh:
        write_rows(fh, rows, delimiter)
    return path.read_bytes()


def test_a_csv_as_the_program_writes_it(
    tmp_path: Path, campaign: Campaign, reviewer: Reviewer
) -> None:
    data = write_csv(
        tmp_path / "d.csv",
        [
            ["label", "id", "decision", "justification"],
            ["x", UNFLAGGED, "Keep", ""],
            ["x", FLAGGED, "revoke", "=HYPERLINK(evil) -- a formula, kept as text"],
            ["x", "role:ROL1", "", ""],  # no decision: nothing decided on this line
            ["x", "role:ROL2", "DON'T KNOW", "ask Ana"],
        ],
        delimiter=";",
    )
    assert data.startswith(b"\xef\xbb\xbf")
    entries = read_csv(data)
    assert [(e.item, e.decision, e.line) for e in entries] == [
        (UNFLAGGED, Decision.KEEP, 2), (FLAGGED, Decision.REVOKE, 3),
        ("role:ROL2", Decision.DONT_KNOW, 5),
    ]  # fmt: skip
    assert entries[1].justification.startswith("=HYPERLINK")  # the guard's quote removed
    assert record(campaign, entries, reviewer, source="csv d.csv") == 3


@pytest.mark.parametrize(
    ("rows", "words"),
    [
        ([[FLAGGED, "Revoke", "x"], [UNFLAGGED, "Perhaps", "x"]],
         "line 3 (account:ACC000001): not a decision"),
        ([[UNFLAGGED, "Keep", ""], [UNFLAGGED, "Revoke", "x"]],
         "line 3 (account:ACC000001): listed before, on line 2"),
        ([["", "Keep", ""]], "line 2: no id"),
    ],
)  # fmt: skip
def test_a_csv_that_cannot_be_read_names_the_line(
    tmp_path: Path, rows: list[list[str]], words: str
) -> None:
    data = write_csv(tmp_path / "d.csv", [["id", "decision", "justification"], *rows])
    with pytest.raises(CampaignError) as refused:
        read_csv(data)
    assert words in str(refused.value)


def test_a_csv_whose_lines_the_campaign_refuses_records_nothing(
    tmp_path: Path, campaign: Campaign, reviewer: Reviewer
) -> None:
    for bad, words in (
        (["account:ACC999999", "Keep", ""], "line 3 (account:ACC999999): no such item"),
        ([FLAGGED, "Keep", ""], "line 3 (account:ACC000003): a justification is required"),
    ):
        data = write_csv(
            tmp_path / "d.csv",
            [["id", "decision", "justification"], [UNFLAGGED, "Keep", ""], bad],
        )
        with pytest.raises(CampaignError) as refused:
            record(campaign, read_csv(data), reviewer)
        assert words in str(refused.value)
        assert refused.value.line == 3
        assert campaign.count(Query(decision="UNDECIDED")) == campaign.count()


def test_a_csv_without_the_columns_or_not_utf8(tmp_path: Path) -> None:
    with pytest.raises(CampaignError, match="line 1: the header names no id and decision"):
        read_csv(b"email,what\nx,y\n")
    with pytest.raises(CampaignError, match="line 2: not UTF-8"):
        read_csv(b"id,decision\n\xff\xfe,Keep\n")
