"""The program's CSV rules, for every file it writes (exports, bulk results, evidence).

UTF-8 with a BOM (spreadsheets then detect the encoding), a chosen delimiter, every cell
quoted, CRLF line ends, and cells a spreadsheet would run as formulas neutralized as OWASP's
CSV injection guidance says: a leading ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a
``'`` prefix. Numbers stay numbers; a moment is written in ISO 8601 (``2026-11-27T17:42:05Z``,
UTC), never in the reader's locale.

One exception to the guard, decided on purpose: a phone number (a ``+``, then only digits,
spaces, brackets, dots and hyphens, ending with a digit: ``+1 555-0100``, ``+44 (20) 7946
0958``) is written as it is. It can hold no function, no cell reference and no command (those
need letters, ``!``, ``|`` or a second operator sign), so the worst a spreadsheet does with it is
read a number; a ``'`` would corrupt it for every other reader (``'+1 555`` in a script, a
database import or LibreOffice). Prefixing a tab instead is not safe (some spreadsheets trim it,
and OWASP lists the tab itself as a trigger), so everything else keeps the ``'``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from datetime import UTC, date, datetime
from typing import IO, Any

DELIMITERS: dict[str, str] = {"comma": ",", "semicolon": ";", "tab": "\t"}
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
#: The encoding to open a CSV file with (writes the BOM).
ENCODING = "utf-8-sig"


#: A phone number: written as it is (see the module's note).
PHONE = re.compile(r"\+[0-9](?:[0-9 ().\-]*[0-9])?")


def neutralize(text: str) -> str:
    """``text`` made inert for spreadsheets (a ``'`` before a formula trigger); a phone number
    is left as it is."""
    if not text.startswith(FORMULA_TRIGGERS) or PHONE.fullmatch(text):
        return text
    return "'" + text


def moment_text(value: datetime | date) -> str:
    """A moment in ISO 8601: an aware one in UTC with ``Z``, to the second; a date as it is."""
    if not isinstance(value, datetime):
        return value.isoformat()
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
        return value.isoformat(timespec="seconds") + "Z"
    return value.isoformat(timespec="seconds")


def cell_text(value: Any) -> str:
    """The exported text of one value: numbers stay numbers, moments are ISO 8601, None is
    empty, text is neutralized."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, datetime | date):
        return moment_text(value)
    return neutralize(str(value))


def writer(fh: IO[str], delimiter: str = ",") -> Any:
    """A csv writer following the rules (``fh`` opened with ENCODING and ``newline=""``)."""
    if delimiter not in DELIMITERS.values():
        raise ValueError(f"unsupported delimiter {delimiter!r}")
    return csv.writer(fh, delimiter=delimiter, quoting=csv.QUOTE_ALL, lineterminator="\r\n")


def write_rows(fh: IO[str], rows: Iterable[Iterable[Any]], delimiter: str = ",") -> int:
    """Write rows of values (header included) with the rules; returns the number written."""
    out = writer(fh, delimiter)
    count = 0
    for row in rows:
        out.writerow([cell_text(v) for v in row])
        count += 1
    return count
