"""Every reversible change a panel sends records the value before it (the row it changed), so
that it can be reverted (#30): the accounts' status and fields, the IP whitelist (its entries,
enabled, disabled), notification channels and channel types (status and fields)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import qasync
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.client.events import ChangeFinished
from portal_admin.jobs.reversible import REVERSIBLE, values_of
from portal_admin.ui.panels.accounts.edit_dialog import AccountEditDialog
from portal_admin.ui.panels.accounts.status_dialog import StatusChangeDialog
from portal_admin.ui.panels.security.ip_whitelist import IpWhitelistPanel

from ..accounts.builders import build_accounts as build
from ..accounts.builders import choose
from ..accounts.support import answer_box, settle, wait_window
from ..notifications.support import (
    channels_panel,
    channels_reloaded,
    select_channel,
    select_type,
    types_panel,
    types_reloaded,
)
from ..panel_support import run
from ..security.support import with_answer

Ctx = Callable[..., Any]


def recorded(client: PortalClient) -> list[ChangeFinished]:
    changes: list[ChangeFinished] = []
    client.events.subscribe(lambda e: changes.append(e) if isinstance(e, ChangeFinished) else None)
    return changes


def journal_record(event: ChangeFinished) -> dict[str, Any]:
    return {
        "operation": event.operation_id,
        "targets": list(event.targets),
        "fields": event.fields,
        "before": event.before,
        "after": event.after,
    }


def every_value_has_its_before(changes: list[ChangeFinished]) -> dict[str, Any]:
    """Each change's values as a revert reads them; all with a value before."""
    found: dict[str, Any] = {}
    for event in changes:
        if event.operation_id.startswith("notifications.validate_"):
            continue  # the mail-server checks before a save change nothing
        assert event.operation_id in REVERSIBLE
        values = values_of(journal_record(event))
        assert values, event
        assert all(v.has_before for v in values), event
        found[event.operation_id] = {v.key: (v.before, v.after) for v in values}
    return found


def test_accounts_status_and_fields(
    loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Ctx
) -> None:
    panel = build(loop, qtbot, panel_context(admin))
    try:
        row = choose(loop, panel, "ACTIVE")
        changes = recorded(admin)

        async def suspend() -> bool:
            task = asyncio.ensure_future(panel.controller.run_action("SUSPEND"))
            dialog = await wait_window(StatusChangeDialog)
            dialog.confirm_button.click()
            return await task

        async def edit() -> Any:
            task = asyncio.ensure_future(panel.controller.run_action("EDIT"))
            dialog = await wait_window(AccountEditDialog)
            await settle(0.3)  # the constants lists arrive
            dialog.name.setText("Renamed Person")
            dialog.remark.setText("noted")
            dialog.save_button.click()
            await answer_box(accept=True)
            return await task

        assert run(loop, suspend())
        assert run(loop, edit())
        values = every_value_has_its_before(changes)
        assert values["accounts.status"] == {"status": ("ACTIVE", "SUSPENDED")}
        assert values["accounts.update"]["accountRemark"] == (row.account_remark, "noted")
        assert values["accounts.update"]["accountName"] == (row.account_name, "Renamed Person")
    finally:
        panel.close_tasks()


def test_ip_whitelist_entries_enable_and_disable(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: QtBot
) -> None:
    panel = IpWhitelistPanel(panel_context(admin))
    qtbot.addWidget(panel)
    run(loop, panel.reload())
    changes = recorded(admin)
    panel.model.add_entry("192.0.2.9/32")
    assert run(loop, panel.save())
    done, _ = run(loop, with_answer(panel.enable(), accept=True))
    assert done
    assert run(loop, panel.disable())
    values = every_value_has_its_before(changes)
    before, after = values["security.ip_whitelist_set"]["ips"]
    assert before == ["203.0.113.0/24", "198.51.100.23", "2001:db8::/32"]
    assert "192.0.2.9/32" in after or "192.0.2.9" in after
    assert values["security.ip_whitelist_enable"] == {"enabled": (False, True)}
    assert values["security.ip_whitelist_disable"] == {"enabled": (True, False)}


def test_channels_and_channel_types(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Ctx, qtbot: QtBot
) -> None:
    channels = channels_panel(panel_context(admin), qtbot)
    kinds = types_panel(panel_context(admin), qtbot)
    changes = recorded(admin)

    async def scenario() -> None:
        await channels.controller.start()
        select_channel(channels, "Backup mail relay")
        await channels.controller.toggle()
        await channels_reloaded(channels)
        select_channel(channels, "Platform mail")
        dialog = channels.controller.open_edit()
        assert dialog is not None
        dialog.name_edit.setText("Platform mail (main)")
        assert await channels.controller.submit(dialog)
        await kinds.controller.start()
        select_type(kinds, "WEBHOOK")
        await kinds.controller.toggle()
        await types_reloaded(kinds)
        dialog = kinds.controller.open_edit()
        assert dialog is not None
        dialog.name_edit.setText("Web hooks")
        assert await kinds.controller.submit(dialog)

    loop.run_until_complete(scenario())
    values = every_value_has_its_before(changes)
    assert values["notifications.channels_activate"] == {"channelStatus": ("INACTIVE", "ACTIVE")}
    assert values["notifications.channels_update"]["channelName"] == (
        "Platform mail",
        "Platform mail (main)",
    )
    assert values["notifications.channel_types_disable"] == {"typeStatus": ("ENABLED", "DISABLED")}
    assert values["notifications.channel_types_update"]["typeName"] == ("Webhook", "Web hooks")
