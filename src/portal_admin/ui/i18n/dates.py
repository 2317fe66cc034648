"""Moments as the reader reads them: local time, in the interface language's short format.

The one place the panels turn a timestamp into text; an ISO text (as job files and journals
keep it) is read first, and a naive time is taken as UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import QDateTime, QLocale, QTimeZone


def to_qdatetime(moment: datetime) -> QDateTime:
    """A QDateTime in local time for an aware (or UTC-naive) datetime."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return QDateTime.fromMSecsSinceEpoch(int(moment.timestamp() * 1000), QTimeZone.systemTimeZone())


def parse_moment(value: object) -> datetime | None:
    """``value`` as a datetime: a datetime as it is, an ISO text read (``Z`` allowed);
    None for anything else."""
    if isinstance(value, datetime):
        return value
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    return None


def format_datetime(value: object, locale: QLocale | None = None) -> str:
    """``value`` in local time, in the locale's short format: "" for None or "", and a value
    that is not a moment as it was given."""
    if value is None or value == "":
        return ""
    moment = parse_moment(value)
    if moment is None:
        return str(value)
    return (locale or QLocale()).toString(to_qdatetime(moment), QLocale.FormatType.ShortFormat)
