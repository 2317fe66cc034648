"""Moments in the reader's language: one formatting for every panel (ui/i18n/dates.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from PySide6.QtCore import QDate, QLocale

from portal_admin.ui.i18n.dates import format_date, format_datetime, parse_moment

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


def test_seconds_and_days_in_the_languages_format() -> None:
    moment = datetime(2026, 11, 26, 12, 5, 9, tzinfo=UTC)  # the same day in every time zone
    japanese, english = QLocale("ja_JP"), QLocale("en_US")
    assert format_datetime(moment, japanese, seconds=True).startswith("2026/11/26 ")
    assert format_datetime(moment, japanese, seconds=True).endswith(":05:09")
    assert format_datetime(moment, english, seconds=True).startswith("11/26/26 ")
    assert ":05:09" in format_datetime(moment, english, seconds=True)
    assert ":09" not in format_datetime(moment, english)  # minutes unless asked
    for day in (date(2027, 1, 2), "2027-01-02T00:00:00+00:00", QDate(2027, 1, 2)):
        assert format_date(day, japanese) == "2027/01/02"
        assert format_date(day, english) == "1/2/27"
    assert format_date(None) == "" and format_date("Jan 2") == "Jan 2"
    assert format_date("2027-02-30") == "2027-02-30"  # not a day: as given


@pytest.fixture
def japanese_default() -> Iterator[QLocale]:
    """The interface in Japanese: QLocale() is Japanese (as the language switch sets it)."""
    before = QLocale()
    QLocale.setDefault(QLocale("ja_JP"))
    yield QLocale("ja_JP")
    QLocale.setDefault(before)


def test_every_date_shown_follows_the_language(japanese_default: QLocale) -> None:
    """The places that wrote dates by hand (ISO with "T" cut out, strftime, a cut at 10
    characters) now show them as the language writes them."""
    from portal_admin.connection.doctor.report import Status, Step
    from portal_admin.ui.doctor.words import describe
    from portal_admin.ui.panels.evidence.diff_view import taken_at
    from portal_admin.ui.panels.evidence.journal_panel import cell
    from portal_admin.ui.panels.notifications.common import fmt_time

    moment = datetime(2026, 11, 26, 12, 5, 9, tzinfo=UTC)
    iso = moment.isoformat()
    minutes = format_datetime(moment, japanese_default)
    seconds = format_datetime(moment, japanese_default, seconds=True)
    assert minutes.startswith("2026/11/26") and seconds.endswith(":05:09")
    assert fmt_time(moment) == minutes  # a channel's or a type's created and updated
    assert cell({"time": iso}, "time") == seconds  # a journal record
    assert taken_at(iso) == seconds  # when a snapshot was taken
    assert taken_at(None) == "?"
    step = Step(
        "tls",
        Status.WARNING,
        0.1,
        "ends soon",
        "tls.expires_soon",
        details={"certificate": {"daysLeft": 5, "notAfter": "2027-01-02T00:00:00+00:00"}},
    )
    assert "2027/01/02" in describe(step)[0]  # a certificate's last day, in the doctor


#: Hand-made date texts: strftime, an ISO text with its "T" replaced, a Qt date pattern.
HAND_MADE = re.compile(
    r"strftime\(|replace\(\"T\", \" \"\)|setDisplayFormat\(\"|toString\(\"[yMdHhms]"
)
#: Where a hand-made date is right, with the reason.
HAND_MADE_ALLOWED = {
    "kiosk/marking.py": "the read-only mark is a fixed, searchable ISO text, not translated",
    "panels/reviews/close_step.py": "a file name's time stamp (not shown as a date)",
    "panels/reviews/create_dialog.py": "the due date is kept and edited as ISO (yyyy-MM-dd)",
}


def test_dates_are_made_into_text_in_one_place() -> None:
    ui = Path(__file__).resolve().parents[3] / "src" / "portal_admin" / "ui"
    found = []
    for path in sorted(ui.rglob("*.py")):
        where = path.relative_to(ui).as_posix()
        if where == "i18n/dates.py" or where in HAND_MADE_ALLOWED:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HAND_MADE.search(line):
                found.append(f"{where}:{number}: {line.strip()}")
    assert found == []
    assert all((ui / where).is_file() for where in HAND_MADE_ALLOWED)
