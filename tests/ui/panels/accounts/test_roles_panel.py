"""Roles panel: list and detail with permission codes, delete (confirm, decline), OWNER and
roles in use explained before anyone tries, the server's 409 answers when it happens anyway,
the auditor's disabled delete and a 403 explained; qtmodeltester; screenshots."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.ui.panels.accounts.roles_panel import RolesPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.permissions import Permissions

from ..panel_support import run
from .builders import build_roles as build
from .builders import select_role as select
from .support import answer_box, drain, shot

Make = Callable[..., PanelContext]


@pytest.fixture
def panel(loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make) -> Any:
    p = build(loop, qtbot, panel_context(admin))
    yield p
    p.close_tasks()


def names(panel: RolesPanel) -> list[str]:
    return [r.role_name for r in panel.controller.model.rows]


def db(app: Any) -> Any:
    return app.state.sandbox.db


def test_lists_roles_with_detail(
    loop: qasync.QEventLoop, panel: RolesPanel, qtmodeltester: Any
) -> None:
    assert names(panel) == ["Owner", "Auditor", "Reporting", "Support"]
    assert panel.count.text() == "4 role(s)"
    model = panel.controller.model
    headers = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]
    assert headers == ["Name", "Type", "Members", "Permissions", "Description", "Updated", "Id"]
    assert model.index(0, 1).data() == "Owner"  # the server's label
    assert model.index(3, 2).data() == "5"  # members
    qtmodeltester.check(model)
    role = select(loop, panel, "Auditor")
    codes = [panel.detail.codes.item(i).text() for i in range(panel.detail.codes.count())]
    assert codes == list(role.permission_codes) and "workspace:user:read" in codes
    assert panel.detail.values["type"].text().endswith("(CUSTOM)")
    panel.detail.copy_button.click()
    assert QGuiApplication.clipboard().text() == role.biz_id
    select(loop, panel, "Reporting")
    assert panel.detail.delete_button.isEnabled()
    shot(panel, "roles.png")


def test_owner_and_roles_in_use_explained_before_trying(
    loop: qasync.QEventLoop, panel: RolesPanel
) -> None:
    owner = select(loop, panel, "Owner")
    assert not panel.detail.delete_button.isEnabled()
    assert "OWNER role is protected" in panel.detail.reason.text()
    assert panel.detail.delete_button.toolTip() == panel.detail.reason.text()
    assert run(loop, panel.controller.delete(owner)) is False  # nothing asked, nothing sent
    support = select(loop, panel, "Support")
    assert not panel.detail.delete_button.isEnabled()
    assert panel.detail.reason.text().startswith("The role is in use by 5 member(s)")
    assert run(loop, panel.controller.delete(support)) is False
    shot(panel, "role-delete-blocked.png")


def test_delete_declined_then_accepted(
    loop: qasync.QEventLoop, panel: RolesPanel, admin: PortalClient, runner: Any
) -> None:
    role = select(loop, panel, "Reporting")
    changed: list[frozenset[str]] = []
    runner.changed.connect(changed.append)

    async def delete(accept: bool) -> bool:
        task = asyncio.ensure_future(panel.controller.delete(role))
        box = await answer_box(accept)
        assert "\u201cReporting\u201d" in box.text()
        result = await task
        await drain(panel)
        return result

    assert run(loop, delete(False)) is False
    assert "Reporting" in names(panel) and changed == []
    assert run(loop, delete(True)) is True
    assert "Reporting" not in names(panel)
    assert panel.detail.role is None or panel.detail.role.role_name != "Reporting"
    assert changed == [frozenset({"roles"})]
    assert "Reporting" not in [r.role_name for r in run(loop, admin.roles.list())]
    assert "was deleted" in panel.message.text


def test_server_409_in_use_shown_when_the_list_was_stale(
    loop: qasync.QEventLoop, panel: RolesPanel, sandbox_app: Any
) -> None:
    role = select(loop, panel, "Reporting")
    support = next(r for r in panel.controller.model.rows if r.role_name == "Support")
    db(sandbox_app).execute(
        "UPDATE workspace_members SET role_biz_id = ? WHERE role_biz_id = ? AND account_biz_id ="
        " (SELECT account_biz_id FROM workspace_members WHERE role_biz_id = ? LIMIT 1)",
        (role.biz_id, support.biz_id, support.biz_id),
    )

    async def delete() -> bool:
        task = asyncio.ensure_future(panel.controller.delete(role))
        await answer_box(True)
        result = await task
        await drain(panel)  # the list is reloaded
        return result

    assert run(loop, delete()) is False
    text = panel.message.text
    assert "still has members" in text and "WORKSPACE.ROLE_IN_USE" in text and "409" in text
    assert "Reporting" in names(panel)
    assert not panel.detail.delete_button.isEnabled()  # now explained before trying
    assert "in use by 1 member(s)" in panel.detail.reason.text()


def test_server_409_owner_shown_when_the_list_was_stale(
    loop: qasync.QEventLoop, panel: RolesPanel, sandbox_app: Any
) -> None:
    role = select(loop, panel, "Reporting")
    db(sandbox_app).execute("UPDATE roles SET role_type = 'OWNER' WHERE biz_id = ?", (role.biz_id,))

    async def delete() -> bool:
        task = asyncio.ensure_future(panel.controller.delete(role))
        await answer_box(True)
        result = await task
        await drain(panel)
        return result

    assert run(loop, delete()) is False
    text = panel.message.text
    assert "OWNER role is protected" in text and "WORKSPACE.OWNER_ROLE_PROTECTED" in text


def test_auditor_cannot_delete_and_a_403_is_explained(
    loop: qasync.QEventLoop, qtbot: QtBot, auditor: PortalClient, panel_context: Make
) -> None:
    panel = build(loop, qtbot, panel_context(auditor))
    role = select(loop, panel, "Reporting")
    assert not panel.detail.delete_button.isEnabled()
    assert "workspace:role:write" in panel.detail.reason.text()
    panel.permissions = Permissions(None)  # as if the server did not say
    panel.controller.show_role(role)
    run(loop, drain(panel))
    assert panel.detail.delete_button.isEnabled()

    async def delete() -> bool:
        task = asyncio.ensure_future(panel.controller.delete(role))
        await answer_box(True)
        return await task

    assert run(loop, delete()) is False
    text = panel.message.text
    assert "does not allow" in text and "ACCESS.PERMISSION_DENIED" in text
    assert "Reporting" in names(panel)
    panel.close_tasks()
