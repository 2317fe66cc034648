"""The profile panel: live profile fields, own invitations, the change-password hook."""

from __future__ import annotations

from typing import Any

import qasync

from portal_admin.client import PortalClient
from portal_admin.ui.panels.reference.profile_panel import ProfilePanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import save_screenshot

from ..panel_support import SHOTS, place_panel, run, wait_for


def build(qtbot: Any, loop: qasync.QEventLoop, context: PanelContext) -> ProfilePanel:
    panel = ProfilePanel(context)
    place_panel(qtbot, panel, 1280, 640)
    loop.run_until_complete(panel.wait_idle())
    loop.run_until_complete(panel.invitations.wait_idle())
    return panel


def test_shows_the_live_profile_and_extra_fields(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(admin))
    assert panel.field("accountEmail") == "admin@sandbox.test"
    assert panel.field("accountName") == "Sandbox Administrator"
    assert panel.field("accountPortal") == "System portal" or panel.field("accountPortal")
    assert panel.field("accountStatus")
    assert "Sandbox Operations (primary)" in panel.field("workspaces").splitlines()
    assert "workspace:invitation:write" in panel.field("permissionCodes").splitlines()
    assert panel.field("roles").splitlines() == [
        "Owner in Sandbox Operations",
        "Owner in Tenant Review",
    ]
    assert panel.field("mfaMethods").count(",") == 1
    keys = list(panel.shown_keys())
    assert keys[:3] == ["accountEmail", "accountName", "accountPortal"]
    assert "workspaceBizId" not in keys and "pendingApproval" not in keys
    assert len(panel.invitations.model.rows) == 5  # its own invitations, reused widget
    assert not panel.change_password_button.isVisible()  # no hook: hidden
    save_screenshot(panel, SHOTS / "profile.png")


def test_change_password_hook(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    calls: list[Any] = []
    panel = build(qtbot, loop, panel_context(admin, change_password=lambda: calls.append(True)))
    assert panel.change_password_button.isVisible()
    assert panel.change_password_button.text() == "Change password\u2026"
    with qtbot.waitSignal(panel.changePasswordRequested, timeout=1000):
        panel.change_password_button.click()
    assert calls == [True]  # the hook takes no arguments (ui/panels/registry.py)


def test_async_change_password_hook_is_awaited(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    done: list[bool] = []

    async def hook() -> None:
        done.append(True)

    panel = build(qtbot, loop, panel_context(admin, change_password=hook))
    panel.request_password_change()
    loop.run_until_complete(panel.wait_idle())
    assert done == [True]


def test_auditor_profile(
    qtbot: Any, loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Any
) -> None:
    panel = build(qtbot, loop, panel_context(auditor))
    assert panel.field("accountEmail") == "auditor@sandbox.test"
    assert "workspace:invitation:write" not in panel.field("permissionCodes")


def test_signed_out_profile_error_is_shown(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    loop.run_until_complete(admin.auth.logout())
    panel = build(qtbot, loop, panel_context(admin))
    assert panel.error.isVisible()
    assert "could not be loaded" in panel.error.text()
    assert "signed in" in panel.error.text()
    assert list(panel.shown_keys()) == []


def test_f5_in_the_main_window_fetches_the_profile_again(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    from portal_admin.ui.mainwindow.window import MainWindow
    from portal_admin.ui.panels import reference
    from portal_admin.ui.panels.registry import PanelRegistry

    calls: list[int] = []
    original = admin.auth.profile

    async def profile() -> Any:
        calls.append(1)
        return await original()

    admin.auth.profile = profile  # type: ignore[method-assign]
    registry = PanelRegistry()
    reference.register(registry)
    context = panel_context(admin)
    window = MainWindow(context.profile, context.runner, registry, context=context)
    qtbot.addWidget(window)
    window.show()
    panel = window.show_panel("profile")
    assert isinstance(panel, ProfilePanel)
    run(loop, wait_for(lambda: panel.loaded))
    run(loop, panel.wait_idle())
    before = len(calls)
    window.refresh_action.trigger()  # F5, as the panel's Refresh button
    run(loop, wait_for(lambda: len(calls) > before))
    run(loop, panel.wait_idle())
