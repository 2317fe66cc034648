"""A whole list fetched at once (constants, invitations), filtered and sorted locally, served to
:class:`~portal_admin.ui.lists.paged_model.PagedTableModel` as a single page.

``reload()`` marks the list stale: the next fetch asks the server again; a filter change only
re-filters what is held (no request).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from portal_admin.protocol.pages import Page
from portal_admin.ui.lists.paged_model import Column, SortSpec

T = TypeVar("T")


def sort_key(value: object) -> tuple[int, Any]:
    """A key that orders None last and text case-insensitively."""
    if value is None:
        return (2, "")
    if isinstance(value, str):
        return (1, value.casefold())
    if isinstance(value, int | float):
        return (0, value)
    return (1, str(value).casefold())


class LocalList(Generic[T]):
    """Holds the rows of one list; ``fetch`` is a ``FetchPage`` for the table model."""

    def __init__(
        self,
        loader: Callable[[], Awaitable[Sequence[T]]],
        columns: Sequence[Column[T]] = (),
    ) -> None:
        self._loader = loader
        self._columns: Mapping[str, Column[T]] = {c.key: c for c in columns}
        self._rows: list[T] | None = None
        self._predicate: Callable[[T], bool] | None = None
        #: How many times the loader ran (tests).
        self.loads = 0

    @property
    def rows(self) -> tuple[T, ...]:
        """Everything held (unfiltered), empty before the first load."""
        return tuple(self._rows or ())

    def set_loader(self, loader: Callable[[], Awaitable[Sequence[T]]]) -> None:
        """Load from ``loader`` on the next fetch."""
        self._loader = loader
        self._rows = None

    def reload(self) -> None:
        """The next fetch asks the server again."""
        self._rows = None

    def set_filter(self, predicate: Callable[[T], bool] | None) -> None:
        """Show only the rows ``predicate`` accepts (None: all)."""
        self._predicate = predicate

    def visible(self) -> list[T]:
        """The held rows that pass the filter."""
        rows = list(self._rows or ())
        if self._predicate is not None:
            rows = [r for r in rows if self._predicate(r)]
        return rows

    async def fetch(self, number: int, size: int, sort: SortSpec) -> Page[T]:
        """Everything visible, as page 0 (later pages are empty)."""
        del size
        if self._rows is None:
            self._rows = list(await self._loader())
            self.loads += 1
        rows = self.visible()
        for field, direction in reversed(sort):
            column = self._columns.get(field)
            if column is not None:
                getter = column.value
                rows.sort(key=lambda r: sort_key(getter(r)), reverse=direction == "desc")
        items = tuple(rows) if number == 0 else ()
        return Page(items, number, max(len(rows), 1), len(rows), 1)


def text_matcher(text: str, fields: Callable[[T], Sequence[object]]) -> Callable[[T], bool] | None:
    """A predicate: every word of ``text`` occurs (case-insensitively) in one of the fields."""
    words = text.casefold().split()
    if not words:
        return None

    def match(row: T) -> bool:
        haystack = " ".join("" if v is None else str(v) for v in fields(row)).casefold()
        return all(w in haystack for w in words)

    return match
