"""The panel base: panels load themselves when first shown, share one live profile, log a
failed task once (without the server's message) and stop when the main window closes."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
import qasync

from portal_admin.client import PortalClient
from portal_admin.client.errors import ValidationError
from portal_admin.ui.mainwindow.window import MainWindow
from portal_admin.ui.panels import accounts, invitations
from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.invitations.panel import InvitationsPanel
from portal_admin.ui.panels.notifications.types_panel import ChannelTypesPanel
from portal_admin.ui.panels.reference.profile_panel import ProfilePanel
from portal_admin.ui.panels.registry import LiveProfile, PanelRegistry
from portal_admin.ui.panels.security.sessions import SessionsPanel

from .panel_support import run, wait_for


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


def test_a_failed_task_is_logged_once_without_the_servers_message(
    qtbot: Any,
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def refused() -> None:
        raise ValidationError(
            "password hunter2 is too short", code="4000", http_status=400, request_id="req-1"
        )

    async def bug() -> None:
        raise KeyError("a bug")

    async def scenario() -> None:
        panel = InvitationsPanel(panel_context(admin))  # never shown: it loads nothing
        qtbot.addWidget(panel)
        for coro in (refused(), bug(), asyncio.sleep(60)):
            panel.spawn(coro)
        await asyncio.sleep(0)
        panel.close_tasks()  # the sleep: cancelled, which is no failure
        await panel.wait_idle()

    with caplog.at_level(logging.DEBUG, logger="portal_admin.ui.panels.base"):
        run(loop, scenario())
    failed = [r for r in caplog.records if "background task failed" in r.getMessage()]
    assert len(failed) == 2
    known, unforeseen = sorted(failed, key=lambda r: r.levelno)
    assert known.levelno == logging.WARNING and known.exc_info is None
    text = known.getMessage()
    assert "InvitationsPanel" in text and "ValidationError" in text
    assert "code=4000" in text and "status=400" in text and "request_id=req-1" in text
    assert "hunter2" not in text
    assert unforeseen.levelno == logging.ERROR and unforeseen.exc_info is not None
    assert isinstance(unforeseen.exc_info[1], KeyError)


def test_close_tasks_reaches_inner_panels_and_the_page_fetches(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    async def scenario() -> None:
        panel = ProfilePanel(panel_context(admin))
        qtbot.addWidget(panel)
        panel.show()
        await wait_for(lambda: panel.loaded)
        await panel.wait_idle()
        inner = panel.invitations  # a panel inside the panel
        outer_task, inner_task = panel.spawn(asyncio.sleep(60)), inner.spawn(asyncio.sleep(60))
        closed: list[bool] = []
        original = inner.model.close

        def close() -> None:
            closed.append(True)
            original()

        inner.model.close = close  # type: ignore[method-assign]
        panel.close_tasks()
        await panel.wait_idle()
        await inner.wait_idle()
        assert outer_task is not None and outer_task.cancelled()
        assert inner_task is not None and inner_task.cancelled()
        assert closed == [True]

    run(loop, scenario())


def test_the_main_window_stops_its_panels_when_it_closes(
    qtbot: Any, loop: qasync.QEventLoop, admin: PortalClient, panel_context: Any
) -> None:
    registry = PanelRegistry()
    accounts.register(registry)
    invitations.register(registry)
    context = panel_context(admin)

    async def scenario() -> None:
        window = MainWindow(context.profile, context.runner, registry, context=context)
        qtbot.addWidget(window)
        window.show()
        built = [window.show_panel(name) for name in ("accounts", "invitations")]
        tasks = []
        for panel in built:
            assert isinstance(panel, PanelBase)
            await wait_for(lambda p=panel: p.loaded)
            await panel.wait_idle()
            tasks.append(panel.spawn(asyncio.sleep(60)))
        window.close()
        for panel in built:
            assert isinstance(panel, PanelBase)
            await panel.wait_idle()
        assert all(task is not None and task.cancelled() for task in tasks)

    run(loop, scenario())


async def test_a_job_records_the_profile_server_and_live_account() -> None:
    """One place builds what a job records of where and by whom it runs (the bulk window, a
    revert and a remediation all ask the context)."""
    from types import SimpleNamespace

    from portal_admin.connection.profiles import sandbox_profile
    from portal_admin.ui.operations import OperationRunner
    from portal_admin.ui.panels.registry import LiveProfile, PanelContext

    me = SimpleNamespace(account_email="admin@sandbox.test", biz_id="U1")

    async def fetch() -> object:
        return me

    client = SimpleNamespace(base_url="http://sandbox.local")
    context = PanelContext(
        runner=OperationRunner(), profile=sandbox_profile(), client=client,
        extras={"live_profile": LiveProfile(fetch)},
    )  # fmt: skip
    made = await context.job_context()
    assert (made.profile, made.server, made.account, made.self_id) == (
        sandbox_profile().name, "http://sandbox.local", "admin@sandbox.test", "U1",
    )  # fmt: skip
    assert made.environment == str(sandbox_profile().environment)
