"""Program bugs the chaos walk found, one test each, so that they stay fixed."""

from __future__ import annotations

import asyncio
import gc
import sys
from types import SimpleNamespace, TracebackType
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import pytest
import qasync
from PySide6.QtWidgets import QApplication

from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.profiles.store import sandbox_profile


def test_profile_panel_change_password_button_calls_the_hook_without_arguments(
    qapp: QApplication, loop: qasync.QEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    from portal_admin.ui.panels.reference.profile_panel import ProfilePanel

    hooked: list[object] = []
    raised: list[BaseException] = []

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        raised.append(exc)

    monkeypatch.setattr(sys, "excepthook", hook)

    def open_change_password() -> None:  # the signature Workspace gives
        hooked.append(True)

    client = MagicMock()
    client.is_allowed.return_value = True
    client.auth.profile = AsyncMock(side_effect=ConnectionError("offline"))
    context = PanelContext(
        runner=OperationRunner(presenter=lambda *a: None),
        profile=sandbox_profile(),
        client=client,
        extras={"change_password": open_change_password},
    )
    panel = ProfilePanel(context)
    try:
        panel.change_password_button.click()
    finally:
        panel.deleteLater()
    assert not raised, raised
    assert hooked == [True]


def test_constants_cache_failed_fetch_after_cancelled_waiter_is_retrieved(
    qapp: QApplication, loop: qasync.QEventLoop
) -> None:
    from portal_admin.ui.panels.constants_cache import ConstantsCache

    reported: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))

    class Constants:
        async def user_account_statuses(self) -> list[object]:
            await asyncio.sleep(0.02)
            raise ConnectionError("the server went away")

    cache = ConstantsCache(SimpleNamespace(constants=Constants()))

    async def scenario() -> None:
        waiter = asyncio.ensure_future(cache.items("user-account-statuses"))
        await asyncio.sleep(0.005)
        waiter.cancel()  # the panel gave up (refresh, language switch, closed)
        await asyncio.gather(waiter, return_exceptions=True)
        await asyncio.sleep(0.05)
        gc.collect()
        await asyncio.sleep(0.01)

    loop.run_until_complete(scenario())
    cache.deleteLater()
    assert not reported, [c.get("message") for c in reported]


def test_my_invitations_refresh_is_a_plain_method_as_f5_expects() -> None:
    import inspect

    from portal_admin.ui.panels.invitations.own import MyInvitationsPanel

    assert not inspect.iscoroutinefunction(MyInvitationsPanel.refresh)


def test_a_local_file_error_is_not_described_as_a_network_failure(qapp: QApplication) -> None:
    from portal_admin.ui.error_info import describe_error

    info = describe_error(OSError(36, "File name too long"))
    assert "server" not in info.summary.lower(), info.summary
