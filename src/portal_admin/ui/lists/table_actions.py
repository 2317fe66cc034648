"""The same context menu, copies and keys on every list of the program.

:class:`TableActions` attaches to any item view (a ``QTableView``, ``QTableWidget`` or
``QListWidget``): its context menu offers the panel's row actions (``add_row_actions``) and its
mirrored action buttons (``add_row_buttons``), then copy the cell, copy the chosen rows as text or
CSV (the visible columns, in the order shown, with their titles), copy the ids. Ctrl+C copies the
current cell; Enter (or a double click) emits ``rowActivated``, Delete ``deleteRequested`` with the
chosen rows, F2 ``editRequested``: panels connect what they offer. A key nobody listens to is left
to the view (so Enter still reaches a dialog's default button).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QMetaMethod,
    QModelIndex,
    QObject,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QAbstractItemView, QMenu, QTableView

from portal_admin.files.csv_rules import neutralize, writer
from portal_admin.ui.theme.icons import icon

#: The translation context of the menu's texts (they began in the list widget, then ``ListView``).
CONTEXT = "ListView"


class TableActions(QObject):
    """The context menu, copies and keys of ``view``.

    ``id_column`` is the column holding a row's id (its number, or its header title or model
    column key), None for no "Copy id"; ``row_of`` turns a row number into the object the signals
    carry (by default the row number itself).
    """

    #: Enter or a double click on a row: the row object (open it, or do its main thing).
    rowActivated = Signal(object)
    #: Delete: the chosen row objects (start the delete action, with its confirmation).
    deleteRequested = Signal(list)
    #: F2: the current row object (edit it).
    editRequested = Signal(object)

    def __init__(
        self,
        view: QAbstractItemView,
        *,
        id_column: int | str | None = None,
        row_of: Callable[[int], Any] | None = None,
    ) -> None:
        super().__init__(view)
        self.view = view
        self.id_column = id_column
        self._row_of = row_of or (lambda number: number)
        self.row_actions: list[QAction] = []
        self.row_buttons: list[QAbstractButton] = []
        self._menu: QMenu | None = None
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._popup)
        view.doubleClicked.connect(self._double_clicked)
        view.installEventFilter(self)
        self.copy_action = QAction(view)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.copy_action.triggered.connect(self.copy_current)
        view.addAction(self.copy_action)
        self.retranslate()

    # -- what the panel offers ---------------------------------------------------------------

    def add_row_actions(self, *actions: QAction) -> None:
        """Offer ``actions`` first in the context menu (enabled as they apply to the rows)."""
        self.row_actions.extend(actions)

    def add_row_buttons(self, *buttons: QAbstractButton) -> None:
        """Offer a panel's action buttons in the context menu too: each appears as the button
        is when the menu opens (its text, whether it is shown and enabled, and why not)."""
        self.row_buttons.extend(buttons)

    def set_multi_select(self, on: bool = True) -> None:
        """Let the person select several rows (Shift/Ctrl click, Ctrl+A)."""
        self.view.setSelectionMode(
            QAbstractItemView.SelectionMode.ExtendedSelection
            if on
            else QAbstractItemView.SelectionMode.SingleSelection
        )

    # -- rows and columns --------------------------------------------------------------------

    def selected_numbers(self) -> list[int]:
        """The numbers of the selected rows, in list order."""
        return sorted({i.row() for i in self.view.selectionModel().selectedIndexes()})

    def chosen_numbers(self) -> list[int]:
        """The selected rows, else the current one, in list order."""
        rows = self.selected_numbers()
        current = self.view.currentIndex()
        if not rows and current.isValid():
            rows = [current.row()]
        return rows

    def selected_rows(self) -> list[Any]:
        """The row objects of the selected rows, in list order."""
        return [self._row_of(r) for r in self.selected_numbers()]

    def chosen_rows(self) -> list[Any]:
        """The row objects of the selected rows, else of the current one."""
        return [self._row_of(r) for r in self.chosen_numbers()]

    def current_row(self) -> Any:
        """The row object of the current row, or None."""
        index = self.view.currentIndex()
        return self._row_of(index.row()) if index.isValid() else None

    def visible_columns(self) -> list[int]:
        """The shown columns, in the order the header shows them."""
        view = self.view
        if not isinstance(view, QTableView):
            return [getattr(view, "modelColumn", lambda: 0)()]
        header = view.horizontalHeader()
        shown = [c for c in range(view.model().columnCount()) if not view.isColumnHidden(c)]
        return sorted(shown, key=header.visualIndex)

    def rows_as_table(self, rows: list[int]) -> list[list[str]]:
        """The titles of the visible columns (tables only), then the shown text of ``rows``."""
        model = self.view.model()
        columns = self.visible_columns()
        table: list[list[str]] = []
        if isinstance(self.view, QTableView):
            table.append([self._title(c) for c in columns])
        for row in rows:
            table.append([str(model.index(row, c).data() or "") for c in columns])
        return table

    def _title(self, column: int) -> str:
        return str(self.view.model().headerData(column, Qt.Orientation.Horizontal) or "")

    def _id_index(self) -> int | None:
        """The model column of the ids, or None."""
        wanted = self.id_column
        if wanted is None or isinstance(wanted, int):
            return wanted
        model = self.view.model()
        for i, column in enumerate(getattr(model, "columns", ())):
            if getattr(column, "key", None) == wanted:
                return i
        for i in range(model.columnCount()):
            if self._title(i) == wanted:
                return i
        return None

    # -- copies ------------------------------------------------------------------------------

    def copy_current(self) -> None:
        """Copy the current cell's text (Ctrl+C)."""
        index = self.view.currentIndex()
        if index.isValid():
            QGuiApplication.clipboard().setText(str(index.data() or ""))

    def copy_id(self) -> None:
        """Copy the ids of the chosen rows, one per line."""
        column = self._id_index()
        if column is None:
            return
        model = self.view.model()
        ids = [str(model.index(r, column).data() or "") for r in self.chosen_numbers()]
        text = "\n".join(i for i in ids if i)
        if text:
            QGuiApplication.clipboard().setText(text)

    def copy_rows_text(self) -> None:
        """Copy the chosen rows as tab-separated text, with the column titles."""
        rows = self.chosen_numbers()
        if rows:
            lines = ("\t".join(cells) for cells in self.rows_as_table(rows))
            QGuiApplication.clipboard().setText("\n".join(lines))

    def copy_rows_csv(self) -> None:
        """Copy the chosen rows as CSV (the program's quoting and formula guard)."""
        rows = self.chosen_numbers()
        if not rows:
            return
        buffer = io.StringIO()
        out = writer(buffer, ",")
        for cells in self.rows_as_table(rows):
            out.writerow([neutralize(c) for c in cells])
        QGuiApplication.clipboard().setText(buffer.getvalue())

    # -- the menu ----------------------------------------------------------------------------

    def context_menu(self) -> QMenu:
        """The menu of the chosen rows: the panel's row actions, then the copies."""
        if self._menu is not None:  # the previous one goes (it is kept while open)
            self._menu.deleteLater()
        menu = self._menu = QMenu(self.view)
        menu.setAccessibleName(QCoreApplication.translate("ListView", "Row actions"))
        visible = [a for a in self.row_actions if a.isVisible()]
        for action in visible:
            menu.addAction(action)
        for button in self.row_buttons:
            if button.isHidden():
                continue
            mirror = menu.addAction(button.icon(), button.text())
            mirror.setEnabled(button.isEnabled())
            mirror.setToolTip(button.toolTip())
            mirror.triggered.connect(button.click)
            visible.append(mirror)
        if visible:
            menu.addSeparator()
            menu.setToolTipsVisible(True)
        several = len(self.chosen_numbers()) > 1
        menu.addAction(
            icon("action.copy"), QCoreApplication.translate("ListView", "Copy cell")
        ).triggered.connect(self.copy_current)
        text = (
            QCoreApplication.translate("ListView", "Copy rows as text")
            if several
            else QCoreApplication.translate("ListView", "Copy row as text")
        )
        menu.addAction(text).triggered.connect(self.copy_rows_text)
        csv = (
            QCoreApplication.translate("ListView", "Copy rows as CSV")
            if several
            else QCoreApplication.translate("ListView", "Copy row as CSV")
        )
        menu.addAction(csv).triggered.connect(self.copy_rows_csv)
        if self.id_column is not None:
            ids = (
                QCoreApplication.translate("ListView", "Copy ids")
                if several
                else QCoreApplication.translate("ListView", "Copy id")
            )
            menu.addAction(ids).triggered.connect(self.copy_id)
        return menu

    def _popup(self, pos: QPoint) -> None:
        if self.view.indexAt(pos).isValid():
            self.context_menu().popup(self.view.viewport().mapToGlobal(pos))

    # -- keys --------------------------------------------------------------------------------

    def _listened(self, signal: Any) -> bool:
        return self.isSignalConnected(QMetaMethod.fromSignal(signal))

    def _double_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.rowActivated.emit(self._row_of(index.row()))

    def _key(self, key: int) -> bool:
        """Emit what ``key`` asks for, if somebody listens; True when it was used."""
        current = self.view.currentIndex()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F2):
            signal = self.editRequested if key == Qt.Key.Key_F2 else self.rowActivated
            if not current.isValid() or not self._listened(signal):
                return False
            signal.emit(self._row_of(current.row()))
            return True
        if key == Qt.Key.Key_Delete and self._listened(self.deleteRequested):
            rows = self.chosen_rows()
            if rows:
                self.deleteRequested.emit(rows)
                return True
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter activates the current row, Delete asks to delete the chosen rows, F2 edits."""
        if watched is self.view and event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        if watched is self.view and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key, plain = event.key(), not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            editing = self.view.state() == QAbstractItemView.State.EditingState
            if plain and not editing and self._key(key):
                return True
        return super().eventFilter(watched, event)

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.copy_action.setText(QCoreApplication.translate("ListView", "Copy"))
