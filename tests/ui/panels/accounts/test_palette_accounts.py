"""The command palette's account lookup against the in-process sandbox: by e-mail, by id, by
name; a new keystroke cancels the lookup under way; the account opens in the accounts panel
and is remembered among the recent ones; a failed lookup is explained in the palette."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import qasync
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.ui.error_info import describe_error
from portal_admin.ui.mainwindow.window import MainWindow
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


def accounts_in(palette: Any) -> list[Any]:
    return [e for e in palette.shown if e.kind == "account"]


def test_an_email_finds_the_account_and_enter_opens_it(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    window = window_for(qtbot, panel_context(admin))
    palette = window.open_palette()
    assert palette.lookup is not None
    qtbot.keyClicks(palette.search, ADMIN_EMAIL)
    found = run(loop, wait_for(lambda: accounts_in(palette)))
    assert found[0].detail.startswith(ADMIN_EMAIL)
    assert palette.shown[0] is found[0]  # the server's answer comes first
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    panel = window.current_panel()
    controller = panel.controller  # type: ignore[union-attr]
    run(loop, wait_for(lambda: controller.current is not None))
    assert controller.current.account_email == ADMIN_EMAIL
    assert [a.account_email for a in window.recent_accounts] == [ADMIN_EMAIL]
    run(loop, drain(panel))
    again = window.open_palette()  # the account is now a recent entry
    qtbot.keyClicks(again.search, "admin")
    assert any(e.kind == "account" and e.detail.startswith(ADMIN_EMAIL) for e in again.shown)
    again.reject()


def test_an_id_or_a_name_finds_it_too(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    me = run(loop, admin.auth.profile())
    window = window_for(qtbot, panel_context(admin))
    palette = window.open_palette()
    qtbot.keyClicks(palette.search, me.biz_id)
    found = run(loop, wait_for(lambda: accounts_in(palette)))
    assert me.biz_id in found[0].detail
    palette.search.clear()
    first_word = (me.account_name or "").split()[0]
    qtbot.keyClicks(palette.search, first_word)
    found = run(loop, wait_for(lambda: accounts_in(palette)))
    assert any(me.biz_id in e.detail for e in found)
    palette.reject()


def test_typing_on_cancels_the_lookup_under_way(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    asked: list[str] = []
    window = window_for(qtbot, panel_context(admin))
    palette = window.open_palette()
    real = palette.lookup
    assert real is not None

    async def slow(text: str) -> list[Any]:
        asked.append(text)
        await asyncio.sleep(0.5)
        return await real(text)

    palette.lookup = slow
    qtbot.keyClicks(palette.search, "adm")
    run(loop, wait_for(lambda: asked == ["adm"]))
    first = palette._task
    qtbot.keyClicks(palette.search, "in@")
    assert first is not None
    run(loop, wait_for(first.done))
    assert first.cancelled()
    run(loop, wait_for(lambda: accounts_in(palette), timeout=5))
    assert asked == ["adm", "admin@"]
    palette.reject()


def test_a_failed_lookup_is_explained_and_the_text_kept(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make
) -> None:
    window = window_for(qtbot, panel_context(admin))
    palette = window.open_palette()

    failure = ConnectionError("the network is down")

    async def broken(text: str) -> list[Any]:
        raise failure

    palette.lookup = broken
    qtbot.keyClicks(palette.search, "someone@example.com")
    assert palette.status.text() == "Looking for accounts\u2026"
    explained = describe_error(failure).summary
    run(loop, wait_for(lambda: palette.status.text() == explained))
    assert palette.isVisible() and palette.search.text() == "someone@example.com"
    palette.reject()
