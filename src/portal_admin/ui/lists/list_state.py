"""What a list looks like, as plain JSON: its filters, its sort, its columns.

The filters are read from the named input widgets of the list's filter bar (line edits, combo
boxes and pickers, check boxes, dates, and lists of checkable items, kept as the items left
unchecked so that a choice the server adds later is chosen), so every panel's filters are
kept without the panel describing them. Setting a widget emits its usual signals: the panel
reacts as if the person had changed it. A choice that is not offered yet (a combo box filled
from the server later) is kept *pending* and chosen when it appears.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QDate, QObject, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDateEdit,
    QLineEdit,
    QListWidget,
    QTableView,
    QWidget,
)

from .paged_model import PagedTableModel

State = dict[str, Any]
_CHECKED = Qt.CheckState.Checked


def filter_widgets(root: QWidget) -> list[QWidget]:
    """The named filter inputs under ``root`` (Qt's own inner widgets excluded)."""
    found = []
    for widget in root.findChildren(QWidget):
        name = widget.objectName()
        if not name or name.startswith("qt_"):
            continue
        if isinstance(widget, QLineEdit) and isinstance(widget.parent(), QComboBox):
            continue
        checkable = isinstance(widget, QAbstractButton) and widget.isCheckable()
        if checkable or isinstance(widget, QLineEdit | QComboBox | QDateEdit | QListWidget):
            found.append(widget)
    return found


def _value(widget: QWidget) -> Any:
    if isinstance(widget, QLineEdit):
        return widget.text()
    if isinstance(widget, QAbstractButton):
        return widget.isChecked()
    if isinstance(widget, QDateEdit):
        return widget.date().toString(Qt.DateFormat.ISODate)
    if isinstance(widget, QListWidget):  # the items left out: new choices count as chosen
        return [
            widget.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(widget.count())
            if widget.item(i).checkState() != _CHECKED
        ]
    code = getattr(widget, "code", None)
    if callable(code):  # a Picker: its code, whether offered or typed
        return code()
    assert isinstance(widget, QComboBox)
    return widget.currentData()


class FilterKeeper(QObject):
    """Reads and sets the filters under ``root``; ``changed`` is called on any change."""

    def __init__(self, root: QWidget, changed: Callable[[], None]) -> None:
        super().__init__(root)
        self.root = root
        self._changed = changed
        self._pending: dict[str, Any] = {}
        self._watched: set[int] = set()
        self.watch()

    def watch(self) -> None:
        """Follow the changes of every filter input (those added later too, when called again)."""
        for widget in filter_widgets(self.root):
            if id(widget) in self._watched:
                continue
            self._watched.add(id(widget))
            signal: Any
            if isinstance(widget, QLineEdit):
                signal = widget.textChanged
            elif isinstance(widget, QAbstractButton):
                signal = widget.toggled
            elif isinstance(widget, QDateEdit):
                signal = widget.dateChanged
            else:
                assert isinstance(widget, QListWidget | QComboBox)
                if isinstance(widget, QListWidget):
                    signal = widget.itemChanged
                else:
                    signal = widget.currentIndexChanged
                model = widget.model()
                # By name: the widget may be gone when its model says so (it clears on exit).
                name = widget.objectName()
                model.rowsInserted.connect(lambda *_a, n=name: self._offer_soon(n))
                model.modelReset.connect(lambda n=name: self._offer_soon(n))
            signal.connect(lambda *_a, w=widget: self._edited(w))

    def state(self) -> State:
        """Every filter's value by name (a pending choice counts as chosen)."""
        values = {w.objectName(): _value(w) for w in filter_widgets(self.root)}
        values.update(self._pending)
        return values

    def restore(self, state: State) -> None:
        """Set the filters to ``state`` (names it does not know are left as they are)."""
        self._pending.clear()
        widgets = {w.objectName(): w for w in filter_widgets(self.root)}
        # Check boxes first: they may enable the inputs they guard.
        ordered = sorted(widgets.items(), key=lambda kv: not isinstance(kv[1], QAbstractButton))
        for name, widget in ordered:
            if name in state and not self._set(widget, state[name]):
                self._pending[name] = state[name]

    def _set(self, widget: QWidget, value: Any) -> bool:
        """Set one input; False when the value is not offered (yet)."""
        if isinstance(widget, QLineEdit):
            widget.setText(str(value or ""))
        elif isinstance(widget, QAbstractButton):
            widget.setChecked(bool(value))
        elif isinstance(widget, QDateEdit):
            date = QDate.fromString(str(value), Qt.DateFormat.ISODate)
            if date.isValid():
                widget.setDate(date)
        elif isinstance(widget, QListWidget):
            left_out = set(value) if isinstance(value, list) else set()
            offered = set()
            for i in range(widget.count()):
                item = widget.item(i)
                code = item.data(Qt.ItemDataRole.UserRole)
                offered.add(code)
                item.setCheckState(Qt.CheckState.Unchecked if code in left_out else _CHECKED)
            return left_out <= offered  # else: the rest when they are offered
        elif callable(getattr(widget, "set_code", None)):
            widget.set_code(value)  # type: ignore[attr-defined]
        else:
            assert isinstance(widget, QComboBox)
            index = widget.findData(value)
            if index < 0:
                return False
            widget.setCurrentIndex(index)
        return True

    def _offer_soon(self, name: str) -> None:
        """Choices arrive one by one while a panel fills a list: choose once it is done."""
        if name in self._pending:
            QTimer.singleShot(0, self, lambda: self._offered(name))

    def _offered(self, name: str) -> None:
        if name not in self._pending:
            return
        for widget in filter_widgets(self.root):
            if widget.objectName() == name and self._set(widget, self._pending[name]):
                del self._pending[name]
                return

    def _edited(self, widget: QWidget) -> None:
        if not widget.signalsBlocked():
            self._changed()


# -- the table ---------------------------------------------------------------------------------


def table_state(table: QTableView, model: PagedTableModel[Any]) -> State:
    """The sort and the columns (in the order shown: key, shown, width)."""
    header = table.horizontalHeader()
    logical = sorted(range(len(model.columns)), key=header.visualIndex)
    sort = None
    if model.sort_column >= 0:
        descending = model.sort_order == Qt.SortOrder.DescendingOrder
        sort = {
            "key": model.columns[model.sort_column].key,
            "order": "desc" if descending else "asc",
        }
    return {
        "sort": sort,
        "columns": [
            {
                "key": model.columns[c].key,
                "shown": not table.isColumnHidden(c),
                "width": table.columnWidth(c),
            }
            for c in logical
        ],
    }


def apply_table_state(table: QTableView, model: PagedTableModel[Any], state: State) -> bool:
    """Show the columns and sort of ``state``; True when it named column widths."""
    keys = [c.key for c in model.columns]
    header = table.horizontalHeader()
    widths = False
    columns = [
        c for c in state.get("columns") or [] if isinstance(c, dict) and c.get("key") in keys
    ]
    for position, column in enumerate(columns):
        logical = keys.index(column["key"])
        header.moveSection(header.visualIndex(logical), position)
    shown = [c for c in columns if c.get("shown", True)]
    for column in columns:
        logical = keys.index(column["key"])
        table.setColumnHidden(logical, bool(shown) and not column.get("shown", True))
        width = column.get("width")
        if isinstance(width, int) and 10 <= width <= 4000:
            table.setColumnWidth(logical, width)
            widths = True
    sort = state.get("sort")
    current = (
        (model.columns[model.sort_column].key, model.sort_order) if model.sort_column >= 0 else None
    )
    if isinstance(sort, dict) and sort.get("key") in keys:
        order = (
            Qt.SortOrder.DescendingOrder
            if sort.get("order") == "desc"
            else Qt.SortOrder.AscendingOrder
        )
        if current != (sort["key"], order):
            model.sort(keys.index(sort["key"]), order)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(model.sort_column, model.sort_order)
    return widths
