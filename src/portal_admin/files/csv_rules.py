"""The program's CSV rules, for every file it writes (exports, bulk results, evidence).

UTF-8 with a BOM (spreadsheets then detect the encoding), a chosen delimiter, every cell
quoted, CRLF line ends, and cells a spreadsheet would run as formulas neutralized as OWASP's
CSV injection guidance says: a leading ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a
``'`` prefix. Numbers stay numbers.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import IO, Any

DELIMITERS: dict[str, str] = {"comma": ",", "semicolon": ";", "tab": "\t"}
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
#: The encoding to open a CSV file with (writes the BOM).
ENCODING = "utf-8-sig"


def neutralize(text: str) -> str:
    """``text`` made inert for spreadsheets (a ``'`` before a formula trigger)."""
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text


def cell_text(value: Any) -> str:
    """The exported text of one value: numbers stay numbers, None is empty, text is neutralized."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
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
