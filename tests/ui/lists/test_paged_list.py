"""ListView: states, copy, F5, column chooser, header sorting; screenshots."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel

from portal_admin.ui.lists.paged_list import PagedList
from portal_admin.ui.lists.paged_model import PagedTableModel, RowRole

from ..fakes import FakeCollection, people
from .test_paged_model import COLUMNS


def make_view(qtbot, coll: FakeCollection) -> PagedList:  # type: ignore[no-untyped-def]
    view = PagedList(PagedTableModel(COLUMNS, coll.fetch), id_column="id", export_name="people.csv")
    qtbot.addWidget(view)
    view.resize(800, 420)
    view.show()
    return view


def test_loads_and_shows_rows(loop, qtbot, shots: Path) -> None:
    coll = FakeCollection(items=people(1000))
    view = make_view(qtbot, coll)
    detail = QLabel("detail")
    view.set_detail_widget(detail)
    rows: list[object] = []
    view.currentRowChanged.connect(rows.append)

    async def scenario() -> None:
        view.refresh()
        await view.model.wait_idle()
        await asyncio.sleep(0.05)  # let the view lay out (and maybe fetch more)
        await view.model.wait_idle()

    loop.run_until_complete(scenario())
    assert view.model.rowCount() >= 100
    assert not view.overlay.isVisible()
    assert "of 1,000" in view.status.text() or "of 1000" in view.status.text()
    view.table.setCurrentIndex(view.model.index(2, 1))
    assert rows[-1] == coll.items[2]
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "Person 00002"
    view.copy_id()
    assert QGuiApplication.clipboard().text() == "id-00002"
    view.grab().save(str(shots / "list-view.png"))


def test_scrolling_fetches_more(loop, qtbot) -> None:
    coll = FakeCollection(items=people(10_000))
    view = make_view(qtbot, coll)

    async def scenario() -> None:
        view.refresh()
        await view.model.wait_idle()
        for _ in range(5):
            view.table.scrollToBottom()
            await asyncio.sleep(0.02)
            await view.model.wait_idle()

    loop.run_until_complete(scenario())
    assert view.model.rowCount() >= 400
    assert len(coll.calls) == view.model.rowCount() // 100


def test_empty_and_error_states(loop, qtbot, shots: Path) -> None:
    coll = FakeCollection(items=[])
    view = make_view(qtbot, coll)

    async def load() -> None:
        view.refresh()
        await view.model.wait_idle()

    loop.run_until_complete(load())
    assert view.overlay.isVisible()
    assert view.overlay.label.text() == "Nothing to show."
    view.grab().save(str(shots / "list-view-empty.png"))

    coll.items = people(10)
    coll.fail_pages = {0}
    loop.run_until_complete(load())
    text = view.overlay.label.text()
    assert "could not be loaded" in text and "SYS.INTERNAL" in text and "req-123" in text
    assert view.overlay.retry.isVisible()
    view.grab().save(str(shots / "list-view-error.png"))

    coll.fail_pages = set()

    async def retry() -> None:
        qtbot.mouseClick(view.overlay.retry, Qt.MouseButton.LeftButton)
        await view.model.wait_idle()

    loop.run_until_complete(retry())
    assert view.model.rowCount() == 10
    assert not view.overlay.isVisible()


def test_loading_state(loop, qtbot) -> None:
    coll = FakeCollection(gate=asyncio.Event())
    view = make_view(qtbot, coll)

    async def scenario() -> None:
        view.refresh()
        await asyncio.sleep(0.01)
        assert view.overlay.isVisible()
        assert view.overlay.label.text() == "Loading…"
        assert coll.gate is not None
        coll.gate.set()
        await view.model.wait_idle()

    loop.run_until_complete(scenario())


def test_f5_and_header_sort(loop, qtbot) -> None:
    coll = FakeCollection(items=people(120))
    view = make_view(qtbot, coll)

    async def scenario() -> None:
        view.refresh()
        await view.model.wait_idle()
        qtbot.keyClick(view.table, Qt.Key.Key_F5)
        await view.model.wait_idle()
        assert coll.calls[-1] == (0, 100, [])
        view.table.horizontalHeader().sectionClicked.emit(3)
        await view.model.wait_idle()
        assert coll.calls[-1][2] == [("age", "asc")]
        view.table.horizontalHeader().sectionClicked.emit(3)
        await view.model.wait_idle()
        assert coll.calls[-1][2] == [("age", "desc")]
        calls = len(coll.calls)
        view.table.horizontalHeader().sectionClicked.emit(0)  # not sortable
        await asyncio.sleep(0.01)
        assert len(coll.calls) == calls

    loop.run_until_complete(scenario())
    assert view.table.horizontalHeader().sortIndicatorSection() == 3
    assert f5_first_call_seen(coll)


def f5_first_call_seen(coll: FakeCollection) -> bool:
    return sum(1 for c in coll.calls if c[0] == 0 and c[2] == []) >= 2


def test_column_chooser(loop, qtbot) -> None:
    view = make_view(qtbot, FakeCollection(items=people(3)))
    view._header_menu(view.table.horizontalHeader().rect().center())
    menu = view._menu
    actions = menu.actions()
    assert [a.text() for a in actions] == ["Id", "Name", "Email", "Age"]
    actions[2].setChecked(False)
    assert view.table.isColumnHidden(2)
    menu.close()
    actions[2].setChecked(True)
    assert not view.table.isColumnHidden(2)


class CountingModel(PagedTableModel):  # type: ignore[type-arg]
    """Counts the rows whose cells are asked for."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.rows_asked: set[int] = set()

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
        self.rows_asked.add(index.row())
        return super().data(index, role)


def test_fitting_columns_measures_a_screenful_not_every_row(loop, qtbot) -> None:
    from portal_admin.ui.lists.paged_list import FIT_ROWS

    coll = FakeCollection(items=people(1000))
    model = CountingModel(COLUMNS, coll.fetch)
    view = PagedList(model, id_column="id")
    qtbot.addWidget(view)
    view.resize(800, 420)
    view.show()

    async def scenario() -> None:
        view.refresh()
        await model.wait_idle()

    loop.run_until_complete(scenario())
    assert model.rowCount() >= 100
    model.rows_asked.clear()
    view.table.resizeColumnsToContents()
    assert 0 < len(model.rows_asked) <= FIT_ROWS  # Qt's default would be every loaded row


def _loaded(loop, qtbot, items) -> PagedList:  # type: ignore[no-untyped-def]
    view = make_view(qtbot, FakeCollection(items=items))
    view.set_multi_select()

    async def load() -> None:
        view.refresh()
        await view.model.wait_idle()

    loop.run_until_complete(load())
    return view


def test_context_menu_copies_rows_as_text_and_csv_and_ids(loop, qtbot) -> None:
    items = people(5)
    # A formula in a cell must not reach a spreadsheet as one.
    items[1] = dataclasses.replace(items[1], name="=SUM(A1)")
    view = _loaded(loop, qtbot, items)
    view.table.setColumnHidden(3, True)  # only the visible columns are copied
    view.table.horizontalHeader().moveSection(2, 0)  # in the order shown
    selection = view.table.selectionModel()
    view.table.setCurrentIndex(view.model.index(0, 0))
    for row in (0, 1):
        selection.select(
            view.model.index(row, 0),
            selection.SelectionFlag.Select | selection.SelectionFlag.Rows,
        )
    menu = view.context_menu()
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert texts == ["Copy cell", "Copy rows as text", "Copy rows as CSV", "Copy ids"]
    view.copy_rows_text()
    assert QGuiApplication.clipboard().text().splitlines() == [
        "Email\tId\tName",
        "p0@example.com\tid-00000\tPerson 00000",
        "p1@example.com\tid-00001\t=SUM(A1)",
    ]
    view.copy_rows_csv()
    lines = QGuiApplication.clipboard().text().splitlines()
    assert lines[0] == '"Email","Id","Name"'  # the program's CSV rules (files.csv_rules)
    assert lines[2].endswith('"\'=SUM(A1)"')  # neutralized, as in exported files
    view.copy_id()
    assert QGuiApplication.clipboard().text() == "id-00000\nid-00001"
    selection.clearSelection()
    single = [a.text() for a in view.context_menu().actions() if not a.isSeparator()]
    assert single == ["Copy cell", "Copy row as text", "Copy row as CSV", "Copy id"]


def test_row_actions_come_first_and_follow_their_state(loop, qtbot) -> None:
    from PySide6.QtGui import QAction

    view = _loaded(loop, qtbot, people(3))
    delete = QAction("Delete\u2026", view)
    hidden = QAction("Not here", view)
    hidden.setVisible(False)
    view.add_row_actions(delete, hidden)
    view.table.setCurrentIndex(view.model.index(0, 0))
    actions = view.context_menu().actions()
    assert actions[0] is delete and hidden not in actions and actions[1].isSeparator()


def test_enter_delete_and_f2_ask_the_panel(loop, qtbot) -> None:
    view = _loaded(loop, qtbot, people(4))
    opened: list[object] = []
    deleted: list[list[object]] = []
    edited: list[object] = []
    view.rowActivated.connect(opened.append)
    view.deleteRequested.connect(deleted.append)
    view.editRequested.connect(edited.append)
    view.table.setFocus()
    view.table.setCurrentIndex(view.model.index(1, 0))
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    qtbot.keyClick(view.table, Qt.Key.Key_F2)
    qtbot.keyClick(view.table, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view.table, Qt.Key.Key_Delete)
    items = view.model.index(1, 0).data(RowRole), view.model.index(2, 0).data(RowRole)
    assert opened == [items[0]] and edited == [items[0]]
    assert deleted == [list(items)]
    where = view.table.visualRect(view.model.index(3, 1)).center()
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=where)
    qtbot.mouseDClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert opened[-1] == view.model.index(3, 0).data(RowRole)
