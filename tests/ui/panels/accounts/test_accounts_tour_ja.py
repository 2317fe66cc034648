"""Screenshots of the three panels and their dialogs with a client speaking Japanese (server
labels translated; the UI's own strings are not translated yet) and a Japanese QLocale."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest
import qasync
from PySide6.QtCore import QLocale
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.ui.panels.accounts.accounts_panel import AccountsPanel
from portal_admin.ui.panels.accounts.edit_dialog import AccountEditDialog
from portal_admin.ui.panels.accounts.portals_panel import PortalsPanel
from portal_admin.ui.panels.accounts.roles_panel import RolesPanel
from portal_admin.ui.panels.accounts.status_dialog import StatusChangeDialog
from portal_admin.ui.panels.registry import PanelContext

from ..panel_support import ADMIN, SignIn, run
from .support import drain, settle, shot, wait_window

Make = Callable[..., PanelContext]


@pytest.fixture
def admin_ja(signed_in: SignIn) -> Iterator[PortalClient]:
    client = signed_in(ADMIN, language="ja")
    previous = QLocale()
    QLocale.setDefault(QLocale("ja_JP"))
    try:
        yield client
    finally:
        QLocale.setDefault(previous)


def test_tour_in_japanese(
    loop: qasync.QEventLoop, qtbot: QtBot, admin_ja: PortalClient, panel_context: Make
) -> None:
    context = panel_context(admin_ja)
    accounts = AccountsPanel(context)
    qtbot.addWidget(accounts)
    accounts.resize(1180, 660)
    accounts.show()
    task = accounts.controller.start()
    assert task is not None
    run(loop, task)
    model = accounts.controller.model
    status = model.index(0, 2).data()
    assert status and status.isascii() is False  # the server's Japanese label
    assert "年" in model.index(0, 8).data() or "/" in model.index(0, 8).data()
    shot(accounts, "accounts.png", "ja")
    row = next(r for r in model.rows if r.account_status.code == "ACTIVE")
    accounts.view.table.setCurrentIndex(model.index_of(row.biz_id))
    run(loop, drain(accounts))
    shot(accounts, "account-detail.png", "ja")

    async def dialogs() -> None:
        task = asyncio.ensure_future(accounts.controller.run_action("EDIT"))
        edit = await wait_window(AccountEditDialog)
        await settle(0.3)
        edit.timezone.set_code("Asia/Tokyo")
        edit.country.set_code("JP")
        await settle()
        shot(edit, "account-edit.png", "ja")
        edit.reject()
        await task
        task = asyncio.ensure_future(accounts.controller.run_action("SUSPEND"))
        confirm = await wait_window(StatusChangeDialog)
        assert "→" in confirm.change.text() and "一時停止" in confirm.change.text()
        await settle()
        shot(confirm, "account-status-confirm.png", "ja")
        confirm.reject()
        await task

    run(loop, dialogs())
    accounts.close_tasks()

    roles = RolesPanel(context)
    qtbot.addWidget(roles)
    roles.resize(1100, 560)
    roles.show()
    task = roles.controller.start()
    assert task is not None
    run(loop, task)
    roles.table.setCurrentIndex(roles.controller.model.index(2, 0))
    run(loop, drain(roles))
    shot(roles, "roles.png", "ja")
    roles.table.setCurrentIndex(roles.controller.model.index(0, 0))
    run(loop, drain(roles))
    assert not roles.detail.delete_button.isEnabled()
    shot(roles, "role-delete-blocked.png", "ja")

    portals = PortalsPanel(context)
    qtbot.addWidget(portals)
    portals.resize(1100, 600)
    portals.show()
    task = portals.controller.start()
    assert task is not None
    run(loop, task)
    shot(portals, "portals.png", "ja")
    portals.type.set_code("TENANT")
    portals.domain.setText("tenant-ja.example.test")
    portals.remark.setText("日本語の備考")
    record = run(loop, portals.submit())
    assert record is not None
    assert portals.created_values["type"].text() == "テナントポータル (TENANT)"
    run(loop, settle())
    shot(portals, "portal-created.png", "ja")
