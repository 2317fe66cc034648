"""Saved views on the accounts panel against the in-process sandbox: a filter and a sort come
back after a restart and query the server again; a saved view is offered by the palette and
shown from it; views stay with their connection profile; the kiosk keeps its own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.files.saved_views import KIOSK_SCOPE, ViewStore, profile_scope
from portal_admin.ui.mainwindow.window import MainWindow
from portal_admin.ui.mainwindow.workspace import saved_views_store
from portal_admin.ui.panels import accounts as account_views
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry
from support.accounts import ADMIN_EMAIL

from ..panel_support import run, wait_for
from .support import drain

Make = Callable[..., PanelContext]


def window_for(qtbot: QtBot, context: PanelContext) -> MainWindow:
    registry = PanelRegistry()
    account_views.register(registry)
    window = MainWindow(context.profile, context.runner, registry, context=context)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    return window


def test_a_filter_and_sort_survive_a_restart(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make, tmp_path: Path
) -> None:
    store = ViewStore(tmp_path / "views.json", profile_scope("Sandbox"))
    window = window_for(qtbot, panel_context(admin, saved_views=store))
    panel = window.show_panel("accounts")
    run(loop, drain(panel))
    total = panel.controller.model.total  # type: ignore[union-attr]
    panel.filters.email.setText("admin@")  # type: ignore[union-attr]
    run(loop, wait_for(lambda: panel.controller.model.total == 1))  # type: ignore[union-attr]
    run(loop, drain(panel))
    assert total > 1
    window.close()  # hiding the list keeps its state at once

    again = window_for(qtbot, panel_context(admin, saved_views=store))
    panel2 = again.show_panel("accounts")
    assert panel2.filters.email.text() == "admin@"  # type: ignore[union-attr]
    run(loop, wait_for(lambda: panel2.controller.model.total == 1))  # type: ignore[union-attr]
    run(loop, drain(panel2))
    model = panel2.controller.model  # type: ignore[union-attr]
    assert model.index(0, 0).data(Qt.ItemDataRole.DisplayRole) is not None
    emails = {model.index(r, c).data() for r in range(model.rowCount()) for c in range(5)}
    assert ADMIN_EMAIL in emails


def test_the_palette_shows_a_saved_view(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make, tmp_path: Path
) -> None:
    store = ViewStore(tmp_path / "views.json", profile_scope("Sandbox"))
    window = window_for(qtbot, panel_context(admin, saved_views=store))
    panel = window.show_panel("accounts")
    run(loop, drain(panel))
    view = panel.view  # type: ignore[union-attr]
    assert view.views is not None and view.views.key == "accounts/accountsList"
    panel.filters.email.setText("admin@")  # type: ignore[union-attr]
    assert view.views.save_as("Administrators")
    view.views.reset()
    assert panel.filters.email.text() == ""  # type: ignore[union-attr]
    run(loop, drain(panel))

    palette = window.open_palette()
    qtbot.keyClicks(palette.search, "view admin")
    shown = [e for e in palette.shown if e.kind == "view"]
    assert [e.title for e in shown] == ["View: Administrators"]
    assert shown[0].detail == "Accounts"
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    assert panel.filters.email.text() == "admin@"  # type: ignore[union-attr]
    assert view.views.active == "Administrators"
    assert view.views_button.text() == "View: Administrators"
    run(loop, wait_for(lambda: panel.controller.model.total == 1))  # type: ignore[union-attr]
    run(loop, drain(panel))


def test_where_the_views_are_kept(tmp_path: Path) -> None:
    production = saved_views_store("Production", kiosk=False, tour=False)
    kiosk = saved_views_store("Production", kiosk=True, tour=False)
    tour = saved_views_store("Sandbox", kiosk=False, tour=True)
    assert production.scope == profile_scope("Production")
    assert kiosk.scope == KIOSK_SCOPE
    assert production.path == kiosk.path  # the user's config folder (tests: a temporary one)
    assert tour.path != production.path and tour.names("accounts/accountsList") == []
