"""PagedTableModel: paging, superseded queries, errors, sorting, qtmodeltester."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import QT_TRANSLATE_NOOP as N
from PySide6.QtCore import QModelIndex, Qt

from portal_admin.ui.lists.paged_model import RIGHT, Column, ListState, PagedTableModel, RowRole

from ..fakes import FakeCollection, Person, people

COLUMNS: list[Column[Person]] = [
    Column("id", N("Columns", "Id"), lambda p: p.id),
    Column("name", N("Columns", "Name"), lambda p: p.name, sort_field="name"),
    Column("email", N("Columns", "Email"), lambda p: p.email),
    Column("age", N("Columns", "Age"), lambda p: p.age, sort_field="age", alignment=RIGHT),
]


def make(coll: FakeCollection) -> PagedTableModel[Person]:
    return PagedTableModel(COLUMNS, coll.fetch, page_size=100)


async def load_to_end(model: PagedTableModel[Person]) -> int:
    """Refresh, then fetch until the last page; returns how many pages were fetched."""
    pages = 0
    model.refresh()
    while model.loading or model.canFetchMore(QModelIndex()):
        if not model.loading:
            model.fetchMore(QModelIndex())
        await model.wait_idle()
        pages += 1
    return pages


def test_pages_through_10000_rows(loop) -> None:
    coll = FakeCollection()
    model = make(coll)

    async def scenario() -> None:
        assert await load_to_end(model) == 100

    loop.run_until_complete(scenario())
    assert model.rowCount() == 10_000
    assert model.state is ListState.READY
    assert model.total == 10_000
    assert [c[0] for c in coll.calls] == list(range(100))
    assert model.index(9_999, 0).data() == "id-09999"
    assert model.index(5, 3).data(Qt.ItemDataRole.TextAlignmentRole) == int(RIGHT.value)
    assert model.index(5, 0).data(RowRole) == coll.items[5]
    assert model.headerData(1, Qt.Orientation.Horizontal) == "Name"


def test_qtmodeltester_while_paging(loop, qtmodeltester) -> None:
    """Qt's model tester watches the model through paging, refresh, sort and an error."""
    coll = FakeCollection(items=people(350))
    model = make(coll)
    qtmodeltester.check(model)

    async def scenario() -> None:
        await load_to_end(model)  # the tester itself also calls fetchMore
        assert model.rowCount() == 350
        coll.fail_pages.add(1)
        model.sort(1, Qt.SortOrder.DescendingOrder)
        while model.loading or model.canFetchMore(QModelIndex()):
            model.fetchMore(QModelIndex())
            await model.wait_idle()
        assert model.state is ListState.ERROR

    loop.run_until_complete(scenario())
    assert model.rowCount() == 100
    qtmodeltester.check(model)


def test_one_fetch_at_a_time(loop) -> None:
    coll = FakeCollection(gate=asyncio.Event())
    model = make(coll)

    async def scenario() -> None:
        model.refresh()
        model.fetchMore(QModelIndex())
        model.fetchMore(QModelIndex())
        await asyncio.sleep(0.01)
        assert len(coll.calls) == 1
        assert model.state is ListState.LOADING
        assert not model.canFetchMore(QModelIndex())
        assert coll.gate is not None
        coll.gate.set()
        await model.wait_idle()

    loop.run_until_complete(scenario())
    assert model.rowCount() == 100


def test_superseded_answers_are_dropped(loop) -> None:
    slow = FakeCollection(items=people(50), gate=asyncio.Event())
    fast = FakeCollection(items=people(3))
    model = make(slow)
    inserted: list[int] = []
    model.rowsInserted.connect(lambda _p, first, last: inserted.append(last - first + 1))

    async def scenario() -> None:
        model.refresh()
        await asyncio.sleep(0.01)
        first = model._task
        model.set_fetch(fast.fetch)  # a new filter while the old fetch is pending
        assert slow.gate is not None
        slow.gate.set()
        await model.wait_idle()
        assert first is not None and first.done()

    loop.run_until_complete(scenario())
    assert inserted == [3]
    assert model.rowCount() == 3


def test_superseded_uncancellable_answer_dropped(loop) -> None:
    """Even a fetch that ignores cancellation cannot deliver into a newer query."""
    release = asyncio.Event()
    model: PagedTableModel[Person]

    async def stubborn(page: int, size: int, sort: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
        try:
            await release.wait()
        except asyncio.CancelledError:
            await release.wait()
        return await FakeCollection(items=people(7)).fetch(page, size, sort)

    fast = FakeCollection(items=people(2))
    model = PagedTableModel(COLUMNS, stubborn, page_size=100)

    async def scenario() -> None:
        model.refresh()
        await asyncio.sleep(0.01)
        old = model._task
        model.set_fetch(fast.fetch)
        await model.wait_idle()
        release.set()
        assert old is not None
        await asyncio.wait({old})

    loop.run_until_complete(scenario())
    assert model.rowCount() == 2


def test_error_state_and_retry(loop) -> None:
    coll = FakeCollection(items=people(250), fail_pages={1})
    model = make(coll)
    errors: list[object] = []
    model.errorOccurred.connect(errors.append)

    async def scenario() -> None:
        model.refresh()
        await model.wait_idle()
        model.fetchMore(QModelIndex())
        await model.wait_idle()
        assert model.state is ListState.ERROR
        assert not model.canFetchMore(QModelIndex())
        coll.fail_pages.clear()
        model.retry()
        await model.wait_idle()
        model.fetchMore(QModelIndex())
        await model.wait_idle()

    loop.run_until_complete(scenario())
    assert len(errors) == 1 and getattr(errors[0], "request_id", None) == "req-123"
    assert model.rowCount() == 250
    assert model.state is ListState.READY


def test_empty_state(loop) -> None:
    model = make(FakeCollection(items=[]))
    states: list[str] = []
    model.stateChanged.connect(states.append)

    async def scenario() -> None:
        model.refresh()
        await model.wait_idle()

    loop.run_until_complete(scenario())
    assert model.state is ListState.EMPTY
    assert "loading" in states and states[-1] == "empty"
    assert not model.canFetchMore(QModelIndex())


def test_server_side_sort(loop) -> None:
    coll = FakeCollection(items=people(300))
    model = make(coll)

    async def scenario() -> None:
        model.sort(3, Qt.SortOrder.DescendingOrder)
        await model.wait_idle()

    loop.run_until_complete(scenario())
    assert coll.calls[-1] == (0, 100, [("age", "desc")])
    assert model.index(0, 3).data() == "69"
    assert model.sort_column == 3
    calls = len(coll.calls)
    model.sort(0)  # the id column is not sortable server-side: ignored
    assert len(coll.calls) == calls
    assert model.query().sort == [("age", "desc")]


def test_no_loop_no_fetch(qtmodeltester) -> None:
    """Without a running loop, fetchMore does nothing (qtmodeltester calls it)."""
    coll = FakeCollection()
    model = make(coll)
    qtmodeltester.check(model)
    assert coll.calls == []
    assert model.canFetchMore(QModelIndex())


@pytest.mark.parametrize("size", [1, 99, 100, 101])
def test_edges(loop, size: int) -> None:
    model = make(FakeCollection(items=people(size)))
    loop.run_until_complete(load_to_end(model))
    assert model.rowCount() == size
