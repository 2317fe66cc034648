"""Moments and days as the reader reads them: local time, in the interface language's format.

The one place the program turns a timestamp or a day into text for people (files and exports
keep ISO 8601); an ISO text (as job files, journals and snapshots keep it) is read first, and
a naive time is taken as UTC. ``seconds=True`` adds the seconds where they matter (when a
snapshot was taken, a journal record's time).
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from PySide6.QtCore import QDate, QDateTime, QLocale, QTimeZone


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


def format_datetime(value: object, locale: QLocale | None = None, *, seconds: bool = False) -> str:
    """``value`` in local time, in the locale's short format (with ``seconds``: to the second):
    "" for None or "", and a value that is not a moment as it was given."""
    if value is None or value == "":
        return ""
    moment = parse_moment(value)
    if moment is None:
        return str(value)
    locale = locale or QLocale()
    shown = to_qdatetime(moment)
    if not seconds:
        return locale.toString(shown, QLocale.FormatType.ShortFormat)
    # The short time with its seconds after the minutes (the long time adds the zone's long
    # name, too wide for a table).
    time = locale.timeFormat(QLocale.FormatType.ShortFormat)
    if "s" not in time:
        time = time.replace("mm", "mm:ss", 1)
    pattern = f"{locale.dateFormat(QLocale.FormatType.ShortFormat)} {time}"
    return locale.toString(shown, pattern)


def format_date(value: object, locale: QLocale | None = None) -> str:
    """A day (a ``date``, a ``QDate``, or an ISO text whose date part is read as written) in
    the locale's short date format: "" for None or "", and a value that is not a day as it was
    given."""
    if value is None or value == "":
        return ""
    day = value if isinstance(value, QDate) else _day(value)
    if day is None or not day.isValid():
        return str(value)
    return (locale or QLocale()).toString(day, QLocale.FormatType.ShortFormat)


def _day(value: object) -> QDate | None:
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, date):
        return QDate(value.year, value.month, value.day)
    if isinstance(value, str):
        try:
            found = date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
        return QDate(found.year, found.month, found.day)
    return None
