"""The accounts, portals and roles panels built for a test, shown and loaded, and the steps
other areas' tests take in them too (no tests here)."""

from __future__ import annotations

from typing import Any

import qasync
from pytestqt.qtbot import QtBot

from portal_admin.ui.panels.accounts.accounts_panel import AccountsPanel
from portal_admin.ui.panels.accounts.portals_panel import PortalsPanel
from portal_admin.ui.panels.accounts.roles_panel import RolesPanel
from portal_admin.ui.panels.registry import PanelContext

from ..panel_support import place_panel, run
from .support import drain


def build_accounts(loop: qasync.QEventLoop, qtbot: QtBot, context: PanelContext) -> AccountsPanel:
    """The accounts panel, shown and loaded."""
    panel = AccountsPanel(context)
    place_panel(qtbot, panel, 1180, 660)
    task = panel.controller.start()
    assert task is not None
    run(loop, task)
    return panel


def choose(loop: qasync.QEventLoop, panel: AccountsPanel, status: str) -> Any:
    """Select a loaded account in ``status`` (not the admin) and wait for its detail."""
    model = panel.controller.model
    row = next(
        r for r in model.rows
        if r.account_status.code == status and r.account_email != "admin@sandbox.test"
    )  # fmt: skip
    panel.view.table.setCurrentIndex(model.index_of(row.biz_id))
    run(loop, drain(panel))
    assert panel.detail.account.biz_id == row.biz_id
    return row


def build_portals(loop: qasync.QEventLoop, qtbot: QtBot, context: PanelContext) -> PortalsPanel:
    """The portals panel, shown and loaded."""
    panel = PortalsPanel(context)
    place_panel(qtbot, panel, 1100, 600)
    task = panel.controller.start()
    assert task is not None
    run(loop, task)
    return panel


def fill_form(panel: PortalsPanel, kind: str, domain: str, remark: str = "") -> None:
    """Fill the new portal's form."""
    panel.type.set_code(kind)
    panel.domain.setText(domain)
    panel.remark.setText(remark)


def build_roles(loop: qasync.QEventLoop, qtbot: QtBot, context: PanelContext) -> RolesPanel:
    """The roles panel, shown and loaded."""
    panel = RolesPanel(context)
    place_panel(qtbot, panel, 1100, 560)
    task = panel.controller.start()
    assert task is not None
    run(loop, task)
    return panel


def select_role(loop: qasync.QEventLoop, panel: RolesPanel, name: str) -> Any:
    """Select the role ``name`` and wait for its detail."""
    model = panel.controller.model
    number = next(n for n, r in enumerate(model.rows) if r.role_name == name)
    panel.table.setCurrentIndex(model.index(number, 0))
    run(loop, drain(panel))
    assert panel.detail.role.role_name == name
    return panel.detail.role
