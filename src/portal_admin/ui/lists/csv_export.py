"""CSV export of a list's current query across all its pages.

The cells follow the program's CSV rules (``portal_admin.files.csv_rules``: BOM, delimiter,
quoting, formula guard). The pages are fetched on the loop and written in a worker thread
(``ui/file_work.py``): no file work on the GUI thread. The file is written atomically: a
cancelled or failed export leaves nothing behind.

A kiosk (read-only) export ends with an empty row and then a marking row
(``READ-ONLY EXPORT — <time> — <account>``): the header stays the first row, so spreadsheets
and CSV readers recognise it, and the empty row keeps the marking out of the table's range
(filters, sorting and pivot tables stop at it). See docs/kiosk.md.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from portal_admin.files.atomic import atomic_open
from portal_admin.files.csv_rules import DELIMITERS, ENCODING, moment_text, neutralize, writer
from portal_admin.protocol.pages import MAX_PAGE_SIZE
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.i18n.dates import format_datetime, parse_moment

from .paged_model import Column, Query

Progress = Callable[[int, int], object]


def cell(column: Column[Any], row: Any) -> str:
    """The exported text of one cell: numbers stay numbers, a moment is ISO 8601 (not the
    reader's locale), text is neutralized (``files/csv_rules.py``)."""
    value = column.value(row)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    moment = parse_moment(value) if column.format is format_datetime else None
    if moment is not None:
        return moment_text(moment)
    if isinstance(value, date):
        return moment_text(value)
    return neutralize(column.format(value))


def exported_columns(columns: Sequence[Column[Any]], shown: Sequence[Column[Any]]) -> list[Any]:
    """The columns a file gets: those ``shown``, after the id column when it is hidden (a row
    of a file must name its record)."""
    ids = [c for c in columns if c.key == "id" and c not in shown]
    return [*ids, *shown]


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
    target = atomic_open(path, encoding=ENCODING, newline="")
    out = writer(await in_worker(target.__enter__), delimiter)
    try:
        written = await _write_rows(out, columns, query, page_size, progress, footer)
    except BaseException as exc:  # the temporary file goes, the target stays as it was
        with contextlib.suppress(BaseException):
            await asyncio.shield(in_worker(target.__exit__, type(exc), exc, exc.__traceback__))
        raise
    await asyncio.shield(in_worker(target.__exit__, None, None, None))  # fsync and rename
    return written


async def _write_rows(
    out: Any,
    columns: Sequence[Column[Any]],
    query: Query[Any],
    page_size: int,
    progress: Progress | None,
    footer: str | None,
) -> int:
    """The rows of every page, each page formatted here (on the GUI thread: the formats read
    the locale) and written in a worker thread."""
    await in_worker(out.writerow, [neutralize(c.title()) for c in columns])
    written = 0
    number = 0
    while True:
        page = await query.fetch(number, page_size, list(query.sort))
        await in_worker(out.writerows, [[cell(c, row) for c in columns] for row in page.items])
        written += len(page.items)
        if progress is not None:
            progress(written, max(page.total_items, written))
        if not page.has_next or not page.items:
            break
        number += 1
    if footer is not None:
        await in_worker(out.writerows, [[], [neutralize(footer)]])
    return written
