"""Moments in the reader's language: one formatting for every panel (ui/i18n/dates.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from PySide6.QtCore import QLocale

from portal_admin.ui.i18n.dates import format_datetime, parse_moment

MOMENT = datetime(2026, 11, 26, 17, 5, tzinfo=UTC)


def test_iso_text_aware_and_naive_moments_read_the_same() -> None:
    tokyo = MOMENT.astimezone(timezone(timedelta(hours=9)))
    assert parse_moment("2026-11-26T17:05:00Z") == MOMENT
    assert parse_moment(tokyo.isoformat()) == MOMENT
    locale = QLocale("en_US")
    shown = {
        format_datetime(value, locale)
        for value in (MOMENT, tokyo, "2026-11-26T17:05:00+00:00", MOMENT.replace(tzinfo=None))
    }
    assert len(shown) == 1  # a naive moment is UTC


def test_the_locale_decides_the_format() -> None:
    english = format_datetime(MOMENT, QLocale("en_US"))
    japanese = format_datetime(MOMENT, QLocale("ja_JP"))
    assert english != japanese
    assert "2026" in japanese and "26" in english
    assert "T" not in english


def test_what_is_not_a_moment_is_shown_as_given() -> None:
    assert format_datetime(None) == "" and format_datetime("") == ""
    assert format_datetime("soon") == "soon"
    assert format_datetime(42) == "42"
    assert parse_moment("2026-13-45") is None
