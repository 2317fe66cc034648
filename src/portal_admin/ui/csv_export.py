"""CSV export of a list's current query across all its pages.

UTF-8 with a BOM (spreadsheets then detect the encoding), a chosen delimiter, every cell
quoted, and cells a spreadsheet would run as formulas neutralized as OWASP's CSV injection
guidance says: a leading ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a ``'``
prefix. The file is written atomically: a cancelled or failed export leaves nothing behind.

A kiosk (read-only) export ends with an empty row and then a marking row
(``READ-ONLY EXPORT — <time> — <account>``): the header stays the first row, so spreadsheets
and CSV readers recognise it, and the empty row keeps the marking out of the table's range
(filters, sorting and pivot tables stop at it). See docs/kiosk.md.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from portal_admin.protocol.pages import MAX_PAGE_SIZE

from .atomic import atomic_open
from .paged_model import Column, Query

DELIMITERS: dict[str, str] = {"comma": ",", "semicolon": ";", "tab": "\t"}
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")

Progress = Callable[[int, int], object]


def neutralize(text: str) -> str:
    """``text`` made inert for spreadsheets (a ``'`` before a formula trigger)."""
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text


def cell(column: Column[Any], row: Any) -> str:
    """The exported text of one cell: numbers stay numbers, text is neutralized."""
    value = column.value(row)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return neutralize(column.format(value))


async def export_csv(
    path: Path,
    columns: Sequence[Column[Any]],
    query: Query[Any],
    *,
    delimiter: str = ",",
    page_size: int = MAX_PAGE_SIZE,
    progress: Progress | None = None,
    footer: str | None = None,
) -> int:
    """Write every row of ``query`` to ``path``; returns the number of rows written.

    Cancel by cancelling the task; the target file is then left untouched. ``footer``, when
    given, is written after an empty row at the end (the read-only marking).
    """
    if delimiter not in DELIMITERS.values():
        raise ValueError(f"unsupported delimiter {delimiter!r}")
    written = 0
    with atomic_open(path, encoding="utf-8-sig", newline="") as fh:
        writer = csv.writer(fh, delimiter=delimiter, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
        writer.writerow([neutralize(c.title()) for c in columns])
        number = 0
        while True:
            page = await query.fetch(number, page_size, list(query.sort))
            for row in page.items:
                writer.writerow([cell(c, row) for c in columns])
            written += len(page.items)
            if progress is not None:
                progress(written, max(page.total_items, written))
            if not page.has_next or not page.items:
                break
            number += 1
        if footer is not None:
            writer.writerow([])
            writer.writerow([neutralize(footer)])
    return written
