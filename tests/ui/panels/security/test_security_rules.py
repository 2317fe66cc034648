"""Pure parts of the security panels: IP entries, lockout check, chart buckets, text helpers."""

from __future__ import annotations

import ipaddress
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from portal_admin.ui.panels.security.chart_data import DayCount, bucket_by_day, nice_ceiling
from portal_admin.ui.panels.security.formatting import (
    login_result_label,
    relative_time,
    shorten_user_agent,
)
from portal_admin.ui.panels.security.history import HistoryFilter
from portal_admin.ui.panels.security.ip_rules import EntryKind, Problem, check_entry, covers

# -- IP entries --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "canonical"),
    [
        ("192.0.2.1", EntryKind.IPV4, "192.0.2.1"),
        (" 10.0.0.0/8 ", EntryKind.IPV4_NETWORK, "10.0.0.0/8"),
        ("192.0.2.7/32", EntryKind.IPV4, "192.0.2.7"),
        ("2001:DB8::1", EntryKind.IPV6, "2001:db8::1"),
        ("2001:db8::/32", EntryKind.IPV6_NETWORK, "2001:db8::/32"),
    ],
)
def test_valid_entries(text: str, kind: EntryKind, canonical: str) -> None:
    check = check_entry(text)
    assert check.valid and check.kind is kind and check.canonical == canonical


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", Problem.EMPTY),
        ("   ", Problem.EMPTY),
        ("10.0.0.1/8", Problem.HOST_BITS),
        ("10.0.0.0/33", Problem.BAD_PREFIX),
        ("10.0.0.0/x", Problem.BAD_PREFIX),
        ("2001:db8::/129", Problem.BAD_PREFIX),
        ("256.1.1.1", Problem.NOT_AN_ADDRESS),
        ("example.com", Problem.NOT_AN_ADDRESS),
        ("1.2.3", Problem.NOT_AN_ADDRESS),
        ("1" * 70, Problem.TOO_LONG),
    ],
)
def test_invalid_entries(text: str, problem: Problem) -> None:
    check = check_entry(text)
    assert not check.valid and check.problem is problem and check.network() is None


@given(st.ip_addresses())
def test_every_address_is_valid(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> None:
    check = check_entry(str(address))
    assert check.valid and check.canonical == str(address)
    assert check.kind in (EntryKind.IPV4, EntryKind.IPV6)


@given(st.ip_addresses(), st.integers(min_value=0, max_value=128))
def test_agrees_with_ipaddress_on_networks(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address, prefix: int
) -> None:
    text = f"{address}/{prefix}"
    try:
        expected = ipaddress.ip_network(text, strict=True)
    except ValueError:
        expected = None
    check = check_entry(text)
    assert check.valid is (expected is not None)
    if expected is not None:
        assert check.network() == expected
        assert (check.problem is None) and (check.canonical is not None)
    else:
        assert check.problem in (Problem.HOST_BITS, Problem.BAD_PREFIX)


@given(st.text(max_size=40))
def test_any_text_agrees_with_ipaddress(text: str) -> None:
    stripped = text.strip()
    try:
        parsed: object = (
            ipaddress.ip_network(stripped, strict=True)
            if "/" in stripped
            else ipaddress.ip_address(stripped)
        )
    except ValueError:
        parsed = None
    assert check_entry(text).valid is (parsed is not None and bool(stripped))


def test_covers() -> None:
    entries = ["203.0.113.0/24", "198.51.100.23", "2001:db8::/32", "bogus"]
    assert covers(entries, "203.0.113.99")
    assert covers(entries, "198.51.100.23")
    assert covers(entries, "2001:db8::42")
    assert covers(entries, "::ffff:203.0.113.5")  # IPv4-mapped
    assert not covers(entries, "127.0.0.1")
    assert not covers(entries, None)
    assert not covers(entries, "not an address")
    assert not covers([], "127.0.0.1")


@given(st.ip_addresses())
def test_an_address_covers_itself(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> None:
    assert covers([str(address)], str(address))


# -- chart buckets -----------------------------------------------------------------------------


def _at(day: int, hour: int) -> datetime:
    return datetime(2026, 3, day, hour, 30, tzinfo=UTC)


def test_bucket_by_day_counts_and_fills_gaps() -> None:
    events = [
        (_at(1, 9), "SUCCESS"),
        (_at(1, 23), 2),
        (_at(4, 0), 1),
        (_at(4, 1), "BLOCKED"),
        (_at(4, 2), "FAILURE"),
        (None, "SUCCESS"),
    ]
    days = bucket_by_day(events, UTC)
    assert days == [
        DayCount(date(2026, 3, 1), 1, 1),
        DayCount(date(2026, 3, 2), 0, 0),
        DayCount(date(2026, 3, 3), 0, 0),
        DayCount(date(2026, 3, 4), 1, 2),
    ]
    assert sum(d.total for d in days) == 5


def test_bucket_by_day_uses_the_local_zone() -> None:
    events = [(_at(1, 23), "SUCCESS"), (datetime(2026, 3, 2, 1, 0), "SUCCESS")]  # naive = UTC
    plus_two = timezone(timedelta(hours=2))
    assert bucket_by_day(events, plus_two) == [DayCount(date(2026, 3, 2), 2, 0)]
    assert bucket_by_day(events, UTC) == [
        DayCount(date(2026, 3, 1), 1, 0),
        DayCount(date(2026, 3, 2), 1, 0),
    ]


def test_bucket_by_day_keeps_the_latest_days_only() -> None:
    events = [(_at(1, 1), "SUCCESS"), (_at(20, 1), 2)]
    days = bucket_by_day(events, UTC, max_days=5)
    assert [d.day for d in days] == [date(2026, 3, n) for n in range(16, 21)]
    assert days[-1].failure == 1 and sum(d.success for d in days) == 0
    assert bucket_by_day([], UTC) == []


def test_nice_ceiling() -> None:
    assert nice_ceiling(0) == (1, 1)
    assert nice_ceiling(3) == (3, 1)
    assert nice_ceiling(7) == (8, 2)
    assert nice_ceiling(23) == (25, 5)
    assert nice_ceiling(140) == (150, 50)


# -- text helpers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "short"),
    [
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) PortalAdmin/1.0", "PortalAdmin 1.0 · Windows"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) PortalAdmin/1.0", "PortalAdmin 1.0 · macOS"),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1",
            "Safari 604.1 · iOS",
        ),
        ("python-httpx/0.28.1", "python-httpx 0.28.1"),
        ("", ""),
        (None, ""),
    ],
)
def test_shorten_user_agent(agent: str | None, short: str) -> None:
    assert shorten_user_agent(agent) == short


def test_shorten_user_agent_caps_the_length() -> None:
    assert len(shorten_user_agent("x" * 300)) == 48


def test_relative_time(qapp: object) -> None:
    now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
    assert relative_time(now - timedelta(seconds=5), now) == "just now"
    assert relative_time(now - timedelta(minutes=5), now) == "5 min ago"
    assert relative_time(now - timedelta(hours=3), now) == "3 h ago"
    assert relative_time(now - timedelta(days=3), now) == "3 days ago"
    assert relative_time(now - timedelta(days=90), now) == "3 months ago"
    assert relative_time(now + timedelta(hours=1), now) == "in the future"
    assert relative_time(None, now) == ""


def test_login_result_labels(qapp: object) -> None:
    assert [login_result_label(v) for v in (1, 2, 3, "SUCCESS", None)] == [
        "Successful",
        "Failed",
        "Blocked",
        "Successful",
        "",
    ]


def test_history_filter_query() -> None:
    assert HistoryFilter().query() == {"result": None}
    query = HistoryFilter(2, date(2026, 3, 1), date(2026, 3, 2)).query()
    assert query["result"] == 2
    start, end = query["date_from"], query["date_to"]
    assert start.astimezone().date() == date(2026, 3, 1) and start.astimezone().hour == 0
    assert end - start == timedelta(days=2, milliseconds=-1)
