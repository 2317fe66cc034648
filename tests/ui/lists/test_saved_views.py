"""Saved views of a list: save, apply, reset, restore after a restart, per scope."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLineEdit, QWidget

from portal_admin.files.saved_views import ViewStore, profile_scope
from portal_admin.ui.lists.paged_list import PagedList
from portal_admin.ui.lists.paged_model import PagedTableModel
from portal_admin.ui.lists.saved_view_dialog import ViewNameDialog

from ..fakes import FakeCollection, people
from .test_paged_model import COLUMNS

KEY = "people/peopleList"


class Filters(QWidget):
    """A filter bar as panels build them: named inputs, one combo filled later."""

    def __init__(self) -> None:
        super().__init__()
        self.text = QLineEdit(self)
        self.text.setObjectName("textFilter")
        self.kind = QComboBox(self)
        self.kind.setObjectName("kindFilter")
        self.kind.addItem("Any", None)
        self.adults = QCheckBox(self)
        self.adults.setObjectName("adultsOnly")
        self.unnamed = QLineEdit(self)  # no object name: not part of a view
        row = QHBoxLayout(self)
        for widget in (self.text, self.kind, self.adults, self.unnamed):
            row.addWidget(widget)

    def offer_kinds(self) -> None:
        for code in ("staff", "guest"):
            self.kind.addItem(code.title(), code)


def make_view(qtbot, store: ViewStore, *, offered: bool = True) -> tuple[PagedList, Filters]:  # type: ignore[no-untyped-def]
    coll = FakeCollection(items=people(50))
    view = PagedList(PagedTableModel(COLUMNS, coll.fetch), id_column="id", export_name="p.csv")
    view.setObjectName("peopleList")
    filters = Filters()
    if offered:
        filters.offer_kinds()
    view.set_filter_bar(filters)
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.show()
    view.attach_views(store, KEY)
    return view, filters


def change_everything(view: PagedList, filters: Filters) -> None:
    filters.text.setText("Person 1")
    filters.kind.setCurrentIndex(filters.kind.findData("guest"))
    filters.adults.setChecked(True)
    view.model.sort(3, Qt.SortOrder.DescendingOrder)  # age, descending
    header = view.table.horizontalHeader()
    header.moveSection(header.visualIndex(2), 0)  # email first
    view.table.setColumnHidden(0, True)  # no id
    view.table.setColumnWidth(1, 233)
    view.widths_chosen = True  # as a drag on the header does


def test_the_state_comes_back_after_a_restart(qtbot, tmp_path: Path) -> None:
    store = ViewStore(tmp_path / "views.json", profile_scope("Production"))
    view, filters = make_view(qtbot, store)
    assert view.views_button.isVisible()
    change_everything(view, filters)
    view.hide()  # hiding writes what is pending at once
    assert view.views is not None and not view.views._timer.isActive()

    again, filters2 = make_view(qtbot, ViewStore(tmp_path / "views.json", "profile:Production"))
    assert filters2.text.text() == "Person 1"
    assert filters2.kind.currentData() == "guest"
    assert filters2.adults.isChecked()
    assert again.model.sort_column == 3
    assert again.model.sort_order == Qt.SortOrder.DescendingOrder
    assert again.visible_columns() == [2, 1, 3]
    assert again.table.isColumnHidden(0)
    assert again.table.columnWidth(1) == 233
    assert again.widths_chosen


def test_save_apply_and_reset(qtbot, tmp_path: Path) -> None:
    store = ViewStore(tmp_path / "views.json", profile_scope("Production"))
    view, filters = make_view(qtbot, store)
    keeper = view.views
    assert keeper is not None
    assert keeper.title() == "View: Default view"
    change_everything(view, filters)
    assert keeper.save_as("  Older   guests ")
    assert keeper.names() == ["Older guests"]
    assert keeper.title() == "View: Older guests"
    assert not keeper.modified()

    filters.text.setText("someone else")
    assert keeper.modified()
    keeper.reset()
    assert filters.text.text() == ""
    assert filters.kind.currentData() is None
    assert not filters.adults.isChecked()
    assert view.model.sort_column == -1
    assert view.visible_columns() == [0, 1, 2, 3]
    assert not view.widths_chosen
    assert keeper.active is None

    keeper.show_view("Older guests")
    assert filters.text.text() == "Person 1"
    assert filters.kind.currentData() == "guest"
    assert view.visible_columns() == [2, 1, 3]
    assert keeper.active == "Older guests"

    keeper.delete("Older guests")
    assert keeper.names() == [] and keeper.active is None
    assert filters.text.text() == "Person 1"  # the list stays as it is


def test_a_choice_offered_later_is_chosen_when_it_appears(qtbot, tmp_path: Path) -> None:
    store = ViewStore(tmp_path / "views.json", "kiosk")
    store.remember(KEY, {"filters": {"kindFilter": "staff", "textFilter": "x"}}, None)
    view, filters = make_view(qtbot, store, offered=False)
    assert filters.text.text() == "x"
    assert filters.kind.currentData() is None
    assert view.views is not None
    assert view.views.current_state()["filters"]["kindFilter"] == "staff"  # still pending
    filters.offer_kinds()  # the constants arrive from the server
    qtbot.waitUntil(lambda: filters.kind.currentData() == "staff")


def test_views_are_kept_per_scope(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "views.json"
    production, _ = make_view(qtbot, ViewStore(path, profile_scope("Production")))
    assert production.views is not None
    production.views.save_as("Mine")
    staging, _ = make_view(qtbot, ViewStore(path, profile_scope("Staging")))
    kiosk, _ = make_view(qtbot, ViewStore(path, "kiosk"))
    assert staging.views is not None and kiosk.views is not None
    assert staging.views.names() == [] and kiosk.views.names() == []
    kiosk.views.save_as("Audit")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert {"profile:Production", "kiosk"} <= set(data["scopes"])
    assert not data["scopes"].get("profile:Staging", {}).get(KEY, {}).get("views")
    assert list(data["scopes"]["kiosk"][KEY]["views"]) == ["Audit"]


def test_the_views_menu(qtbot, tmp_path: Path) -> None:
    view, filters = make_view(qtbot, ViewStore(tmp_path / "views.json", "profile:P"))
    assert view.views is not None
    filters.text.setText("a")
    view.views.save_as("A")
    menu = view.show_views_menu()
    assert menu.isVisible()
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert texts == [
        "Default view",
        "A",
        "Save view as\u2026",
        "Save changes to \u201cA\u201d",
        "Delete view \u201cA\u201d",
        "Reset to default",
    ]
    checked = [a.text() for a in menu.actions() if a.isChecked()]
    assert checked == ["A"]
    assert not menu.actions()[4].isEnabled()  # nothing changed since saving
    filters.text.setText("b")
    view.views.fill_menu(menu)
    assert menu.actions()[4].isEnabled()
    menu.actions()[4].trigger()
    assert view.views.store.view(KEY, "A")["filters"]["textFilter"] == "b"  # type: ignore[index]


def test_the_name_dialog(qtbot, tmp_path: Path) -> None:
    view, _ = make_view(qtbot, ViewStore(tmp_path / "views.json", "profile:P"))
    assert view.views is not None
    view.views.save_as("Pending")
    view.ask_view_name()
    dialog = view.findChild(ViewNameDialog)
    assert dialog is not None and dialog.isVisible()
    save = dialog.buttons.buttons()[0]
    dialog.edit.setText("   ")
    assert not save.isEnabled()
    dialog.edit.setText("pending")
    assert save.isEnabled() and dialog.note.isVisible()  # it replaces "Pending"
    assert dialog.name() == "Pending"
    dialog.edit.setText("Suspended staff")
    assert not dialog.note.isVisible()
    dialog.accept()
    assert view.views.names() == ["Pending", "Suspended staff"]
    assert view.views.active == "Suspended staff"


def test_widths_the_person_dragged_are_kept_and_not_refitted(qtbot, tmp_path: Path) -> None:
    view, _ = make_view(qtbot, ViewStore(tmp_path / "views.json", "profile:P"))
    header = view.table.horizontalHeader()
    edge = header.sectionViewportPosition(1) + header.sectionSize(1) - 1
    y = header.height() // 2
    assert not view.widths_chosen
    qtbot.mousePress(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(edge, y))
    view.table.setColumnWidth(1, 301)  # what the drag does
    qtbot.mouseRelease(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(edge + 40, y))
    assert view.widths_chosen
    view.fit_columns()
    assert view.table.columnWidth(1) == 301


def test_an_unreadable_file_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "views.json"
    path.write_text("{not json", encoding="utf-8")
    store = ViewStore(path, "profile:P")
    assert store.names(KEY) == []
    assert (tmp_path / "views.json.bad").read_text(encoding="utf-8") == "{not json"
    store.save(KEY, "New", {"filters": {}})
    assert store.names(KEY) == ["New"]


def test_a_list_of_checkable_choices_keeps_what_was_left_out(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QListWidget, QListWidgetItem

    def fill(statuses: QListWidget, codes: list[str]) -> None:
        """As the panel does: each item inserted, then its code and check state set."""
        for code in codes:
            item = QListWidgetItem(code.title(), statuses)
            item.setData(Qt.ItemDataRole.UserRole, code)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)

    def build() -> tuple[PagedList, QListWidget]:
        view = PagedList(PagedTableModel(COLUMNS, FakeCollection().fetch), export_name="p.csv")
        statuses = QListWidget()
        statuses.setObjectName("statusChoices")
        view.set_filter_bar(statuses)
        qtbot.addWidget(view)
        view.attach_views(ViewStore(tmp_path / "views.json", "profile:P"), KEY)
        return view, statuses

    view, statuses = build()
    fill(statuses, ["pending", "accepted", "expired"])
    assert not view.filtered()  # everything chosen is the default
    statuses.item(2).setCheckState(Qt.CheckState.Unchecked)
    assert view.filtered()
    assert view.views is not None
    view.views.remember()

    again, statuses2 = build()  # the statuses arrive from the server after the restore
    fill(statuses2, ["pending", "accepted", "expired", "revoked"])
    qtbot.waitUntil(lambda: statuses2.item(2).checkState() == Qt.CheckState.Unchecked)
    checked = [
        statuses2.item(i).data(Qt.ItemDataRole.UserRole)
        for i in range(statuses2.count())
        if statuses2.item(i).checkState() == Qt.CheckState.Checked
    ]
    assert checked == ["pending", "accepted", "revoked"]  # a new choice counts as chosen
    again.clear_filters()
    assert statuses2.item(2).checkState() == Qt.CheckState.Checked
