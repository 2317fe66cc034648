"""The channel-types panel against the in-process sandbox through the real client."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import qasync
from panel_support import answer_box, client_for, run, shown_codes, wait_for
from PySide6.QtCore import QCoreApplication, QModelIndex, QTranslator
from test_notifications_support import H, end_sessions

from portal_admin.client import PortalClient
from portal_admin.ui.panels import notifications
from portal_admin.ui.panels.constants_cache import ConstantsCache
from portal_admin.ui.panels.notifications.type_dialog import ChannelTypeDialog
from portal_admin.ui.panels.notifications.types_panel import ChannelTypesPanel
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry

Ctx = Callable[..., PanelContext]


def _panel(
    ctx: PanelContext, qtbot: Any, page_size: int = 50, *, show: bool = True
) -> ChannelTypesPanel:
    panel = ChannelTypesPanel(ctx, page_size=page_size)
    qtbot.addWidget(panel)
    panel.resize(1100, 600)
    if show:  # a shown table asks for more pages while it has room
        panel.show()
    return panel


def _codes(panel: ChannelTypesPanel) -> list[str | None]:
    return [r.type_code for r in panel.model.rows]


def _select(panel: ChannelTypesPanel, code: str) -> Any:
    for number, row in enumerate(panel.model.rows):
        if row.type_code == code:
            panel.list.table.setCurrentIndex(panel.model.index(number, 0))
            return row
    raise AssertionError(f"{code} not listed")


async def _reloaded(panel: ChannelTypesPanel) -> None:
    await asyncio.sleep(0)
    await panel.model.wait_idle()


def test_register_adds_both_panels_lazily() -> None:
    registry = PanelRegistry()
    notifications.register(registry)
    assert [spec.id for spec in registry] == ["channel-types", "channels"]
    spec = registry.get("channel-types")
    assert spec is not None and spec.display_title() == "Notification channel types"


def test_factory_builds_the_panel(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    registry = PanelRegistry()
    notifications.register(registry)
    spec = registry.get("channel-types")
    assert spec is not None

    async def scenario() -> None:
        panel = spec.factory(panel_context(admin))  # a loop runs: loading starts by itself
        qtbot.addWidget(panel)
        assert isinstance(panel, ChannelTypesPanel)
        await wait_for(lambda: len(panel.model.rows) == 4)

    loop.run_until_complete(scenario())


def test_lists_seeded_types_and_passes_the_model_tester(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any, qtmodeltester: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    loop.run_until_complete(panel.controller.start())
    assert _codes(panel) == ["EMAIL", "SMS", "WEBHOOK", "IN_APP"]
    headers = [panel.model.headerData(i, H) for i in range(8)]
    assert headers == [
        "Code", "Value", "Name", "Description", "Status", "Display order", "Enabled", "Updated",
    ]  # fmt: skip
    assert [panel.model.index(0, c).data() for c in (0, 1, 2, 4, 5, 6)] == [
        "EMAIL", "80010101", "Email", "Enabled", "1", "\u2713",
    ]  # fmt: skip
    assert panel.model.index(3, 4).data() == "Disabled"
    assert [panel.status_filter.itemData(i) for i in range(3)] == [None, "ENABLED", "DISABLED"]
    qtmodeltester.check(panel.model)
    _select(panel, "SMS")
    details = dict(panel.detail.values())
    assert details["Code"] == "SMS" and details["Status"] == "Enabled"
    assert details["Icon URL"].endswith("/sms.svg")


def test_each_filter(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        panel.code_filter.setText("sms")
        panel.apply_filters()
        await _reloaded(panel)
        assert _codes(panel) == ["SMS"]
        panel.code_filter.clear()
        panel.status_filter.setCurrentIndex(panel.status_filter.findData("DISABLED"))
        panel.apply_filters()
        await _reloaded(panel)
        assert _codes(panel) == ["IN_APP"]
        panel.status_filter.setCurrentIndex(0)
        panel.enabled_only.setChecked(True)  # applies by itself
        await _reloaded(panel)
        assert _codes(panel) == ["EMAIL", "SMS", "WEBHOOK"]
        panel.code_filter.setText("NOPE")
        panel.apply_filters()
        await _reloaded(panel)
        assert _codes(panel) == []
        assert panel.list.overlay.label.text() == "Nothing matches these filters."

    loop.run_until_complete(scenario())


def test_pages_arrive_as_the_view_asks(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any, qtmodeltester: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot, page_size=3, show=False)

    async def scenario() -> None:
        await panel.controller.start()
        assert _codes(panel) == ["EMAIL", "SMS", "WEBHOOK"]
        assert panel.model.total == 4 and panel.model.canFetchMore(QModelIndex())
        panel.model.fetchMore(QModelIndex())
        await panel.model.wait_idle()
        assert _codes(panel) == ["EMAIL", "SMS", "WEBHOOK", "IN_APP"]
        assert not panel.model.canFetchMore(QModelIndex())
        assert panel.list.status.text() == "Showing 4 of 4"

    loop.run_until_complete(scenario())
    qtmodeltester.check(panel.model)


def test_create_with_extra_settings_checked_as_typed(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        dialog = panel.controller.open_create()
        assert dialog.isVisible() and not dialog.save_button.isEnabled()
        dialog.code_edit.setText("teams_chat")
        dialog.name_edit.setText("Teams chat")
        dialog.description_edit.setPlainText("Messages to a Teams channel")
        dialog.icon_edit.setText("https://static.example.com/teams.svg")
        dialog.extra_edit.setPlainText('{"retries": 3,')
        assert not dialog.save_button.isEnabled()
        assert "not valid JSON" in dialog.problems_label.text()
        dialog.extra_edit.setPlainText("[1, 2]")
        assert "must be a JSON object" in dialog.problems_label.text()
        dialog.extra_edit.setPlainText('{"retries": 3}')
        assert dialog.save_button.isEnabled() and not dialog.problems_label.isVisible()
        assert await panel.controller.submit(dialog)
        assert not dialog.isVisible()
        await _reloaded(panel)
        row = panel.current()
        assert row is not None and row.type_code == "TEAMS_CHAT"
        assert row.extra_config == {"retries": 3} and row.display_order == 5
        assert row.type_value == 80010121 and row.type_status.code == "ENABLED"
        assert dict(panel.detail.values())["Name"] == "Teams chat"

    loop.run_until_complete(scenario())


def test_local_checks_of_code_and_url(qtbot: Any) -> None:
    dialog = ChannelTypeDialog()
    qtbot.addWidget(dialog)
    dialog.code_edit.setText("9x")
    dialog.name_edit.setText("Name")
    assert any("2 to 32" in p for p in dialog.problems())
    dialog.code_edit.setText("PAGER")
    dialog.icon_edit.setText("ftp://example.com/x.svg")
    assert any("http or https" in p for p in dialog.problems())
    dialog.icon_edit.clear()
    assert dialog.problems() == [] and dialog.save_button.isEnabled()
    assert dialog.values() == {"type_name": "Name", "type_description": "", "type_code": "PAGER"}


def test_duplicate_code_is_refused_and_the_dialog_stays_filled(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        dialog = panel.controller.open_create()
        dialog.code_edit.setText("SMS")
        dialog.name_edit.setText("Second SMS")
        assert not await panel.controller.submit(dialog)
        assert dialog.isVisible() and dialog.save_button.isEnabled()
        assert dialog.code_edit.text() == "SMS" and dialog.name_edit.text() == "Second SMS"
        info = dialog.error_label.info
        assert info is not None and info.code == "VALIDATION.INVALID_PARAMETER"
        assert info.http_status == 400 and info.request_id
        assert "VALIDATION.INVALID_PARAMETER" in dialog.error_label.text()
        assert info.request_id in dialog.error_label.text()
        dialog.reject()

    loop.run_until_complete(scenario())


def test_update_changes_the_listed_type(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        _select(panel, "WEBHOOK")
        dialog = panel.controller.open_edit()
        assert dialog is not None and dialog.code_edit.isReadOnly()
        assert dialog.windowTitle() == "Edit channel type WEBHOOK"
        dialog.name_edit.setText("Web hooks")
        dialog.order_spin.setValue(9)
        dialog.extra_edit.setPlainText('{"timeoutSeconds": 10}')
        assert await panel.controller.submit(dialog)
        await _reloaded(panel)
        assert _codes(panel)[-1] == "WEBHOOK"  # ordered by display order
        row = panel.current()
        assert row.type_name == "Web hooks" and row.extra_config == {"timeoutSeconds": 10}
        assert dict(panel.detail.values())["Display order"] == "9"

    loop.run_until_complete(scenario())


def test_enable_and_disable_follow_the_status(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        _select(panel, "IN_APP")
        assert panel.status_button.text() == "Enable" and panel.status_button.isEnabled()
        panel.status_button.click()  # the real button: an async slot on the loop
        await wait_for(lambda: panel.current() is not None and panel.current().enabled)
        assert panel.current().type_code == "IN_APP"
        assert panel.status_button.text() == "Disable"
        assert dict(panel.detail.values())["Status"] == "Enabled"
        await panel.controller.toggle()
        await _reloaded(panel)
        assert panel.current().type_status.code == "DISABLED"
        assert panel.status_button.text() == "Enable"

    loop.run_until_complete(scenario())


def test_delete_asks_naming_the_type(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await admin.notifications.create_channel_type("PAGER", "Pager")
        await panel.controller.start()
        _select(panel, "PAGER")
        asked = asyncio.ensure_future(panel.controller.delete())
        text = await answer_box(accept=False)
        assert "\u201cPager\u201d (PAGER)" in text
        assert not await asked
        assert "PAGER" in _codes(panel)
        asked = asyncio.ensure_future(panel.controller.delete())
        await answer_box(accept=True)
        assert await asked
        await _reloaded(panel)
        assert "PAGER" not in _codes(panel)

    loop.run_until_complete(scenario())


def test_server_refusals_are_shown_with_code_and_request_id(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Ctx,
    runner: Any,
    qtbot: Any,
    sandbox_app: Any,
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        email = _select(panel, "EMAIL")  # channels use it: the server refuses
        deleting = asyncio.ensure_future(panel.controller.delete())
        await answer_box(accept=True)
        assert not await deleting
        info = runner.shown[-1]
        assert info.code == "VALIDATION.INVALID_PARAMETER" and info.request_id
        await admin.notifications.delete_channel_type(
            (await admin.notifications.create_channel_type("GONE", "Gone")).biz_id
        )
        stale = email.model_copy(update={"biz_id": "NCTUNKNOWN0000000"})
        assert await panel.controller.toggle(stale) is None  # unknown id: 400
        assert shown_codes(runner)[-1] == "VALIDATION.INVALID_PARAMETER"
        end_sessions(sandbox_app, "admin@sandbox.test")  # signed out behind our back
        assert await panel.controller.toggle(email) is None
        # the 401 makes the client refresh; the refused refresh is what is shown
        assert shown_codes(runner)[-1] == "AUTH.SESSION_NOT_FOUND"
        assert runner.shown[-1].request_id

    loop.run_until_complete(scenario())


def test_auditor_sees_changes_disabled_with_the_reason(
    loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Ctx, runner: Any, qtbot: Any
) -> None:
    panel = _panel(panel_context(auditor), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        assert len(panel.model.rows) == 4
        _select(panel, "SMS")
        reason = "Your role lacks the permission notification:channel:write."
        for button in (
            panel.new_button,
            panel.edit_button,
            panel.status_button,
            panel.delete_button,
        ):
            assert not button.isEnabled() and button.toolTip() == reason
        assert panel.notice.isVisible() and reason in panel.notice.text()
        assert panel.controller.open_edit() is None
        assert await panel.controller.toggle() is None  # if it were attempted: 403 shown
        assert shown_codes(runner)[-1] == "ACCESS.PERMISSION_DENIED"
        assert runner.shown[-1].request_id

    loop.run_until_complete(scenario())


class _Upper(QTranslator):
    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        return source.upper() if context.startswith("ChannelType") else ""

    def isEmpty(self) -> bool:
        return False


def test_texts_follow_a_language_change(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    loop.run_until_complete(panel.controller.start())
    _select(panel, "SMS")
    translator = _Upper()
    QCoreApplication.installTranslator(translator)
    try:
        qtbot.waitUntil(lambda: panel.new_button.text() == "&NEW\u2026")
        assert panel.status_button.text() == "DISABLE"
        assert panel.model.headerData(0, H) == "CODE"
        assert dict(panel.detail.values())["CODE"] == "SMS"
    finally:
        QCoreApplication.removeTranslator(translator)
    qtbot.waitUntil(lambda: panel.new_button.text() == "&New\u2026")


def _status_labels(panel: ChannelTypesPanel) -> list[str]:
    return [panel.status_filter.itemText(i) for i in range(1, panel.status_filter.count())]


def _chinese(texts: list[str]) -> bool:
    return bool(texts) and all(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in texts)


def test_choices_follow_a_language_switch_through_the_shared_cache(
    loop: qasync.QEventLoop,
    sandbox_app: Any,
    admin: PortalClient,
    panel_context: Ctx,
    qtbot: Any,
) -> None:
    zh = client_for(sandbox_app, "zh")
    run(loop, zh.__aenter__())
    clients = {"en": admin, "zh": zh}
    cache = ConstantsCache(lambda: clients[cache.language], "en")
    try:
        panel = _panel(panel_context(admin, constants=cache), qtbot)
        run(loop, panel.controller.start())
        english = _status_labels(panel)
        assert english and not _chinese(english)
        cache.set_language("zh")  # the program's language switch empties the cache
        run(loop, wait_for(lambda: _chinese(_status_labels(panel))))
        run(loop, panel.wait_idle())
        assert cache.cached("notification-channel-type-statuses") is not None  # shared
        panel.hide()
        cache.set_language("en")  # hidden: nothing fetched until shown again
        run(loop, asyncio.sleep(0.05))
        assert _chinese(_status_labels(panel))
        panel.show()
        run(loop, wait_for(lambda: _status_labels(panel) == english))
        run(loop, panel.wait_idle())
    finally:
        run(loop, zh.aclose())
