"""The shared lazy table model over server-side pages (architecture: "Lazy server-side lists").

Rows are fetched one page at a time as the view asks for more (``canFetchMore`` answers from
the last page's info), one fetch at a time as a task (strong reference kept), inserted with
``beginInsertRows`` when it completes. A new query (filter, sort, refresh) bumps a generation
number; answers of an older generation are dropped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from portal_admin.protocol.pages import MAX_PAGE_SIZE, Page
from portal_admin.ui.widgets.plain import plain_tooltip

log = logging.getLogger(__name__)

T = TypeVar("T")
SortSpec = list[tuple[str, str]]
FetchPage = Callable[[int, int, SortSpec], Awaitable[Page[T]]]
AnyIndex = QModelIndex | QPersistentModelIndex

#: The row object behind an index.
RowRole = Qt.ItemDataRole.UserRole + 1
#: The raw (unformatted) value of a cell.
RawValueRole = Qt.ItemDataRole.UserRole + 2

_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter

_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_ROW = int(RowRole)
_RAW = int(RawValueRole)
_ROW_FLAGS = (
    Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
)
_NO_FLAGS = Qt.ItemFlag.NoItemFlags


def default_format(value: object) -> str:
    """Text for a cell value (None shows as empty)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "\u2713" if value else ""
    return str(value)


@dataclass(frozen=True, slots=True)
class Column(Generic[T]):
    """One column: header (a QT_TRANSLATE_NOOP source text), value getter, server sort field."""

    key: str
    header: str
    value: Callable[[T], object]
    #: The field the server sorts by, or None when the column cannot be sorted.
    sort_field: str | None = None
    alignment: Qt.AlignmentFlag = _LEFT
    #: The translation context of ``header``.
    context: str = "Columns"
    format: Callable[[object], str] = default_format
    #: Hidden until the person chooses it.
    hidden: bool = False

    def title(self) -> str:
        """The translated header."""
        return QCoreApplication.translate(self.context, self.header)

    def text(self, row: T) -> str:
        """The cell's text for ``row``."""
        return self.format(self.value(row))


class ListState(StrEnum):
    """What a list is doing."""

    IDLE = "idle"  # nothing asked yet
    LOADING = "loading"
    READY = "ready"
    EMPTY = "empty"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Query(Generic[T]):
    """A snapshot of what the list shows: the fetch callable and the sort."""

    fetch: FetchPage[T]
    sort: SortSpec


class PagedTableModel(QAbstractTableModel, Generic[T]):
    """Rows of a server-side collection, loaded a page at a time."""

    stateChanged = Signal(str)
    #: The exception of a failed fetch.
    errorOccurred = Signal(object)
    #: The server's total number of items.
    totalChanged = Signal(int)

    def __init__(
        self,
        columns: Sequence[Column[T]],
        fetch: FetchPage[T],
        *,
        page_size: int = MAX_PAGE_SIZE,
        parent: Any = None,
    ) -> None:
        super().__init__(parent)
        self.columns: tuple[Column[T], ...] = tuple(columns)
        self._alignments = tuple(int(c.alignment.value) for c in self.columns)
        self._fetch = fetch
        self._page_size = page_size
        self._sort: SortSpec = []
        self._sort_column = -1
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._rows: list[T] = []
        self._last_page: Page[T] | None = None
        self._exhausted = False
        self._generation = 0
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._state = ListState.IDLE
        self._error: BaseException | None = None

    # -- state ---------------------------------------------------------------------------------

    @property
    def state(self) -> ListState:
        """What the list is doing."""
        return self._state

    @property
    def error(self) -> BaseException | None:
        """The failure of the last fetch, while in the ERROR state."""
        return self._error

    @property
    def total(self) -> int | None:
        """The server's total, once a page has arrived."""
        return self._last_page.total_items if self._last_page else None

    @property
    def rows(self) -> tuple[T, ...]:
        """The rows loaded so far."""
        return tuple(self._rows)

    @property
    def loading(self) -> bool:
        """True while a fetch runs."""
        return self._task is not None and not self._task.done()

    def query(self) -> Query[T]:
        """What the list shows now (for export across all pages)."""
        return Query(self._fetch, list(self._sort))

    def row_at(self, row: int) -> T | None:
        """The row object at ``row``, if loaded."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    @property
    def sort_column(self) -> int:
        """The column sorted by, or -1."""
        return self._sort_column

    @property
    def sort_order(self) -> Qt.SortOrder:
        """The current sort order."""
        return self._sort_order

    @property
    def sort_spec(self) -> SortSpec:
        """The server sort now: (field, "asc"/"desc") pairs."""
        return list(self._sort)

    # -- Qt model API --------------------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: AnyIndex, role: int = _DISPLAY) -> Any:
        # Called for every role of every visible cell on each paint: plain int roles, no enum
        # look-ups (docs/performance.md, "Browsing").
        number = index.row()
        if not 0 <= number < len(self._rows):
            return None
        if role == _DISPLAY:
            return self.columns[index.column()].text(self._rows[number])
        if role == _TOOLTIP:
            return plain_tooltip(self.columns[index.column()].text(self._rows[number]))
        if role == _ALIGNMENT:
            return self._alignments[index.column()]
        if role == _ROW:
            return self._rows[number]
        if role == _RAW:
            return self.columns[index.column()].value(self._rows[number])
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Vertical:
            # A row's header is its first cell (the lists hide it: screen readers announce it).
            if role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self._rows):
                return self.data(self.index(section, 0))
            return None
        if not 0 <= section < len(self.columns):
            return None
        column = self.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.title()
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(column.alignment.value)
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        return _ROW_FLAGS if index.isValid() else _NO_FLAGS

    def canFetchMore(self, parent: AnyIndex) -> bool:
        if parent.isValid() or self.loading or self._state is ListState.ERROR:
            return False
        if self._last_page is None:
            return self._state is ListState.IDLE
        return self._last_page.has_next and not self._exhausted

    def fetchMore(self, parent: AnyIndex) -> None:
        if not self.canFetchMore(parent):
            return
        number = 0 if self._last_page is None else self._last_page.number + 1
        self._start(number)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.columns):
            return
        field = self.columns[column].sort_field
        if field is None:
            return
        self._sort_column, self._sort_order = column, order
        direction = "asc" if order == Qt.SortOrder.AscendingOrder else "desc"
        self._sort = [(field, direction)]
        self.refresh()

    # -- queries -------------------------------------------------------------------------------

    def set_fetch(self, fetch: FetchPage[T]) -> None:
        """Show a new query (for example a changed filter) from its first page."""
        self._fetch = fetch
        self.refresh()

    def set_sort(self, sort: SortSpec) -> None:
        """Sort by ``sort`` (server field, "asc"/"desc") pairs and reload."""
        self._sort = list(sort)
        fields = [c.sort_field for c in self.columns]
        if sort and sort[0][0] in fields:
            self._sort_column = fields.index(sort[0][0])
            self._sort_order = (
                Qt.SortOrder.DescendingOrder
                if sort[0][1] == "desc"
                else Qt.SortOrder.AscendingOrder
            )
        else:
            self._sort_column = -1
        self.refresh()

    def refresh(self) -> None:
        """Drop every row and any fetch under way, and load the first page again."""
        self._generation += 1
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        self.beginResetModel()
        self._rows = []
        self._last_page = None
        self._exhausted = False
        self._error = None
        self.endResetModel()
        self._set_state(ListState.IDLE)
        self.fetchMore(QModelIndex())

    def retry(self) -> None:
        """After an error: fetch the page that failed again."""
        if self._state is not ListState.ERROR:
            return
        self._error = None
        self._set_state(ListState.READY if self._rows else ListState.IDLE)
        self.fetchMore(QModelIndex())

    def retranslate(self) -> None:
        """Headers in the current language."""
        if self.columns:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.columns) - 1)

    async def wait_idle(self) -> None:
        """Wait until no fetch is under way."""
        while self._task is not None and not self._task.done():
            await asyncio.wait({self._task})

    def close(self) -> None:
        """Cancel any fetch under way (the model is going away)."""
        self._generation += 1
        for task in list(self._tasks):
            task.cancel()
        self._task = None

    # -- fetching ------------------------------------------------------------------------------

    def _start(self, number: int) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            log.debug("no running loop: page %d of %r not fetched", number, self)
            return
        self._set_state(ListState.LOADING)
        task = loop.create_task(self._load(self._generation, number))
        self._task = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _load(self, generation: int, number: int) -> None:
        try:
            page = await self._fetch(number, self._page_size, list(self._sort))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if generation == self._generation:
                self._failed(exc)
            return
        if generation != self._generation:
            log.debug("dropping page %d of a superseded query", number)
            return
        self._task = None
        self._append(page)

    def _failed(self, exc: Exception) -> None:
        log.warning("fetching a page failed: %r", exc)
        self._task = None
        self._error = exc
        self._set_state(ListState.ERROR)
        self.errorOccurred.emit(exc)

    def _append(self, page: Page[T]) -> None:
        previous_total = self.total
        self._last_page = page
        if page.items:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(page.items) - 1)
            self._rows.extend(page.items)
            self.endInsertRows()
        elif page.has_next:
            self._exhausted = True  # an empty page that claims more would loop forever
        self._set_state(ListState.READY if self._rows else ListState.EMPTY)
        if page.total_items != previous_total:
            self.totalChanged.emit(page.total_items)

    def _set_state(self, state: ListState) -> None:
        if state != self._state:
            self._state = state
            self.stateChanged.emit(state.value)
