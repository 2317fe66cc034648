"""Loaded records are light: enum items and timestamp zones are shared, values unchanged."""

from __future__ import annotations

import gc
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from portal_admin.client.areas._base import as_page
from portal_admin.client.errors import MalformedResponseError
from portal_admin.client.records import Account, EnumItem, shared_item


def account(number: int, **changes: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "bizId": f"acc-{number}",
        "accountEmail": f"user{number}@example.com",
        "accountStatus": {"code": "ACTIVE", "value": 10000002, "label": "Active"},
        "accountPortal": {"code": "SYSTEM", "value": 10000001, "label": "System"},
        "createdAt": "2026-01-02T03:04:05Z",
        "updatedAt": "2026-01-02T03:04:05.250+08:00",
    }
    raw.update(changes)
    return raw


def test_equal_enum_items_are_one_object() -> None:
    first, second = (Account.model_validate(account(n)) for n in (1, 2))
    assert first.account_status is second.account_status
    assert first.account_portal is second.account_portal
    assert first.account_status == EnumItem(code="ACTIVE", value=10000002, label="Active")


def test_items_that_differ_are_not_shared() -> None:
    active = Account.model_validate(account(1))
    german = Account.model_validate(
        account(2, accountStatus={"code": "ACTIVE", "value": 10000002, "label": "Aktiv"})
    )
    assert german.account_status is not active.account_status
    assert german.account_status is not None and german.account_status.label == "Aktiv"


def test_an_item_with_more_fields_keeps_them() -> None:
    raw = {"code": "ACTIVE", "value": 10000002, "label": "Active", "colour": "green"}
    assert shared_item(raw) is raw
    record = Account.model_validate(account(1, accountStatus=raw))
    assert record.account_status is not None
    assert record.account_status.model_extra == {"colour": "green"}


@pytest.mark.parametrize(
    "bad",
    [{"value": 1, "label": "no code"}, {"code": ["not", "text"]}, {"code": 5}],
)
def test_an_invalid_item_is_still_malformed(bad: dict[str, Any]) -> None:
    data = {"content": [account(1, accountStatus=bad)], "page": 0, "size": 20}
    data |= {"totalElements": 1, "totalPages": 1}
    with pytest.raises(MalformedResponseError):
        as_page(data, Account, "accounts.query")


def test_bare_codes_and_numbers_become_shared_items() -> None:
    by_code = Account.model_validate(account(1, accountStatus="SUSPENDED"))
    by_number = Account.model_validate(account(2, accountStatus="SUSPENDED"))
    assert by_code.account_status is by_number.account_status
    assert by_code.account_status is not None and by_code.account_status.is_("SUSPENDED")


def test_timestamps_keep_their_instant_and_share_their_zone() -> None:
    first, second = (Account.model_validate(account(n)) for n in (1, 2))
    assert first.created_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert first.created_at is not None and first.created_at.tzinfo is UTC
    plus8 = timezone(timedelta(hours=8))
    assert first.updated_at == datetime(2026, 1, 2, 3, 4, 5, 250000, tzinfo=plus8)
    assert first.updated_at is not None and second.updated_at is not None
    assert first.updated_at.utcoffset() == timedelta(hours=8)


def test_timestamps_in_other_forms_are_still_parsed_or_refused() -> None:
    epoch = Account.model_validate(account(1, createdAt=1767323045))
    assert epoch.created_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    data = {"content": [account(1, createdAt="yesterday")], "page": 0, "size": 20}
    data |= {"totalElements": 1, "totalPages": 1}
    with pytest.raises(MalformedResponseError):
        as_page(data, Account, "accounts.query")


def test_a_loaded_account_is_three_tracked_objects() -> None:
    """What a full garbage collection walks per loaded row (was nine)."""
    gc.collect()
    before = len(gc.get_objects())
    rows = [Account.model_validate(account(n)) for n in range(1000)]
    gc.collect()
    per_row = (len(gc.get_objects()) - before) / len(rows)
    assert per_row <= 3.1, per_row
