"""Fixtures of the campaign tests: snapshot files written directly, a campaign, a reviewer
whose key lives in memory (never the OS keyring)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from portal_admin.evidence import keys
from portal_admin.reviews import Campaign, Reviewer, Settings, create_campaign, reviewer_of

from .support import INVITATIONS, ROLES, account, make_snapshot

REVIEWER = "rev@example.test"


@pytest.fixture
def old_snapshot(tmp_path: Path) -> Path:
    """An earlier snapshot: accounts 1 and 2 (2 suspended), one role, one invitation."""
    return make_snapshot(
        tmp_path / "old.sqlite3",
        [account(1), account(2, status="SUSPENDED")],
        ROLES[:1],
        INVITATIONS[:1],
        finished="2026-06-01T00:00:00+00:00",
    )


@pytest.fixture
def scope(tmp_path: Path) -> Path:
    """The scope: accounts of each kind the flags and the filter care about."""
    return make_snapshot(
        tmp_path / "scope.sqlite3",
        [
            account(1),
            account(2),  # reactivated since the old snapshot
            account(3, portal="SYSTEM"),  # an administrator
            account(4, updated="2025-01-01T00:00:00+00:00"),  # not updated for long
            account(5, status="DEACTIVATED"),  # no access: out of scope
            account(6, email=REVIEWER),  # the reviewer's own
            account(7, status="PENDING_INIT"),  # awaiting setup: out of scope
            account(8, status="REJECTED"),  # out of scope
            account(9, status="SUSPENDED", portal="PARTNER", institution="INS2"),
        ],
        ROLES,
        INVITATIONS,
    )


@pytest.fixture
def store() -> keys.MemoryStore:
    return keys.MemoryStore()


@pytest.fixture
def reviewer(store: keys.MemoryStore) -> Reviewer:
    return reviewer_of(REVIEWER, store)


@pytest.fixture
def campaign(tmp_path: Path, scope: Path, old_snapshot: Path) -> Iterator[Campaign]:
    made = create_campaign(
        tmp_path / "q4.review",
        scope,
        Settings("Q4 review", "2026-12-15", reviewer=REVIEWER),
        since=old_snapshot,
    )
    try:
        yield made
    finally:
        made.close()
