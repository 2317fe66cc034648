"""The channels panel against the in-process sandbox: listing, filters, paging, the mail-server
checks before a save, masked passwords, status changes, delete, permissions and errors."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from portal_admin.client import PortalClient
from portal_admin.client.events import RequestStarted
from portal_admin.ui.panels.notifications.channel_dialog import ChannelDialog
from portal_admin.ui.panels.notifications.channels_panel import ChannelsPanel
from portal_admin.ui.panels.notifications.settings_forms import EmailSettings
from portal_admin.ui.panels.registry import PanelContext

from ..panel_support import answer_box, shown_codes, wait_for
from .support import H, visible_texts
from .support import channels_panel as _panel
from .support import channels_reloaded as _reloaded
from .support import select_channel as _select

Ctx = Callable[..., PanelContext]
SECRET = "Sup3r-Secret-Pass!"
IMAP_SECRET = "Imap-Hidden-7788"


def _names(panel: ChannelsPanel) -> list[str]:
    return [r.channel_name or "" for r in panel.model.rows]


def _stored(app: Any, name: str) -> dict[str, Any]:
    row = app.state.sandbox.db.one(
        "SELECT config FROM notification_channels WHERE channel_name = ?", (name,)
    )
    assert row is not None, name
    config: dict[str, Any] = json.loads(row["config"])
    return config


def _fill_smtp(dialog: ChannelDialog, host: str = "smtp.example.com") -> EmailSettings:
    email = dialog.email
    assert email is not None
    email.smtp.host_edit.setText(host)
    email.smtp.security_combo.setCurrentIndex(email.smtp.security_combo.findData("TLS"))
    email.smtp.username_edit.setText("mailer@example.com")
    email.smtp.password_edit.setText(SECRET)
    email.smtp.from_edit.setText("alerts@example.com")
    return email


def _new_email_dialog(panel: ChannelsPanel, name: str) -> ChannelDialog:
    dialog = panel.controller.open_create()
    dialog.name_edit.setText(name)
    dialog.category_combo.setCurrentIndex(dialog.category_combo.findData("EMAIL"))
    return dialog


def test_lists_channels_with_masked_settings(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Ctx,
    qtbot: Any,
    qtmodeltester: Any,
    sandbox_app: Any,
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    loop.run_until_complete(panel.controller.start())
    assert sorted(_names(panel)) == sorted(
        ["Platform mail", "Backup mail relay", "Operations SMS", "Northwind alerts",
         "Northwind in-app"]
    )  # fmt: skip
    headers = [panel.model.headerData(i, H) for i in range(8)]
    assert headers == [
        "Name", "Category", "Status", "Default", "Delivers via", "Institution", "Description",
        "Updated",
    ]  # fmt: skip
    qtmodeltester.check(panel.model)
    row = _select(panel, "Platform mail")
    number = panel.model.rows.index(row)
    assert panel.model.index(number, 1).data() == "Email"
    assert panel.model.index(number, 2).data() == "Active"
    assert panel.model.index(number, 4).data() == (
        "smtp.sandbox.test:587 STARTTLS \u2192 no-reply@sandbox.test"
    )
    details = dict(panel.detail.values())
    assert details["Host"] == "smtp.sandbox.test" and details["IMAP \u203a Port"] == "993"
    assert (
        details["Password"]
        == details["IMAP \u203a Password"]
        == "\u2022\u2022\u2022\u2022\u2022\u2022 (set)"
    )
    assert [panel.category_filter.itemData(i) for i in range(5)] == [
        None, "EMAIL", "SMS", "WEBHOOK", "IN_APP",
    ]  # fmt: skip
    assert [panel.status_filter.itemData(i) for i in range(3)] == [None, "ACTIVE", "INACTIVE"]
    stored = _stored(sandbox_app, "Platform mail")
    texts = "\n".join(visible_texts(panel))
    assert "smtp.sandbox.test" in texts
    assert stored["password"] not in texts and stored["imap"]["password"] not in texts
    assert panel.controller.enabled_categories == [
        ("EMAIL", "Email"), ("SMS", "SMS"), ("WEBHOOK", "Webhook"),
    ]  # fmt: skip


def test_each_filter(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        sms = next(r for r in panel.model.rows if r.channel_name == "Operations SMS")
        panel.institution_filter.setText(sms.institution_biz_id or "")
        panel.apply_filters()
        await _reloaded(panel)
        assert all(r.institution_biz_id == sms.institution_biz_id for r in panel.model.rows)
        assert "Operations SMS" in _names(panel) and len(_names(panel)) == 3
        panel.institution_filter.clear()
        panel.category_filter.setCurrentIndex(panel.category_filter.findData("EMAIL"))
        panel.apply_filters()
        await _reloaded(panel)
        assert sorted(_names(panel)) == ["Backup mail relay", "Platform mail"]
        panel.category_filter.setCurrentIndex(0)
        panel.status_filter.setCurrentIndex(panel.status_filter.findData("INACTIVE"))
        panel.apply_filters()
        await _reloaded(panel)
        assert sorted(_names(panel)) == ["Backup mail relay", "Northwind in-app"]
        panel.status_filter.setCurrentIndex(0)
        panel.active_only.setChecked(True)
        await _reloaded(panel)
        assert sorted(_names(panel)) == ["Northwind alerts", "Operations SMS", "Platform mail"]

    loop.run_until_complete(scenario())


def test_pages_arrive_as_the_view_asks(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any, qtmodeltester: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot, page_size=2, show=False)

    async def scenario() -> None:
        await panel.controller.start()
        assert len(panel.model.rows) == 2 and panel.model.total == 5
        for expected in (4, 5):
            panel.model.fetchMore(QModelIndex())
            await panel.model.wait_idle()
            assert len(panel.model.rows) == expected
        assert not panel.model.canFetchMore(QModelIndex())

    loop.run_until_complete(scenario())
    qtmodeltester.check(panel.model)


def test_create_checks_smtp_and_imap_with_the_server_then_saves(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Ctx,
    qtbot: Any,
    sandbox_app: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    panel = _panel(panel_context(admin), qtbot)
    calls: list[str] = []
    admin.events.subscribe(lambda e: calls.append(getattr(e, "operation_id", "")), RequestStarted)

    async def scenario() -> None:
        await panel.controller.start()
        dialog = _new_email_dialog(panel, "Alerts mail")
        assert [dialog.category_combo.itemData(i) for i in range(3)] == ["EMAIL", "SMS", "WEBHOOK"]
        email = dialog.email
        assert email is not None and not dialog.save_button.isEnabled()
        assert email.smtp.password_edit.echoMode() == QLineEdit.EchoMode.Password
        _fill_smtp(dialog)
        assert email.smtp.port_spin.value() == 465  # followed the TLS choice
        email.imap_group.setChecked(True)
        assert "IMAP: Host is required." in dialog.problems()
        email.imap.host_edit.setText("imap.example.com")
        email.imap.password_edit.setText(IMAP_SECRET)
        assert dialog.problems() == [] and dialog.save_button.isEnabled()
        calls.clear()
        assert await panel.controller.submit(dialog)
        started = [c for c in calls if c.startswith("notifications.")]
        assert started[:3] == [
            "notifications.validate_smtp",
            "notifications.validate_imap",
            "notifications.channels_create",
        ]
        await _reloaded(panel)
        row = panel.current()
        assert row is not None and row.channel_name == "Alerts mail"
        assert row.config["password"] == "********"
        stored = _stored(sandbox_app, "Alerts mail")
        assert stored["password"] == SECRET and stored["imap"]["password"] == IMAP_SECRET
        assert stored["port"] == 465 and stored["security"] == "TLS"
        texts = "\n".join(visible_texts(panel))
        assert "Alerts mail" in texts and SECRET not in texts and IMAP_SECRET not in texts

    loop.run_until_complete(scenario())
    logged = caplog.text + "\n".join(str(r.__dict__) for r in caplog.records)
    assert "validate_smtp" in logged or "notifications" in logged  # DEBUG logging was captured
    assert SECRET not in logged and IMAP_SECRET not in logged


def test_failed_check_blocks_the_save_and_keeps_the_dialog_filled(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Ctx,
    qtbot: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        before = panel.model.total
        dialog = _new_email_dialog(panel, "Broken mail")
        _fill_smtp(dialog, host="mail.example.invalid")
        assert not await panel.controller.submit(dialog)
        assert dialog.isVisible()
        verdict = dialog.verdict_label.text()
        assert verdict.startswith("\u2718 SMTP check failed: Could not connect to SMTP server")
        assert "mail.example.invalid:465" in verdict
        assert dialog.name_edit.text() == "Broken mail"
        assert dialog.email is not None and dialog.email.smtp.password_edit.text() == SECRET
        panel.refresh()
        await _reloaded(panel)
        assert panel.model.total == before  # nothing was created
        assert SECRET not in "\n".join(visible_texts(dialog) + visible_texts(panel))
        # corrected in place, the same dialog saves
        dialog.email.smtp.host_edit.setText("mail.example.com")
        assert not dialog.verdict_label.isVisible()  # the old verdict no longer applies
        assert await panel.controller.submit(dialog)
        assert not dialog.isVisible()

    loop.run_until_complete(scenario())
    assert SECRET not in caplog.text


def test_test_connection_shows_the_verdict_without_saving(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        dialog = _new_email_dialog(panel, "Probe")
        _fill_smtp(dialog)
        assert dialog.test_button.isVisible() and dialog.test_button.isEnabled()
        dialog.test_button.click()  # the real button: an async slot
        await wait_for(lambda: dialog.verdict_label.isVisible())
        assert dialog.verdict_label.text().startswith("\u2714 SMTP check passed")
        assert dialog.isVisible()
        panel.refresh()
        await _reloaded(panel)
        assert "Probe" not in _names(panel)
        dialog.category_combo.setCurrentIndex(dialog.category_combo.findData("WEBHOOK"))
        assert not dialog.test_button.isVisible() and dialog.mail_checks() == []
        dialog.reject()

    loop.run_until_complete(scenario())


def test_update_keeps_or_replaces_the_stored_password(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Ctx,
    qtbot: Any,
    sandbox_app: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    panel = _panel(panel_context(admin), qtbot)
    original = _stored(sandbox_app, "Platform mail")

    async def scenario() -> None:
        await panel.controller.start()
        _select(panel, "Platform mail")
        dialog = panel.controller.open_edit()
        assert dialog is not None and not dialog.category_combo.isEnabled()
        email = dialog.email
        assert email is not None and email.uses_imap
        field = email.smtp.password_edit
        assert field.text() == "" and field.placeholderText() == "Unchanged (type to replace)"
        assert email.smtp.host_edit.text() == "smtp.sandbox.test"
        assert dialog.mail_checks()[0][1]["channel_biz_id"] == dialog.record.biz_id
        dialog.name_edit.setText("Platform mail (main)")
        assert await panel.controller.submit(dialog)
        kept = _stored(sandbox_app, "Platform mail (main)")
        assert kept["password"] == original["password"]
        assert kept["imap"]["password"] == original["imap"]["password"]
        await _reloaded(panel)
        assert panel.current().channel_name == "Platform mail (main)"
        texts = "\n".join(visible_texts(panel))
        assert original["password"] not in texts and original["imap"]["password"] not in texts

        dialog = panel.controller.open_edit()
        assert dialog is not None and dialog.email is not None
        dialog.email.smtp.password_edit.setText(SECRET)
        assert await panel.controller.submit(dialog)
        assert _stored(sandbox_app, "Platform mail (main)")["password"] == SECRET

    loop.run_until_complete(scenario())
    assert SECRET not in caplog.text and original["password"] not in caplog.text


def test_other_categories_have_their_own_settings(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any, sandbox_app: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        dialog = panel.controller.open_create()
        dialog.name_edit.setText("Night SMS")
        dialog.category_combo.setCurrentIndex(dialog.category_combo.findData("SMS"))
        assert "API key is required." in dialog.problems()
        settings: Any = dialog.settings
        settings.provider_edit.setText("twilio")
        settings.key_edit.setText(SECRET)
        dialog.status_combo.setCurrentIndex(dialog.status_combo.findData("INACTIVE"))
        assert await panel.controller.submit(dialog)
        assert _stored(sandbox_app, "Night SMS")["apiKey"] == SECRET
        await _reloaded(panel)
        row = panel.current()
        assert row.channel_status.code == "INACTIVE" and row.config["apiKey"] == "********"
        assert (
            dict(panel.detail.values())["API key"] == "\u2022\u2022\u2022\u2022\u2022\u2022 (set)"
        )
        _select(panel, "Northwind alerts")
        edit = panel.controller.open_edit()
        assert edit is not None
        settings = edit.settings
        assert settings.url_edit.text() == "https://hooks.sandbox.test/northwind"
        assert settings.secret_edit.wire_value() == "********"
        edit.reject()

    loop.run_until_complete(scenario())


def test_activate_and_deactivate_follow_the_status(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        _select(panel, "Backup mail relay")
        assert panel.status_button.text() == "Activate"
        panel.status_button.click()
        await wait_for(lambda: panel.current() is not None and panel.current().active)
        assert panel.current().channel_name == "Backup mail relay"
        assert panel.status_button.text() == "Deactivate"
        assert dict(panel.detail.values())["Status"] == "Active"
        await panel.controller.toggle()
        await _reloaded(panel)
        assert panel.current().channel_status.code == "INACTIVE"

    loop.run_until_complete(scenario())


def test_delete_asks_naming_the_channel(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        _select(panel, "Northwind in-app")
        asked = asyncio.ensure_future(panel.controller.delete())
        assert "\u201cNorthwind in-app\u201d (In-app)" in await answer_box(accept=False)
        assert not await asked
        panel.delete_button.click()
        await answer_box(accept=True)
        await wait_for(lambda: "Northwind in-app" not in _names(panel) and not panel.model.loading)
        assert len(_names(panel)) == 4

    loop.run_until_complete(scenario())


def test_server_refusals_are_shown_with_code_and_request_id(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, runner: Any, qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        dialog = panel.controller.open_create()
        dialog.name_edit.setText("Elsewhere")
        dialog.category_combo.setCurrentIndex(dialog.category_combo.findData("WEBHOOK"))
        dialog.settings.url_edit.setText("https://example.com/hook")  # type: ignore[attr-defined]
        dialog.institution_edit.setText("INSNOSUCHTHING000")
        assert not await panel.controller.submit(dialog)
        info = dialog.error_label.info
        assert info is not None and info.code == "VALIDATION.INVALID_PARAMETER"
        assert info.http_status == 400 and info.request_id
        assert info.request_id in dialog.error_label.text()
        assert dialog.isVisible() and dialog.institution_edit.text() == "INSNOSUCHTHING000"
        dialog.reject()

        row = _select(panel, "Operations SMS")
        await admin.notifications.delete_channel(row.biz_id)  # gone behind the panel's back
        assert await panel.controller.toggle(row) is None
        assert shown_codes(runner)[-1] == "VALIDATION.INVALID_PARAMETER"
        assert runner.shown[-1].request_id

    loop.run_until_complete(scenario())


def test_auditor_sees_changes_disabled_with_the_reason(
    loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Ctx, runner: Any, qtbot: Any
) -> None:
    panel = _panel(panel_context(auditor), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        assert len(panel.model.rows) == 5
        _select(panel, "Platform mail")
        reason = "Your role lacks the permission notification:channel:write."
        for button in (
            panel.new_button,
            panel.edit_button,
            panel.status_button,
            panel.delete_button,
        ):
            assert not button.isEnabled() and button.toolTip() == reason
        assert panel.notice.isVisible()
        assert panel.controller.open_edit() is None
        assert dict(panel.detail.values())["Password"].endswith("(set)")
        assert await panel.controller.toggle() is None  # if attempted anyway: 403, shown
        assert shown_codes(runner)[-1] == "ACCESS.PERMISSION_DENIED"

    loop.run_until_complete(scenario())


def open_dialogs() -> list[ChannelDialog]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, ChannelDialog) and w.isVisible()
    ]


def test_keys_and_context_menu_reach_the_action_buttons(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: Any
) -> None:
    """The list's context menu offers the row's buttons as they stand; Delete asks to delete
    (the same confirmation), F2 and Enter open the editor."""
    panel = _panel(panel_context(admin), qtbot)

    async def scenario() -> None:
        await panel.controller.start()
        _select(panel, "Northwind in-app")
        entries = [a for a in panel.list.context_menu().actions() if not a.isSeparator()]
        buttons = [panel.edit_button, panel.status_button, panel.delete_button]
        assert [a.text() for a in entries[:3]] == [b.text() for b in buttons]
        assert [a.isEnabled() for a in entries[:3]] == [b.isEnabled() for b in buttons]
        table = panel.list.table
        table.setFocus()
        qtbot.keyClick(table, Qt.Key.Key_Delete)
        assert "\u201cNorthwind in-app\u201d (In-app)" in await answer_box(accept=False)
        qtbot.keyClick(table, Qt.Key.Key_F2)
        dialogs = await wait_for(lambda: open_dialogs())
        assert len(dialogs) == 1 and dialogs[0].name_edit.text() == "Northwind in-app"
        dialogs[0].reject()
        await asyncio.sleep(0.05)
        qtbot.keyClick(table, Qt.Key.Key_Return)  # Enter (or a double click) opens it too
        dialogs = await wait_for(lambda: open_dialogs())
        assert len(dialogs) == 1
        dialogs[0].reject()
        await asyncio.sleep(0.05)

    loop.run_until_complete(scenario())
    assert "Northwind in-app" in _names(panel)
