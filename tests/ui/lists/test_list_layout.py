"""The list's room: columns fit their contents at first show, the widest give way before a
horizontal scroll bar appears, and the filters get the whole width."""

from __future__ import annotations

import asyncio
import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QPushButton

from portal_admin.ui.lists.paged_list import MIN_WIDTH, PagedList, share_out
from portal_admin.ui.lists.paged_model import ListState, PagedTableModel

from ..fakes import FakeCollection, people
from .test_paged_model import COLUMNS


def test_share_out_narrows_the_widest_first() -> None:
    floors = {0: 50, 1: 50, 2: 50}
    assert share_out({0: 100, 1: 200, 2: 300}, floors, 1000) == {0: 100, 1: 200, 2: 300}
    assert share_out({0: 100, 1: 200, 2: 300}, floors, 500) == {0: 100, 1: 200, 2: 200}
    narrowed = share_out({0: 100, 1: 400, 2: 400}, floors, 500)
    assert narrowed[0] == 100 and narrowed[1] == narrowed[2] == 200
    # No room even at the floors: the floors, and the list scrolls.
    assert share_out({0: 100, 1: 100}, {0: 90, 1: 90}, 100) == {0: 90, 1: 90}


def test_columns_fit_at_first_rows_without_a_scroll_bar(loop, qtbot) -> None:  # type: ignore[no-untyped-def]
    coll = FakeCollection(items=people(40))
    for i, person in enumerate(coll.items):
        coll.items[i] = dataclasses.replace(person, email=f"{'x' * 60}{i}@example.com")
    view = PagedList(PagedTableModel(COLUMNS, coll.fetch), export_name="p.csv")
    qtbot.addWidget(view)
    view.resize(520, 400)
    view.show()

    async def load() -> None:
        view.refresh()
        await view.model.wait_idle()
        await asyncio.sleep(0.05)  # the fit runs once the rows are in

    loop.run_until_complete(load())
    table = view.table
    widths = [table.columnWidth(c) for c in view.visible_columns()]
    assert sum(widths) <= table.viewport().width()
    assert MIN_WIDTH <= widths[2] < 340  # the long e-mails gave way, down to no less than the floor
    assert not table.horizontalScrollBar().isVisible()


def test_the_filters_get_the_whole_width(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = PagedList(PagedTableModel(COLUMNS, FakeCollection().fetch), export_name="p.csv")
    edit = QLineEdit()
    view.set_filter_bar(edit)
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.show()
    assert view.filter_slot.width() >= view.width() - 20
    # The list's own buttons sit at the bottom, beside the row count.
    assert view.refresh_button.y() > view.table.y() + view.table.height() - 1


def test_an_empty_list_says_why_and_offers_the_way_out(loop, qtbot) -> None:  # type: ignore[no-untyped-def]
    coll = FakeCollection(items=[])
    view = PagedList(PagedTableModel(COLUMNS, coll.fetch), export_name="p.csv")
    edit = QLineEdit()
    edit.setObjectName("nameFilter")
    view.set_filter_bar(edit)
    qtbot.addWidget(view)
    view.show()

    def load() -> None:
        async def until_answered() -> None:
            view.refresh()
            while view.model.state in (ListState.IDLE, ListState.LOADING):
                await asyncio.sleep(0.01)

        loop.run_until_complete(asyncio.wait_for(until_answered(), 5))

    load()
    assert view.overlay.label.text() == "Nothing to show."
    assert not view.overlay.clear.isVisible()
    edit.setText("zz")
    load()
    assert view.overlay.label.text() == "Nothing matches these filters."
    assert view.overlay.clear.isVisible()
    view.set_empty_texts("No people yet.", "No people match these filters.")
    assert view.overlay.label.text() == "No people match these filters."
    qtbot.mouseClick(view.overlay.clear, Qt.MouseButton.LeftButton)
    assert edit.text() == ""
    load()
    assert view.overlay.label.text() == "No people yet."


def test_an_empty_list_offers_the_panels_first_step(loop, qtbot) -> None:  # type: ignore[no-untyped-def]
    view = PagedList(PagedTableModel(COLUMNS, FakeCollection(items=[]).fetch), export_name="p.csv")
    invite = QPushButton("Invite\u2026", view)
    clicks: list[bool] = []
    invite.clicked.connect(lambda: clicks.append(True))
    view.set_empty_action(invite)
    qtbot.addWidget(view)
    view.show()

    async def until_answered() -> None:
        view.refresh()
        while view.model.state in (ListState.IDLE, ListState.LOADING):
            await asyncio.sleep(0.01)

    loop.run_until_complete(asyncio.wait_for(until_answered(), 5))
    assert view.overlay.act.isVisible() and view.overlay.act.text() == "Invite\u2026"
    qtbot.mouseClick(view.overlay.act, Qt.MouseButton.LeftButton)
    assert clicks == [True]
    invite.hide()  # a kiosk hides what changes the server: the list offers it no more
    view.refresh()
    loop.run_until_complete(asyncio.wait_for(until_answered(), 5))
    assert not view.overlay.act.isVisible()


def test_the_table_is_announced_by_the_lists_name(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = PagedList(PagedTableModel(COLUMNS, FakeCollection().fetch), export_name="p.csv")
    qtbot.addWidget(view)
    assert view.table.accessibleName() == "List"
    view.setAccessibleName("Login history")
    assert view.table.accessibleName() == "Login history"
    view.retranslateUi()
    assert view.table.accessibleName() == "Login history"


def test_a_fit_before_the_rows_waits_for_them(loop, qtbot) -> None:  # type: ignore[no-untyped-def]
    coll = FakeCollection(items=people(30))
    view = PagedList(PagedTableModel(COLUMNS, coll.fetch), export_name="p.csv")
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.show()
    view.fit_columns()  # e.g. a saved view reset while the list reloads: nothing to measure
    title = view.table.horizontalHeader().sectionSizeFromContents(2).width()

    async def load() -> None:
        view.refresh()
        await view.model.wait_idle()
        await asyncio.sleep(0.05)

    loop.run_until_complete(load())
    address = view.table.fontMetrics().horizontalAdvance(coll.items[0].email)
    assert view.table.columnWidth(2) >= address > title  # fitted to the e-mail addresses


def test_columns_fit_again_when_the_detail_opens(loop, qtbot) -> None:  # type: ignore[no-untyped-def]
    coll = FakeCollection(items=people(30))
    for i, person in enumerate(coll.items):
        coll.items[i] = dataclasses.replace(person, email=f"{'x' * 40}{i}@example.com")
    view = PagedList(PagedTableModel(COLUMNS, coll.fetch), export_name="p.csv")
    view.set_detail_widget(QLineEdit("detail"))
    view.show_detail(False)
    qtbot.addWidget(view)
    view.resize(1200, 400)  # wide: the detail opens beside the list
    view.show()

    async def load() -> None:
        view.refresh()
        await view.model.wait_idle()
        await asyncio.sleep(0.05)

    loop.run_until_complete(load())
    table = view.table
    assert not table.horizontalScrollBar().isVisible()
    view.show_detail(True)
    loop.run_until_complete(asyncio.sleep(0.05))
    shown = sum(table.columnWidth(c) for c in view.visible_columns())
    assert shown <= table.viewport().width()
    assert not table.horizontalScrollBar().isVisible()


def test_rows_have_headers_for_screen_readers(loop) -> None:  # type: ignore[no-untyped-def]
    coll = FakeCollection(items=people(3))
    model = PagedTableModel(COLUMNS, coll.fetch)

    async def load() -> None:
        model.refresh()  # fetches on the running loop
        await model.wait_idle()

    loop.run_until_complete(load())
    assert model.headerData(1, Qt.Orientation.Vertical) == coll.items[1].id
    assert model.headerData(0, Qt.Orientation.Horizontal) == "Id"
    assert model.headerData(9, Qt.Orientation.Vertical) is None
