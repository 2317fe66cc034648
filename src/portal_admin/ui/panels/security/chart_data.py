"""The sign-in chart's data: sign-ins per day, successful and failed (pure, no Qt)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo

#: Login results counted as successful; FAILURE and BLOCKED count as failed.
SUCCESS_CODES = frozenset({"SUCCESS", "1"})
#: At most this many sign-ins are read for the chart (the latest ones).
CHART_ITEM_CAP = 2000
#: At most this many days are shown (the latest ones).
MAX_DAYS = 120


@dataclass(frozen=True, slots=True)
class DayCount:
    """Sign-ins on one day."""

    day: date
    success: int = 0
    failure: int = 0

    @property
    def total(self) -> int:
        """Every sign-in of the day."""
        return self.success + self.failure


def result_code(result: object) -> str:
    """The code of a login result (an EnumItem, a code or a number)."""
    code = getattr(result, "code", result)
    return str(code).upper() if code is not None else ""


def is_success(result: object) -> bool:
    """True for a successful sign-in."""
    return result_code(result) in SUCCESS_CODES


def bucket_by_day(
    events: Iterable[tuple[datetime | None, object]],
    tz: tzinfo | None = None,
    *,
    max_days: int = MAX_DAYS,
) -> list[DayCount]:
    """Count (time, result) pairs per local day, every day from the first to the last.

    Days without sign-ins are present with zeros; times without a zone are UTC; events without
    a time are skipped. Only the latest ``max_days`` days are kept.
    """
    counts: dict[date, list[int]] = {}
    for moment, result in events:
        if moment is None:
            continue
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        day = moment.astimezone(tz).date()
        pair = counts.setdefault(day, [0, 0])
        pair[0 if is_success(result) else 1] += 1
    if not counts:
        return []
    last = max(counts)
    first = max(min(counts), last - timedelta(days=max_days - 1))
    days = []
    day = first
    while day <= last:
        success, failure = counts.get(day, (0, 0))
        days.append(DayCount(day, success, failure))
        day += timedelta(days=1)
    return days


def nice_ceiling(value: int) -> tuple[int, int]:
    """A round axis maximum at or above ``value`` and its tick step (at most ~5 ticks)."""
    if value <= 0:
        return 1, 1
    step = 1
    while True:
        for factor in (1, 2, 5):
            candidate = step * factor
            if value / candidate <= 5:
                top = -(-value // candidate) * candidate
                return top, candidate
        step *= 10
