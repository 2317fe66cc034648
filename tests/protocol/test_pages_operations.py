"""Page shapes A and B, both account-query shapes, and the operations registry."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from portal_admin.protocol import operations, pages


def test_shape_a_is_one_based_on_the_wire() -> None:
    data = pages.shape_a([1, 2], number=0, size=2, total=5)
    assert data["pagination"]["currentPage"] == 1
    assert data["pagination"]["hasNext"] is True
    page = pages.parse_page(data)
    assert page.number == 0 and page.total_pages == 3 and page.has_next


def test_shape_b_is_zero_based() -> None:
    page = pages.parse_page(pages.shape_b(["x"], number=4, size=1, total=5))
    assert page.number == 4 and page.is_last and page.items == ("x",)


@pytest.mark.parametrize("shape", ["accounts", "content"])
def test_both_account_query_shapes(shape: pages.AccountQueryShape) -> None:
    data = pages.account_query([{"bizId": "a"}], number=2, size=1, total=7, shape=shape)
    page = pages.parse_page(data)
    assert page.items == ({"bizId": "a"},)
    assert (page.number, page.size, page.total_items, page.total_pages) == (2, 1, 7, 7)


def test_page_beyond_the_last_is_empty_and_last() -> None:
    page = pages.parse_page(pages.shape_b([], number=9, size=20, total=3))
    assert page.items == () and page.is_last


def test_missing_pagination_is_tolerated() -> None:
    page = pages.parse_page({"items": [1, 2, 3]})
    assert page.total_items == 3 and page.number == 0 and page.is_last


@pytest.mark.parametrize("data", [None, [], {"rows": []}, {"items": "x"}])
def test_malformed_pages(data: object) -> None:
    with pytest.raises(pages.MalformedPage):
        pages.parse_page(data)


@given(
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=1, max_value=100),
    st.integers(min_value=0, max_value=200),
    st.sampled_from(["a", "b", "accounts", "content"]),
)
def test_all_shapes_normalize_alike(total: int, size: int, number: int, shape: str) -> None:
    items = list(range(min(size, max(total - number * size, 0))))
    if shape == "a":
        data = pages.shape_a(items, number=number, size=size, total=total)
    elif shape == "b":
        data = pages.shape_b(items, number=number, size=size, total=total)
    else:
        data = pages.account_query(items, number=number, size=size, total=total, shape=shape)  # type: ignore[arg-type]
    page = pages.parse_page(data)
    assert (page.number, page.size, page.total_items) == (number, size, total)
    assert page.total_pages == pages.total_pages_for(total, size)
    assert page.has_next == ((number + 1) * size < total)


def test_clamp_page_size() -> None:
    assert pages.clamp_page_size(1000) == 100 and pages.clamp_page_size(7) == 7


def test_sixty_seven_operations() -> None:
    assert len(operations.OPERATIONS) == 67
    areas = {op.area for op in operations.OPERATIONS.values()}
    assert areas == {
        "auth", "secure_channel", "security", "accounts", "constants",
        "invitations", "notifications", "roles", "portals",
    }  # fmt: skip


def test_read_only_allowlist_is_by_operation_not_method() -> None:
    allowed = operations.READ_ONLY_ALLOWED
    assert "accounts.query" in allowed  # a POST that only reads
    assert "notifications.channels_query" in allowed
    assert "accounts.status" not in allowed
    assert "roles.delete" not in allowed
    assert "security.backup_codes_generate" not in allowed
    assert all(operations.OPERATIONS[i].method in ("GET", "POST") for i in allowed)


def test_match_paths() -> None:
    assert operations.match("get", "/web/v1/system/roles/R1") is operations.OPERATIONS["roles.get"]
    assert operations.match("GET", "/web/v1/system/roles") is operations.OPERATIONS["roles.list"]
    op = operations.match("POST", "/web/v1/system/security/ip-whitelist")
    assert op is operations.OPERATIONS["security.ip_whitelist_set"]
    assert operations.match("DELETE", "/web/v1/system/roles") is None
    assert operations.OPERATIONS["accounts.get"].url_path(userBizId="U1").endswith("/admin/U1")


def test_stated_permissions() -> None:
    ops = operations.OPERATIONS
    assert ops["accounts.query"].permission == "workspace:user:read"
    assert ops["accounts.status"].permission == "workspace:user:write"
    assert ops["roles.delete"].permission == "workspace:role:write"
    assert ops["constants.countries"].permission is None
    for perm in operations.READ_PERMISSIONS:
        assert all(not op.mutating for op in ops.values() if op.permission == perm)
