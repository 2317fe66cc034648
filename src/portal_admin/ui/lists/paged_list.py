"""The reusable list widget: table, filter bar slot, column chooser, detail pane slot, copy,
refresh (F5), CSV export, and an overlay for the empty, loading and error states.

Every list has the same context menu and keys: the panel's row actions (``add_row_actions``),
then copy the cell, copy the selected rows as text or CSV (the visible columns, in the order
shown, with their titles), copy the ids. Enter (or a double click) emits ``rowActivated``,
Delete ``deleteRequested`` with the selected rows, F2 ``editRequested``: panels connect what
they offer.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QPushButton,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.error_info import describe_error
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.theme.icons import IconLabel, icon
from portal_admin.ui.widgets.plain import PlainLabel

from .paged_model import ListState, PagedTableModel, RowRole
from .table_actions import TableActions

if TYPE_CHECKING:
    from portal_admin.files.saved_views import ViewStore
    from portal_admin.ui.lists.list_state import FilterKeeper
    from portal_admin.ui.lists.saved_views import ViewKeeper

log = logging.getLogger(__name__)

#: How many rows fitting a column to its contents looks at (those on screen first).
FIT_ROWS = 30
#: From this width (px) the detail pane sits beside the list; under it, below the list.
WIDE = 1100
#: The narrowest a fitted column gets to spare a horizontal scroll bar (px).
MIN_WIDTH = 72
#: Qt's "no limit" for a widget's size.
QWIDGETSIZE_MAX = (1 << 24) - 1


def share_out(widths: dict[int, int], floors: dict[int, int], room: int) -> dict[int, int]:
    """``widths`` narrowed to fit ``room``: the widest columns give way first, none below its
    floor (so a list too wide even then keeps a scroll bar)."""
    if sum(widths.values()) <= room:
        return dict(widths)
    low, high = 0, max(widths.values())
    while low < high:  # the largest cap whose capped widths still fit
        cap = (low + high + 1) // 2
        if sum(min(w, max(cap, floors[c])) for c, w in widths.items()) <= room:
            low = cap
        else:
            high = cap - 1
    return {c: min(w, max(low, floors[c])) for c, w in widths.items()}


class StateOverlay(QWidget):
    """A message over the table for the loading, empty and error states, with what to do:
    Retry after an error, Clear filters when they hide every row."""

    retryRequested = Signal()
    clearRequested = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("stateOverlay")
        #: The state's icon, above the text (``set_icon``).
        self.icon = IconLabel(self, size=32)
        self.label = PlainLabel(self)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.retry = QPushButton(self)
        self.retry.clicked.connect(self.retryRequested)
        #: "Clear filters", shown when filters hide every row.
        self.clear = QPushButton(self)
        self.clear.setObjectName("overlayClearFilters")
        self.clear.clicked.connect(self.clearRequested)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.label)
        layout.addWidget(self.retry, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.clear, 0, Qt.AlignmentFlag.AlignHCenter)
        #: The panel's own first step on an empty list (``PagedList.set_empty_action``).
        self.act = QPushButton(self)
        self.act.setObjectName("overlayAction")
        self.retry.setIcon(icon("action.refresh"))
        self.clear.setIcon(icon("action.clear-filter"))
        layout.addWidget(self.act, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(1)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.retry.setText(QCoreApplication.translate("ListView", "Retry"))
        self.retry.setAccessibleName(
            QCoreApplication.translate("ListView", "Retry loading the list")
        )
        self.label.setAccessibleName(QCoreApplication.translate("ListView", "List state"))

    def set_icon(self, name: str) -> None:
        """Show the icon ``name`` of ``ui/theme/icons.py`` above the text ("" for none)."""
        self.icon.set_icon(name or None)
        self.clear.setText(QCoreApplication.translate("ListView", "Clear filters"))
        self.clear.setAccessibleName(
            QCoreApplication.translate("ListView", "Clear the filters of the list")
        )


class PagedList(QWidget):
    """A :class:`PagedTableModel` shown with everything a list needs."""

    #: The row object of the current row, or None.
    currentRowChanged = Signal(object)
    #: Enter or a double click on a row: the row object (open its detail).
    rowActivated = Signal(object)
    #: Delete: the selected row objects (start the delete action, with its confirmation).
    deleteRequested = Signal(list)
    #: F2: the current row object (edit it).
    editRequested = Signal(object)

    def __init__(
        self,
        model: PagedTableModel[Any],
        *,
        id_column: str | None = None,
        export_name: str = "export.csv",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        self._export_name = export_name
        self._tasks: set[asyncio.Task[Any]] = set()

        self.filter_slot = QWidget(self)
        self.filter_slot.setObjectName("filterSlot")
        self._filter_layout = QHBoxLayout(self.filter_slot)
        self._filter_layout.setContentsMargins(0, 0, 0, 0)
        self.refresh_button = QToolButton(self)
        self.refresh_button.clicked.connect(self.refresh)
        self.export_button = QToolButton(self)
        self.export_button.clicked.connect(self.start_export)
        for button, name in (
            (self.refresh_button, "action.refresh"),
            (self.export_button, "action.export"),
        ):
            button.setIcon(icon(name))
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        # Saved views (``attach_views``): hidden until the list is joined to a store.
        self.views: ViewKeeper | None = None
        #: True once the person chose column widths (or a view brought some): not fitted then.
        self.widths_chosen = False
        self.filter_keeper: FilterKeeper | None = None
        self.filter_default: dict[str, Any] = {}
        self._empty_texts: tuple[str, str] | None = None
        self._empty_action: QAbstractButton | None = None
        self.views_button = QToolButton(self)
        self.views_button.setObjectName("viewsButton")
        self.views_button.setIcon(icon("action.filter"))
        self.views_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        # A popup, not the button's own menu: that one runs a nested event loop (qasync).
        self.views_menu = QMenu(self.views_button)
        self.views_button.clicked.connect(self.show_views_menu)
        self.views_button.hide()
        # The filters get the whole width; the list's own buttons sit at the bottom, beside the
        # row count (as in DBeaver's result viewer).
        bottom = QHBoxLayout()
        bottom.setContentsMargins(0, 0, 0, 0)

        self.table = QTableView(self)
        self.table.setModel(model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        #: The context menu, copies and keys (``ui/lists/table_actions.py``).
        self.table_actions = TableActions(
            self.table,
            id_column=id_column,
            row_of=lambda number: self.model.index(number, 0).data(RowRole),
        )
        self.table_actions.rowActivated.connect(self.rowActivated)
        self.table_actions.deleteRequested.connect(self.deleteRequested)
        self.table_actions.editRequested.connect(self.editRequested)
        self.row_actions = self.table_actions.row_actions
        self.row_buttons = self.table_actions.row_buttons
        self.copy_action = self.table_actions.copy_action
        header = self.table.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSectionsMovable(True)
        header.setSortIndicatorShown(model.sort_column >= 0)
        header.setSortIndicator(model.sort_column, model.sort_order)
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setDefaultSectionSize(160)
        # Fitting a column to its contents measures at most this many rows, those on screen
        # first (Qt's default is 1,000: a visible pause on long lists, docs/performance.md).
        header.setResizeContentsPrecision(FIT_ROWS)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        header.sectionClicked.connect(self._header_clicked)
        for i, column in enumerate(model.columns):
            self.table.setColumnHidden(i, column.hidden)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)

        self.overlay = StateOverlay(self.table.viewport())
        self.overlay.retryRequested.connect(self.model.retry)
        self.overlay.clearRequested.connect(self.clear_filters)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.table)
        self.splitter.setChildrenCollapsible(False)
        self.detail_widget: QWidget | None = None

        self.status = PlainLabel(self)
        self.status.setObjectName("listStatus")

        bottom.addWidget(self.status, 1)
        for button in (self.views_button, self.refresh_button, self.export_button):
            bottom.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.filter_slot)
        layout.addWidget(self.splitter, 1)
        layout.addLayout(bottom)

        self._fitted = False
        #: Fits the columns again once a resize (a maximised window) has settled.
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(80)
        self._refit.timeout.connect(self._fit_again)
        model.rowsInserted.connect(self._first_rows)
        # "8 selected" beside the row count
        self.table.selectionModel().selectionChanged.connect(self._update_state)
        model.stateChanged.connect(self._update_state)
        model.totalChanged.connect(self._update_state)
        model.rowsInserted.connect(self._update_state)
        model.modelReset.connect(self._update_state)
        self.retranslateUi()

    # -- slots for panels ----------------------------------------------------------------------

    def set_filter_bar(self, widget: QWidget) -> None:
        """Put a panel's filter controls above the table (their state now is the default)."""
        self._filter_layout.addWidget(widget)
        if self.filter_keeper is None:
            keeper = self.ensure_filter_keeper()
        else:
            keeper = self.filter_keeper
            keeper.watch()
        self.filter_default = keeper.state()

    def ensure_filter_keeper(self) -> FilterKeeper:
        """The keeper of the filter bar's state, made on first use."""
        from portal_admin.ui.lists.list_state import FilterKeeper

        if self.filter_keeper is None:
            self.filter_keeper = FilterKeeper(self.filter_slot, self._filters_edited)
        return self.filter_keeper

    def set_empty_texts(self, empty: str, no_match: str) -> None:
        """What the list says when there is nothing at all, and when its filters hide every
        row (translated texts; the panel sets them again when the language changes)."""
        self._empty_texts = (empty, no_match)
        self._update_state()

    def set_empty_action(self, button: QAbstractButton) -> None:
        """Offer ``button`` (as it stands: text, shown, enabled) on the list when it is empty
        without filters, e.g. "Invite" on an empty invitation list."""
        self._empty_action = button
        self.overlay.act.clicked.connect(button.click)
        self._update_state()

    def filtered(self) -> bool:
        """True when a filter differs from the list's default."""
        return self.filter_keeper is not None and self.filter_keeper.state() != self.filter_default

    def clear_filters(self) -> None:
        """Set the filters back to their default (sort and columns stay)."""
        if self.filter_keeper is not None:
            self.filter_keeper.restore(self.filter_default)

    def set_detail_widget(self, widget: QWidget) -> None:
        """Show ``widget`` beside the table (it follows ``currentRowChanged``)."""
        if self.detail_widget is not None:
            self.detail_widget.setParent(None)
        self.detail_widget = widget
        # A width limit suits a pane beside the list; below it the pane takes the full width.
        self._detail_max_width = widget.maximumWidth()
        self.splitter.addWidget(widget)
        # The table is what people scan: it gets about 70% of the room, the detail the rest.
        self.splitter.setStretchFactor(0, 7)
        self.splitter.setStretchFactor(1, 3)
        self._arrange()

    def show_detail(self, on: bool) -> None:
        """Show the detail pane, or fold it away so that the table has all the room (a
        panel folds it while nothing is chosen). Fitted columns fit the table's new width."""
        if self.detail_widget is not None and self.detail_widget.isVisibleTo(self) != on:
            self.detail_widget.setVisible(on)
            if on:
                self._arrange(force=True)
            if self._fitted:  # once the splitter has handed out the room
                QTimer.singleShot(0, self, self.fit_columns)

    def _arrange(self, *, force: bool = False) -> None:
        """The detail beside the list in a wide window, below it in a narrow one."""
        wanted = Qt.Orientation.Horizontal if self.width() >= WIDE else Qt.Orientation.Vertical
        if self.detail_widget is None or (wanted == self.splitter.orientation() and not force):
            return
        self.splitter.setOrientation(wanted)
        beside = wanted == Qt.Orientation.Horizontal
        self.detail_widget.setMaximumWidth(self._detail_max_width if beside else QWIDGETSIZE_MAX)
        self.splitter.setSizes([7000, 3000] if beside else [6000, 4000])

    def set_multi_select(self, on: bool = True) -> None:
        """Let the person select several rows (Shift/Ctrl click, Ctrl+A) for bulk actions;
        the detail pane keeps following the current row."""
        self.table_actions.set_multi_select(on)

    def selected_rows(self) -> list[Any]:
        """The row objects of the selected rows, in list order."""
        return self.table_actions.selected_rows()

    def current_row(self) -> Any:
        """The row object of the current row, or None."""
        return self.table_actions.current_row()

    # -- actions -------------------------------------------------------------------------------

    def fit_columns(self, maximum: int = 340) -> None:
        """Size the visible columns to their contents (measuring at most ``FIT_ROWS`` rows),
        at most ``maximum`` pixels each; the last visible column takes what is left. Widths the
        person chose (or a saved view brought) are kept. With no rows yet, the columns are
        fitted when the first rows arrive."""
        if self.widths_chosen:
            return
        if self.model.rowCount() == 0:  # only the titles to measure: fit when rows arrive
            self._fitted = False
            return
        self._fitted = True
        table = self.table
        # Qt stretches the last column to at least the width it had when stretching began:
        # stop stretching while fitting, so that it can narrow too.
        table.horizontalHeader().setStretchLastSection(False)
        table.resizeColumnsToContents()
        visible = self.visible_columns()
        widths = {c: min(table.columnWidth(c), maximum) for c in visible}
        room = table.viewport().width()
        bar = table.verticalScrollBar()
        if not bar.isVisible():  # it appears as more rows arrive: leave its room now
            room -= bar.sizeHint().width()
        if sum(widths.values()) > room:  # rather narrower wide columns than a scroll bar
            header = table.horizontalHeader()
            floors = {c: max(MIN_WIDTH, header.sectionSizeFromContents(c).width()) for c in visible}
            widths = share_out(widths, floors, room)
        for column, width in widths.items():
            table.setColumnWidth(column, width)
        if visible:  # hidden columns may come after the last visible one
            spare = room - sum(widths.values())
            if spare > 0:
                table.setColumnWidth(visible[-1], widths[visible[-1]] + spare)
        table.horizontalHeader().setStretchLastSection(True)

    def _fit_again(self) -> None:
        if self._fitted and not self.widths_chosen:
            self.fit_columns()

    def refresh(self) -> None:
        """Reload from the first page (F5)."""
        self.model.refresh()

    def copy_current(self) -> None:
        """Copy the current cell's text (Ctrl+C)."""
        self.table_actions.copy_current()

    def copy_id(self) -> None:
        """Copy the ids of the selected rows (of the current row when none is selected), one
        per line."""
        self.table_actions.copy_id()

    def add_row_actions(self, *actions: QAction) -> None:
        """Offer ``actions`` first in the context menu (a panel's row actions, enabled as
        they apply to the current row)."""
        self.table_actions.add_row_actions(*actions)

    def add_row_buttons(self, *buttons: QAbstractButton) -> None:
        """Offer a panel's action buttons in the context menu too: each appears as the button
        is when the menu opens (its text, whether it is shown and enabled, and why not)."""
        self.table_actions.add_row_buttons(*buttons)

    def visible_columns(self) -> list[int]:
        """The shown columns, in the order the header shows them."""
        return self.table_actions.visible_columns()

    def rows_as_table(self, rows: list[int]) -> list[list[str]]:
        """The titles of the visible columns, then the shown text of each of ``rows``."""
        return self.table_actions.rows_as_table(rows)

    def copy_rows_text(self) -> None:
        """Copy the selected rows as tab-separated text, with the column titles."""
        self.table_actions.copy_rows_text()

    def copy_rows_csv(self) -> None:
        """Copy the selected rows as CSV (the program's quoting and formula guard)."""
        self.table_actions.copy_rows_csv()

    def start_export(self) -> None:
        """Export the current query across all pages (asks where, shows progress)."""
        task = asyncio.ensure_future(self.export())
        self._tasks.add(task)
        task.add_done_callback(self._export_done)

    async def export(self) -> Any:
        """The export flow; returns the written path or None."""
        from .csv_export import exported_columns
        from .export_dialog import run_export

        visible = [c for i, c in enumerate(self.model.columns) if not self.table.isColumnHidden(i)]
        columns = exported_columns(self.model.columns, visible)
        return await run_export(self, columns, self.model.query(), self._export_name)

    def _export_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        from portal_admin.ui.file_work import file_error, is_file_error
        from portal_admin.ui.widgets.error_dialog import show_error

        exc = task.exception()
        assert exc is not None
        # the file could not be written, or the server or the network failed: the person is told
        if is_file_error(exc) or not describe_error(exc).unexpected:
            log.warning("export failed: %s", type(exc).__name__)
        else:
            log.error("export failed", exc_info=exc)
        show_error(file_error(exc), QCoreApplication.translate("ListView", "Export failed"), self)

    # -- saved views ---------------------------------------------------------------------------

    @property
    def view_name(self) -> str:
        """The list's name among its panel's lists (its object name, else its export name)."""
        return self.objectName() or self._export_name.removesuffix(".csv")

    def attach_views(self, store: ViewStore, key: str) -> ViewKeeper:
        """Keep this list's views and last state in ``store`` under ``key``; the list takes
        back the state it was left in, and the Views button appears."""
        from portal_admin.ui.lists.saved_views import ViewKeeper

        self.views = ViewKeeper(self, store, key)
        self.views.viewsChanged.connect(self._views_changed)
        self.views.problem.connect(self._view_problem)
        self.views_button.show()
        self._views_changed()
        return self.views

    def ask_view_name(self) -> None:
        """Ask a name for the current state and save it as a view."""
        from portal_admin.ui.lists.saved_view_dialog import ViewNameDialog

        if self.views is None:
            return
        keeper = self.views
        dialog = ViewNameDialog(keeper.names(), keeper.active or "", self)
        dialog.accepted.connect(lambda: keeper.save_as(dialog.name()))
        dialog.open()

    def show_views_menu(self) -> QMenu:
        """Open the Views menu above its button (it sits at the bottom of the list)."""
        menu = self.views_menu
        if self.views is not None:
            self.views.fill_menu(menu)
        place = self.views_button.mapToGlobal(QPoint(0, 0))
        menu.popup(QPoint(place.x(), place.y() - menu.sizeHint().height()))
        return menu

    def _views_changed(self) -> None:
        if self.views is not None:
            self.views_button.setText(self.views.title())

    def _filters_edited(self) -> None:
        if self.views is not None:
            self.views.filters_edited()

    def _view_problem(self, text: str) -> None:
        self.status.setText(text)

    # -- internals -----------------------------------------------------------------------------

    def _header_clicked(self, section: int) -> None:
        if self.model.columns[section].sort_field is None:
            return
        header = self.table.horizontalHeader()
        order = (
            Qt.SortOrder.DescendingOrder
            if self.model.sort_column == section
            and self.model.sort_order == Qt.SortOrder.AscendingOrder
            else Qt.SortOrder.AscendingOrder
        )
        header.setSortIndicatorShown(True)
        header.setSortIndicator(section, order)
        self.model.sort(section, order)

    def _header_menu(self, pos: QPoint) -> None:
        menu = self._new_menu()
        menu.setAccessibleName(QCoreApplication.translate("ListView", "Columns"))
        visible = sum(not self.table.isColumnHidden(i) for i in range(len(self.model.columns)))
        for i, column in enumerate(self.model.columns):
            action = menu.addAction(column.title())
            action.setCheckable(True)
            shown = not self.table.isColumnHidden(i)
            action.setChecked(shown)
            action.setEnabled(not (shown and visible == 1))
            action.toggled.connect(lambda on, i=i: self.table.setColumnHidden(i, not on))
        menu.popup(self.table.horizontalHeader().mapToGlobal(pos))

    def _new_menu(self) -> QMenu:
        """A fresh popup menu; the previous one is deleted (it is kept while open)."""
        old = getattr(self, "_menu", None)
        if old is not None:
            old.deleteLater()
        self._menu = QMenu(self)
        return self._menu

    def context_menu(self) -> QMenu:
        """The menu of the current row: the panel's row actions, then the copies."""
        return self.table_actions.context_menu()

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.currentRowChanged.emit(current.data(RowRole) if current.isValid() else None)

    def _first_rows(self, *_args: object) -> None:
        """Columns fit their contents when the first rows arrive (unless the person chose)."""
        if not self._fitted and not self.widths_chosen:
            self._fitted = True
            QTimer.singleShot(0, self, self.fit_columns)

    def _update_state(self, *_args: object) -> None:
        model = self.model
        state = model.state
        rows = model.rowCount()
        overlay_text = ""
        show_retry = show_clear = False
        self.overlay.set_icon("")
        if state is ListState.LOADING and rows == 0:
            self.overlay.set_icon("state.loading")
            overlay_text = QCoreApplication.translate("ListView", "Loading\u2026")
        elif state is ListState.EMPTY:
            self.overlay.set_icon("state.empty")
            filtered = self.filtered()
            empty, no_match = self._empty_texts or (
                QCoreApplication.translate("ListView", "Nothing to show."),
                QCoreApplication.translate("ListView", "Nothing matches these filters."),
            )
            overlay_text = no_match if filtered else empty
            show_clear = filtered
        elif state is ListState.ERROR and model.error is not None:
            self.overlay.set_icon("state.error")
            info = describe_error(model.error)
            parts = [
                QCoreApplication.translate("ListView", "The list could not be loaded."),
                info.summary,
            ]
            if info.code:
                parts.append(
                    fill(QCoreApplication.translate("ListView", "Error code: %1"), info.code)
                )
            if info.request_id:
                parts.append(
                    fill(QCoreApplication.translate("ListView", "Request id: %1"), info.request_id)
                )
            overlay_text = "\n".join(parts)
            show_retry = True
        self.overlay.label.setText(overlay_text)
        self.overlay.retry.setVisible(show_retry)
        self.overlay.clear.setVisible(show_clear)
        source = self._empty_action
        offer = (
            state is ListState.EMPTY
            and not show_clear
            and source is not None
            and source.isVisibleTo(self)
            and source.isEnabled()
        )
        if offer and source is not None:
            self.overlay.act.setText(source.text())
            self.overlay.act.setAccessibleName(source.accessibleName() or source.text())
        self.overlay.act.setVisible(offer)
        self.overlay.setVisible(bool(overlay_text) and (rows == 0 or show_retry))
        self._place_overlay()
        total = model.total
        if total is None:
            status = ""
        else:
            status = fill(
                QCoreApplication.translate("ListView", "Showing %1 of %2"),
                self.locale().toString(rows),
                self.locale().toString(total),
            )
        if state is ListState.LOADING and rows:
            status += "  " + QCoreApplication.translate("ListView", "Loading more\u2026")
        selected = len(self.table.selectionModel().selectedRows())
        several = self.table.selectionMode() != QAbstractItemView.SelectionMode.SingleSelection
        if selected and several:  # lists that select one row show it, nothing to count
            count = QCoreApplication.translate("ListView", "%n selected", None, selected)
            status += "  \u00b7  " + count
        self.status.setText(status)

    def _place_overlay(self) -> None:
        viewport = self.table.viewport()
        if self.model.rowCount() and self.overlay.isVisible():
            height = min(120, viewport.height())
            self.overlay.setGeometry(0, viewport.height() - height, viewport.width(), height)
            self.overlay.setAutoFillBackground(True)
        else:
            self.overlay.setGeometry(viewport.rect())
            self.overlay.setAutoFillBackground(False)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._arrange()
        self._place_overlay()
        if self._fitted and not self.widths_chosen:  # maximised, say: fit the new width
            self._refit.start()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self._place_overlay()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_F5 and not event.modifiers():
            self.refresh()
            event.accept()
            return
        super().keyPressEvent(event)

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.refresh_button.setText(QCoreApplication.translate("ListView", "Refresh"))
        self.refresh_button.setToolTip(
            QCoreApplication.translate("ListView", "Reload the list (F5)")
        )
        self.refresh_button.setAccessibleName(QCoreApplication.translate("ListView", "Refresh"))
        self.export_button.setText(QCoreApplication.translate("ListView", "Export CSV\u2026"))
        self.export_button.setToolTip(
            QCoreApplication.translate("ListView", "Export every row of this view to a CSV file")
        )
        self.export_button.setAccessibleName(QCoreApplication.translate("ListView", "Export CSV"))
        self.table.setAccessibleName(
            self.accessibleName() or QCoreApplication.translate("ListView", "List")
        )
        self.status.setAccessibleName(QCoreApplication.translate("ListView", "List status"))
        self.filter_slot.setAccessibleName(QCoreApplication.translate("ListView", "Filters"))
        self.copy_action.setText(QCoreApplication.translate("ListView", "Copy"))
        self.views_button.setToolTip(
            QCoreApplication.translate(
                "ListView", "Saved views: filters, sort and columns kept on this computer"
            )
        )
        self.views_button.setAccessibleName(QCoreApplication.translate("ListView", "Views"))
        self._views_changed()
        self.overlay.retranslateUi()
        self.model.retranslate()
        self._update_state()

    def setAccessibleName(self, name: str) -> None:
        """Name the list, and its table too: a screen reader announces the table by it (for
        example "Login history" rather than "List")."""
        super().setAccessibleName(name)
        self.table.setAccessibleName(name or QCoreApplication.translate("ListView", "List"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
