"""The panel base: panels load themselves when first shown and share one live profile."""

from __future__ import annotations

import asyncio
from typing import Any

import qasync
from panel_support import run, wait_for

from portal_admin.client import PortalClient
from portal_admin.ui.panels import LiveProfile
from portal_admin.ui.views.invitations.panel import InvitationsPanel
from portal_admin.ui.views.notifications.types_panel import ChannelTypesPanel
from portal_admin.ui.views.security.sessions import SessionsPanel


def counted_profile(client: PortalClient) -> list[int]:
    """Count the client's ``auth.profile()`` calls."""
    calls: list[int] = []
    original = client.auth.profile

    async def profile() -> Any:
        calls.append(1)
        return await original()

    client.auth.profile = profile  # type: ignore[method-assign]
    return calls


def test_panels_share_one_profile_fetch(
    qtbot: Any, loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Any
) -> None:
    calls = counted_profile(auditor)
    context = panel_context(auditor, live_profile=LiveProfile(auditor.auth.profile))

    async def scenario() -> None:
        invitations = InvitationsPanel(context)
        sessions = SessionsPanel(context)
        types = ChannelTypesPanel.build(context)
        for panel in (invitations, sessions, types):
            qtbot.addWidget(panel)
            panel.show()
        await types.controller.start()
        for panel in (invitations, sessions, types):
            await panel.wait_idle()
        assert invitations.loaded and sessions.loaded and types.loaded
        # the auditor may read only: the permission codes of the one profile apply everywhere
        assert not invitations.create_button.isEnabled()
        assert "permission" in invitations.create_button.toolTip()
        assert not types.new_button.isEnabled()
        assert invitations.profile_record is sessions.profile_record is types.profile_record
        sessions.refresh()  # F5 reloads the data, not the profile
        await sessions.wait_idle()

    run(loop, scenario())
    assert len(calls) == 1


def test_without_a_shared_profile_each_panel_fetches(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    calls = counted_profile(admin)
    context = panel_context(admin)

    async def scenario() -> None:
        for panel in (InvitationsPanel(context), SessionsPanel(context)):
            qtbot.addWidget(panel)
            panel.show()
            await wait_for(lambda p=panel: p.loaded)  # loaded by the first show
            await panel.wait_idle()
            assert panel.permissions.allows("invitations.create")

    run(loop, scenario())
    assert len(calls) == 2


def test_first_show_loads_once_and_close_tasks_cancels(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    async def scenario() -> None:
        panel = InvitationsPanel(panel_context(admin))
        qtbot.addWidget(panel)
        panel.show()
        assert panel.loading
        panel.hide()
        panel.show()  # shown again while loading: no second load
        await panel.wait_idle()
        assert panel.loaded and panel.status_filter.count() > 1  # the statuses, loaded
        never = panel.spawn(asyncio.sleep(60))
        assert never is not None
        panel.close_tasks()
        await panel.wait_idle()
        assert never.cancelled()

    run(loop, scenario())


def test_stale_data_reloads_at_once_when_shown_else_on_the_next_show(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    async def scenario() -> None:
        panel = SessionsPanel(panel_context(admin))
        qtbot.addWidget(panel)
        reloads: list[bool] = []
        original = panel.reload

        async def counted() -> bool:
            reloads.append(panel.isVisible())
            return await original()

        panel.reload = counted  # type: ignore[method-assign]
        panel.show()
        await wait_for(lambda: panel.loaded)
        await panel.wait_idle()
        assert reloads == [True]
        panel.reload_when_shown()  # on screen: now
        await panel.wait_idle()
        assert reloads == [True, True]
        panel.hide()
        panel.reload_when_shown()  # hidden: no work now
        await panel.wait_idle()
        assert reloads == [True, True] and not panel.loaded
        panel.show()
        await wait_for(lambda: panel.loaded)
        await panel.wait_idle()
        assert reloads == [True, True, True]

    run(loop, scenario())
