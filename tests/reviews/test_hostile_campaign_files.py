"""Attacks on campaign files (from the red-team review, tests/redteam/test_campaign_files.py),
each fixed: the docstring says the attack, what it achieved and the class of fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin.reviews import Campaign, CampaignError

from .hostile_support import new_campaign, raw


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
