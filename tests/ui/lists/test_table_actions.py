"""TableActions: the same context menu, copies and keys on any item view."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListWidget,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
)
from pytestqt.qtbot import QtBot

from portal_admin.ui.lists.table_actions import TableActions

ROWS = [
    ("id-1", "Ada", "ada@example.com"),
    ("id-2", "=SUM(A1)", "bob@example.com"),  # a formula must not reach a spreadsheet as one
    ("id-3", "Cy", "cy@example.com"),
]


def table(qtbot: QtBot) -> QTableWidget:
    widget = QTableWidget(len(ROWS), 3)
    widget.setHorizontalHeaderLabels(["Id", "Name", "Email"])
    widget.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    widget.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    for r, row in enumerate(ROWS):
        for c, text in enumerate(row):
            widget.setItem(r, c, QTableWidgetItem(text))
    qtbot.addWidget(widget)
    widget.resize(500, 300)
    widget.show()
    return widget


def select(view: QAbstractItemView, *rows: int) -> None:
    flags = QItemSelectionModel.SelectionFlag
    selection = view.selectionModel()
    selection.clearSelection()
    view.setCurrentIndex(view.model().index(rows[0], 0))
    selection.clearSelection()
    for row in rows:
        selection.select(view.model().index(row, 0), flags.Select | flags.Rows)


def texts(menu: QMenu) -> list[str]:
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def clipboard() -> str:
    return QGuiApplication.clipboard().text()


def test_the_menu_offers_the_copies_singular_and_plural(qtbot: QtBot) -> None:
    view = table(qtbot)
    actions = TableActions(view, id_column=0, row_of=lambda r: ROWS[r])
    assert view.contextMenuPolicy() == Qt.ContextMenuPolicy.CustomContextMenu
    select(view, 0)
    assert texts(actions.context_menu()) == [
        "Copy cell",
        "Copy row as text",
        "Copy row as CSV",
        "Copy id",
    ]
    actions.set_multi_select()
    assert view.selectionMode() == QAbstractItemView.SelectionMode.ExtendedSelection
    select(view, 0, 2)
    assert texts(actions.context_menu()) == [
        "Copy cell",
        "Copy rows as text",
        "Copy rows as CSV",
        "Copy ids",
    ]
    assert actions.selected_rows() == [ROWS[0], ROWS[2]]
    assert "Copy id" not in texts(TableActions(view).context_menu())  # no id column: no entry


def test_row_actions_and_mirrored_buttons_come_first(qtbot: QtBot) -> None:
    view = table(qtbot)
    actions = TableActions(view)
    delete = QAction("Delete\u2026", view)
    hidden_action = QAction("Not here", view)
    hidden_action.setVisible(False)
    edit, gone = QPushButton("Edit\u2026", view), QPushButton("Gone", view)  # a panel's buttons
    edit.show()
    edit.setEnabled(False)
    edit.setToolTip("Choose one row.")
    gone.hide()
    actions.add_row_actions(delete, hidden_action)
    actions.add_row_buttons(edit, gone)
    select(view, 1)
    menu = actions.context_menu()
    entries = menu.actions()
    assert entries[0] is delete and entries[2].isSeparator()
    mirror = entries[1]
    assert mirror.text() == "Edit\u2026" and not mirror.isEnabled()
    assert mirror.toolTip() == "Choose one row."
    assert "Not here" not in texts(menu) and "Gone" not in texts(menu)
    clicked: list[bool] = []
    edit.setEnabled(True)
    edit.clicked.connect(lambda: clicked.append(True))
    mirror = actions.context_menu().actions()[1]
    assert mirror.isEnabled()
    mirror.trigger()
    assert clicked == [True]  # the mirror clicks the button


def test_copies_as_text_and_csv_with_titles_and_the_formula_guard(qtbot: QtBot) -> None:
    view = table(qtbot)
    actions = TableActions(view, id_column="Id")  # by header title
    actions.set_multi_select()
    view.setColumnHidden(2, True)  # only the visible columns are copied
    view.horizontalHeader().moveSection(1, 0)  # in the order shown
    select(view, 0, 1)
    actions.copy_rows_text()
    assert clipboard().splitlines() == ["Name\tId", "Ada\tid-1", "=SUM(A1)\tid-2"]
    actions.copy_rows_csv()
    lines = clipboard().splitlines()
    assert lines[0] == '"Name","Id"'
    assert lines[2] == '"\'=SUM(A1)","id-2"'  # neutralized, as in exported files
    actions.copy_id()
    assert clipboard() == "id-1\nid-2"
    view.setCurrentIndex(view.model().index(2, 1))
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert clipboard() == "Cy"  # Ctrl+C: the current cell


def test_the_copies_take_the_current_row_when_none_is_selected(qtbot: QtBot) -> None:
    view = table(qtbot)
    actions = TableActions(view, id_column=0)
    view.setCurrentIndex(view.model().index(2, 0))
    view.selectionModel().clearSelection()
    actions.copy_rows_text()
    assert clipboard().splitlines() == ["Id\tName\tEmail", "id-3\tCy\tcy@example.com"]
    actions.copy_id()
    assert clipboard() == "id-3"


def test_enter_delete_and_f2_emit_what_the_panel_connects(qtbot: QtBot) -> None:
    view = table(qtbot)
    actions = TableActions(view, row_of=lambda r: ROWS[r][0])
    actions.set_multi_select()
    opened: list[Any] = []
    deleted: list[list[Any]] = []
    edited: list[Any] = []
    actions.rowActivated.connect(opened.append)
    actions.deleteRequested.connect(deleted.append)
    actions.editRequested.connect(edited.append)
    view.setFocus()
    view.setCurrentIndex(view.model().index(1, 0))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.keyClick(view, Qt.Key.Key_F2)
    qtbot.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert opened == ["id-2"] and edited == ["id-2"] and deleted == [["id-2", "id-3"]]
    where = view.visualRect(view.model().index(0, 1)).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert opened[-1] == "id-1"


def test_keys_nobody_listens_to_are_left_to_the_view(qtbot: QtBot) -> None:
    view = table(qtbot)
    TableActions(view)
    activated: list[int] = []
    view.activated.connect(lambda index: activated.append(index.row()))
    view.setFocus()
    view.setCurrentIndex(view.model().index(2, 0))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert activated == [2]  # Qt's own handling (a dialog's default button still works)


def test_a_list_widget_copies_its_rows_without_titles(qtbot: QtBot) -> None:
    view = QListWidget()
    qtbot.addWidget(view)
    view.addItems(["alpha", "=cmd|' /C calc'!A0", "gamma"])
    actions = TableActions(view)
    actions.set_multi_select()
    select(view, 0, 1)
    assert texts(actions.context_menu()) == ["Copy cell", "Copy rows as text", "Copy rows as CSV"]
    actions.copy_rows_text()
    assert clipboard() == "alpha\n=cmd|' /C calc'!A0"
    actions.copy_rows_csv()
    assert clipboard().splitlines() == ['"alpha"', "\"'=cmd|' /C calc'!A0\""]
    deleted: list[list[Any]] = []
    actions.deleteRequested.connect(deleted.append)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert deleted == [[0, 1]]  # row numbers when no row_of is given
