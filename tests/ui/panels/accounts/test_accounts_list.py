"""Accounts panel: listing, paging to the end, each filter, server-side sorting, detail, 404,
the model checked by qtmodeltester, CSV export of a filtered view, screenshots."""

from __future__ import annotations

import asyncio
import csv
import io
import re
from collections.abc import Callable
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.ui.lists.export_dialog import ExportDoneBox, ExportOptionsDialog
from portal_admin.ui.panels.accounts.accounts_panel import AccountsPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import save_screenshot

from ..panel_support import place_panel, run
from .support import drain, settle, shot, wait_window

Make = Callable[..., PanelContext]


def build(qtbot: QtBot, context: PanelContext) -> AccountsPanel:
    panel = AccountsPanel(context)
    place_panel(qtbot, panel, 1180, 660)
    return panel


@pytest.fixture
def panel(loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make) -> Any:
    p = build(qtbot, panel_context(admin))
    task = p.controller.start()
    assert task is not None
    run(loop, task)
    yield p
    p.close_tasks()


async def idle(panel: AccountsPanel) -> None:
    await panel.controller.model.wait_idle()
    await settle()
    await panel.controller.model.wait_idle()


async def filtered(panel: AccountsPanel) -> None:
    """Wait out the debounce and the query."""
    await asyncio.sleep(0.35)
    await idle(panel)


def test_lists_and_pages_to_the_end(
    loop: qasync.QEventLoop, panel: AccountsPanel, qtmodeltester: Any
) -> None:
    model = panel.controller.model
    total = model.total
    assert total is not None and total >= 120
    assert model.rowCount() == 100  # one page of 100 first
    assert "of 1" in panel.view.status.text()

    async def scroll() -> None:
        for _ in range(10):
            panel.view.table.scrollToBottom()
            await settle(0.02)
            await idle(panel)
            if model.rowCount() >= total:
                break

    run(loop, scroll())
    assert model.rowCount() == total
    assert not model.canFetchMore(model.index(-1, -1))
    emails = [r.account_email for r in model.rows]
    assert len(set(emails)) == total  # no page twice
    assert panel.view.status.text() == f"Showing {total} of {total}"
    qtmodeltester.check(model)
    panel.view.table.setCurrentIndex(model.index(0, 0))
    run(loop, drain(panel))
    shot(panel, "accounts.png")


def test_columns_and_chooser(panel: AccountsPanel) -> None:
    titles = [c.title() for c in panel.controller.model.columns]
    assert titles == [
        "Email", "Name", "Status", "Portal", "Phone", "Language", "Time zone", "Country",
        "Created", "Updated", "Id",
    ]  # fmt: skip
    table = panel.view.table
    hidden = [
        c.key for i, c in enumerate(panel.controller.model.columns) if table.isColumnHidden(i)
    ]
    assert hidden == ["language", "timezone", "country", "id"]
    panel.view._header_menu(table.horizontalHeader().rect().center())
    actions = panel.view._menu.actions()
    actions[6].setChecked(True)  # time zone shown
    assert not table.isColumnHidden(6)
    panel.view._menu.close()
    first = panel.controller.model.rows[0]
    status = panel.controller.model.index(0, 2).data()
    assert status == first.account_status.label and status != first.account_status.code
    created = panel.controller.model.index(0, 8).data()
    assert created and "T" not in created  # a locale date, not ISO text


@pytest.mark.parametrize(
    ("field", "text"),
    [("email", "anna"), ("name", "moore"), ("institution", None)],
)
def test_text_filters_debounced(
    loop: qasync.QEventLoop, qtbot: QtBot, panel: AccountsPanel, admin: PortalClient,
    field: str, text: str | None,
) -> None:  # fmt: skip
    model = panel.controller.model
    everyone = model.total
    if text is None:  # an institution that has accounts, but not every one
        text = model.rows[0].institution_biz_id
        assert text
    edit = getattr(panel.filters, field)
    qtbot.keyClicks(edit, text)
    assert panel.filters.pending  # typing waits for the debounce
    assert model.total == everyone
    run(loop, filtered(panel))
    kwargs = {"email": {"email": text}, "name": {"name": text}}.get(
        field, {"institution_biz_id": text}
    )
    expected = run(loop, admin.accounts.query(size=100, **kwargs))
    assert 0 < model.total < everyone  # type: ignore[operator]
    assert model.total == expected.total_items
    assert [r.biz_id for r in model.rows] == [a.biz_id for a in expected.items]
    for row in model.rows:
        if field == "email":
            assert row.account_email.lower().startswith(text)
        elif field == "name":
            assert text in row.account_name.lower()
        else:
            assert row.institution_biz_id == text


@pytest.mark.parametrize(("field", "code"), [("status", "SUSPENDED"), ("portal", "CONSUMER")])
def test_picker_filters(
    loop: qasync.QEventLoop, panel: AccountsPanel, admin: PortalClient, field: str, code: str
) -> None:
    picker = getattr(panel.filters, field)
    assert code in picker.codes()  # fed from the constants list
    label = picker.itemText(picker.findData(code))
    assert label.endswith(f"({code})") and label != f"({code})"
    picker.setCurrentIndex(picker.findData(code))
    run(loop, idle(panel))
    model = panel.controller.model
    kwargs = {"status": code} if field == "status" else {"portal": code}
    expected = run(loop, admin.accounts.query(size=100, **kwargs))
    assert model.total == expected.total_items > 0
    attribute = "account_status" if field == "status" else "account_portal"
    assert {getattr(r, attribute).code for r in model.rows} == {code}
    panel.filters.clear()
    run(loop, idle(panel))
    assert model.total is not None and model.total > expected.total_items


def test_picker_search_is_contains_and_case_insensitive(panel: AccountsPanel) -> None:
    completer = panel.filters.status.completer()
    completer.setCompletionPrefix("PEND")  # the code, in the middle of "label (code)"
    found = [
        completer.completionModel().index(i, 0).data() for i in range(completer.completionCount())
    ]
    assert any("PENDING_INIT" in text for text in found)
    completer.setCompletionPrefix("suspend")
    assert completer.completionCount() >= 1


def test_filters_combine_and_stay_when_switching_panels(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    from portal_admin.ui.mainwindow.window import MainWindow
    from portal_admin.ui.panels import accounts
    from portal_admin.ui.panels.registry import PanelRegistry

    registry = PanelRegistry()
    accounts.register(registry)
    context = panel_context(admin)
    window = MainWindow(context.profile, context.runner, registry, context=context)
    qtbot.addWidget(window)
    window.show()
    panel = window.show_panel("accounts")
    assert isinstance(panel, AccountsPanel)
    task = panel.controller.start()
    assert task is not None
    run(loop, task)
    panel.filters.status.setCurrentIndex(panel.filters.status.findData("ACTIVE"))
    qtbot.keyClicks(panel.filters.email, "w")
    run(loop, filtered(panel))
    total = panel.controller.model.total
    expected = run(loop, admin.accounts.query(status="ACTIVE", email="w", size=1))
    assert total == expected.total_items
    roles = window.show_panel("roles")
    run(loop, drain(roles))
    window.show_panel("accounts")
    assert window.current_panel() is panel
    assert panel.filters.email.text() == "w"
    assert panel.filters.status.code() == "ACTIVE"
    assert panel.controller.model.total == total


def test_sorting_is_server_side(
    loop: qasync.QEventLoop, panel: AccountsPanel, admin: PortalClient
) -> None:
    header = panel.view.table.horizontalHeader()
    model = panel.controller.model
    for section, field in (
        (0, "accountEmail"),
        (1, "accountName"),
        (8, "createdAt"),
        (9, "updatedAt"),
    ):
        header.sectionClicked.emit(section)
        run(loop, idle(panel))
        asc = run(loop, admin.accounts.query(size=100, sort=f"{field},asc"))
        assert [r.biz_id for r in model.rows] == [a.biz_id for a in asc.items]
        header.sectionClicked.emit(section)
        run(loop, idle(panel))
        desc = run(loop, admin.accounts.query(size=100, sort=f"{field},desc"))
        assert [r.biz_id for r in model.rows] == [a.biz_id for a in desc.items]
        assert header.sortIndicatorSection() == section
    before = [r.biz_id for r in model.rows]
    header.sectionClicked.emit(2)  # status: the server does not sort by it here
    run(loop, idle(panel))
    assert [r.biz_id for r in model.rows] == before


def test_detail_and_copy_id(loop: qasync.QEventLoop, panel: AccountsPanel) -> None:
    model = panel.controller.model
    row = next(
        r for r in model.rows if r.account_status.code == "ACTIVE" and r.account_remark is None
    )
    panel.view.table.setCurrentIndex(model.index_of(row.biz_id))
    run(loop, drain(panel))
    detail = panel.detail
    assert detail.account.biz_id == row.biz_id
    assert detail.values["email"].text() == row.account_email
    assert detail.values["status"].text() == f"{row.account_status.label} (ACTIVE)"
    assert detail.id_field.text() == row.biz_id
    detail.copy_button.click()
    assert QGuiApplication.clipboard().text() == row.biz_id
    panel.view.copy_id()
    assert QGuiApplication.clipboard().text() == row.biz_id
    shown = [n for n, b in detail.buttons.items() if b.isVisibleTo(detail)]
    assert shown == ["SUSPEND", "DEACTIVATE", "EDIT", "RESET"]
    shot(panel, "account-detail.png")


def test_a_new_filter_closes_the_detail(loop: qasync.QEventLoop, panel: AccountsPanel) -> None:
    """The detail never shows (and acts on) an account the filtered list no longer shows."""
    model = panel.controller.model
    row = next(r for r in model.rows if r.account_status.code == "ACTIVE")
    panel.view.table.setCurrentIndex(model.index_of(row.biz_id))
    run(loop, drain(panel))
    assert panel.detail.account.biz_id == row.biz_id and panel.detail.isVisibleTo(panel)
    panel.filters.status.setCurrentIndex(panel.filters.status.findData("SUSPENDED"))
    run(loop, filtered(panel))
    assert all(r.account_status.code == "SUSPENDED" for r in model.rows)
    assert panel.controller.current is None and panel.detail.account is None
    assert not panel.detail.isVisibleTo(panel)  # the table has the room again
    panel.controller.refresh()  # F5 does not bring it back
    run(loop, idle(panel))
    assert panel.detail.account is None


def test_unknown_account_id_is_explained(loop: qasync.QEventLoop, panel: AccountsPanel) -> None:
    panel.lookup.setText("ACC0000NOTTHERE")
    result = run(loop, panel.controller.open_by_id(panel.lookup.text()))
    assert result is None
    text = panel.message.text
    assert "Not found" in text and "RESOURCE.NOT_FOUND" in text and "Request id" in text
    assert panel.detail.account is None


def test_opening_by_id(loop: qasync.QEventLoop, panel: AccountsPanel) -> None:
    row = panel.controller.model.rows[3]
    panel.lookup.setText(f"  {row.biz_id} ")
    account = run(loop, panel.controller.open_by_id(panel.lookup.text()))
    assert account.biz_id == row.biz_id
    assert panel.detail.values["name"].text() == row.account_name


def test_csv_export_of_a_filtered_view(
    loop: qasync.QEventLoop,
    panel: AccountsPanel,
    admin: PortalClient,
    tmp_path: Path,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    suspended = run(loop, admin.accounts.query(status="SUSPENDED", size=100))
    assert suspended.total_items >= 2
    target = suspended.items[0]
    run(
        loop,
        admin.accounts.update(
            target.biz_id, account_name='=HYPERLINK("x")', account_phone="+1 555 0100"
        ),
    )
    panel.filters.status.setCurrentIndex(panel.filters.status.findData("SUSPENDED"))
    run(loop, idle(panel))
    path = tmp_path / "suspended.csv"

    async def export() -> Any:
        task = asyncio.ensure_future(panel.view.export())
        options = await wait_window(ExportOptionsDialog)
        options.path_edit.setText(str(path))
        options.delimiter.setCurrentIndex(options.delimiter.findData("semicolon"))
        options.buttons.accepted.emit()
        return await task

    assert run(loop, export()) == path
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    # the id first (hidden in the list, but a file's row must name its record)
    assert rows[0] == ["Id", "Email", "Name", "Status", "Portal", "Phone", "Created", "Updated"]
    assert len(rows) - 1 == suspended.total_items
    by_email = {r[1]: r for r in rows[1:]}
    mine = by_email[target.account_email]
    assert mine[0] == target.biz_id
    assert mine[2] == '\'=HYPERLINK("x")'  # neutralized
    assert mine[5] == "+1 555 0100"  # a phone number is not mangled
    # moments in ISO 8601, UTC: not the locale's "11/27/26 5:42 PM" with its narrow space
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", mine[6])
    assert mine[6] == target.created_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert "\u202f" not in raw.decode("utf-8-sig")
    labels = {r[3] for r in rows[1:]}
    assert labels == {target.account_status.label}
    assert all(not r[2].startswith("=") for r in rows[1:])
    # The confirmation names the row count and offers the folder.
    done = run(loop, wait_window(ExportDoneBox))
    assert f"{suspended.total_items} row(s) exported to" in done.text()
    assert str(path) in done.text()
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    qtbot.mouseClick(done.open_folder_button, Qt.MouseButton.LeftButton)
    assert opened == [QUrl.fromLocalFile(str(tmp_path))]


def test_uses_the_shared_constants_cache(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    class FakeCache:
        """The ConstantsCache interface: items(list_name), cached per language."""

        def __init__(self) -> None:
            self.asked: list[str] = []

        async def items(self, list_name: str) -> list[Any]:
            self.asked.append(list_name)
            return list(await getattr(admin.constants, list_name.replace("-", "_"))())

    cache = FakeCache()
    p = build(qtbot, panel_context(admin, constants=cache))
    task = p.controller.start()
    assert task is not None
    run(loop, task)
    assert cache.asked == ["user-portal-types", "user-account-statuses"]
    assert "SUSPENDED" in p.filters.status.codes()
    p.close_tasks()


def test_the_status_filter_offers_every_status_the_list_shows(
    loop: qasync.QEventLoop, qtbot: QtBot, panel: AccountsPanel, admin: PortalClient
) -> None:
    """REGISTERED (the other listing) is offered, and filters; the popup shows each label
    whole, however narrow the box."""
    picker = panel.filters.status
    assert {"REGISTERED", "DEACTIVATED"} <= set(picker.codes())
    registered = run(loop, admin.accounts.query(status="REGISTERED", size=1)).total_items
    assert registered > 0
    picker.setFocus()
    picker.setCurrentIndex(picker.findData("REGISTERED"))
    run(loop, idle(panel))
    assert picker.currentText() == "Registered (REGISTERED)"
    assert panel.controller.model.total == registered
    picker.setFixedWidth(90)  # narrower than its labels
    qtbot.keyClick(picker, Qt.Key.Key_F4)  # opens the popup, as Alt+Down does
    view = picker.view()
    qtbot.waitUntil(view.isVisible)
    metrics = view.fontMetrics()
    widest = max(metrics.horizontalAdvance(picker.itemText(i)) for i in range(picker.count()))
    assert view.viewport().width() >= widest
    picker.hidePopup()


def test_columns_are_refitted_and_the_selection_counted(
    loop: qasync.QEventLoop, qtbot: QtBot, panel: AccountsPanel
) -> None:
    view = panel.view
    table = view.table
    email = 0
    panel.resize(640, 660)  # a narrow window: the widest columns gave way
    run(loop, settle(0.3))
    narrow = table.columnWidth(email)
    wanted = min(table.sizeHintForColumn(email), 340)
    assert narrow < wanted
    panel.resize(2400, 900)  # maximised
    run(loop, settle(0.3))
    assert table.columnWidth(email) >= wanted
    # "3 selected" beside the row count (the accounts list selects several for bulk changes)
    table.setFocus()
    table.selectRow(0)
    for row in (1, 2):
        rect = table.visualRect(table.model().index(row, 1))
        qtbot.mouseClick(
            table.viewport(),
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.ControlModifier,
            rect.center(),
        )
    assert len(view.selected_rows()) == 3
    assert "3 selected" in view.status.text()
    assert "Showing" in view.status.text()
    table.clearSelection()
    assert "selected" not in view.status.text()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_picture_of_the_export_confirmation(
    loop: qasync.QEventLoop, panel: AccountsPanel, tmp_path: Path, shots: Path, language: str
) -> None:
    """The confirmation after an export, looked at in English and Japanese."""
    from portal_admin.ui.i18n.translators import LanguageManager

    languages = LanguageManager()
    languages.set_language(language)
    path = tmp_path / "accounts.csv"
    try:

        async def export() -> Any:
            task = asyncio.ensure_future(panel.view.export())
            options = await wait_window(ExportOptionsDialog)
            options.path_edit.setText(str(path))
            options.buttons.accepted.emit()
            return await task

        assert run(loop, export()) == path
        done = run(loop, wait_window(ExportDoneBox))
        total = panel.controller.model.total
        assert total is not None and str(total) in done.text() and str(path) in done.text()
        assert done.open_folder_button.text() == QCoreApplication.translate(
            "ExportDialog", "Open folder"
        )
        save_screenshot(done, shots / f"export-done-{language}.png")
        done.close()
    finally:
        languages.set_language("en")
