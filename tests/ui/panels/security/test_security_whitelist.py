"""IP whitelist panel: entries, validation as you type, save/enable/disable, lockout warning."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from portal_admin.client import PortalClient
from portal_admin.client.records import IpWhitelist
from portal_admin.ui.panels.security.ip_whitelist import IpWhitelistPanel
from portal_admin.ui.panels.security.ip_whitelist_model import ENTRY, KIND, EntriesModel

from ..panel_support import open_box, run, shown_codes
from .support import with_answer

SEEDED = ["203.0.113.0/24", "198.51.100.23", "2001:db8::/32"]


def _panel(ctx: Any, qtbot: Any) -> IpWhitelistPanel:
    panel = IpWhitelistPanel(ctx)
    qtbot.addWidget(panel)
    return panel


def test_whitelist_lists_what_the_sandbox_has(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Callable[..., Any],
    qtmodeltester: Any,
    qtbot: Any,
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    assert run(loop, panel.reload())
    qtmodeltester.check(panel.model)
    model = panel.model
    assert model.entries() == SEEDED
    assert [model.index(r, KIND).data() for r in range(3)] == [
        "IPv4 network (CIDR)",
        "IPv4 address",
        "IPv6 network (CIDR)",
    ]
    assert all(model.index(r, 2).data() for r in range(3))  # createdAt shown
    assert not panel.enabled and "disabled" in panel.state_label.text()
    assert panel.current_ip == "127.0.0.1"
    assert "does not contain" in panel.address_label.text()
    assert panel.enable_button.isEnabled() and not panel.disable_button.isEnabled()
    assert not panel.save_button.isEnabled()  # nothing edited yet


def test_entries_model_passes_the_model_tester_while_editing(qtmodeltester: Any) -> None:
    model = EntriesModel()
    model.set_entries(
        IpWhitelist.model_validate(
            {"entries": [{"ip": "192.0.2.1", "createdAt": "2026-01-01T00:00:00Z"}, "10.0.0.0/8"]}
        ).entries
    )
    qtmodeltester.check(model)
    model.add_entry("bad")
    model.setData(model.index(0, ENTRY), "192.0.2.300")
    model.remove_row(1)
    qtmodeltester.check(model)
    assert model.entries() == ["192.0.2.300", "bad"] and model.invalid_count == 2
    assert not model.setData(model.index(0, KIND), "x")


def test_validation_as_you_type(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    panel.show()
    # the new-entry field
    qtbot.keyClicks(panel.add_edit, "10.0.0.1/8")
    assert not panel.add_button.isEnabled()
    assert panel.add_reason.text() == "Host bits are set: use the network address."
    assert "b00020" in panel.add_edit.styleSheet()
    panel.add_edit.clear()
    qtbot.keyClicks(panel.add_edit, "10.0.0.0/8")
    assert panel.add_button.isEnabled() and panel.add_reason.text() == "IPv4 network (CIDR)"
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert panel.model.entries()[-1] == "10.0.0.0/8" and panel.add_edit.text() == ""
    assert panel.save_button.isEnabled()

    # editing in place: every keystroke reaches the model
    index = panel.model.index(1, ENTRY)
    panel.table.setCurrentIndex(index)
    panel.table.edit(index)
    editor = panel.table.findChild(QLineEdit, "entryEditor")
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "198.51.100.")
    assert panel.model.entries()[1] == "198.51.100."
    assert panel.model.index(1, KIND).data() == "Not an IPv4 or IPv6 address or CIDR network."
    assert panel.model.index(1, ENTRY).data(Qt.ItemDataRole.ForegroundRole) is not None
    assert "b00020" in editor.styleSheet()
    assert not panel.save_button.isEnabled()
    assert "1 entry is not valid" in panel.validity_label.text()
    qtbot.keyClicks(editor, "7")
    assert panel.model.all_valid and panel.save_button.isEnabled()
    assert editor.text() == "198.51.100.7" and editor.cursorPosition() == len("198.51.100.7")
    assert panel.model.index(1, ENTRY).data(Qt.ItemDataRole.ForegroundRole) is None


def test_save_round_trip_while_disabled(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    panel.model.add_entry("192.0.2.9/32")
    panel.table.selectRow(0)
    panel.remove_selected()
    assert run(loop, panel.save())  # disabled: no lockout question (sandbox: no confirmation)
    assert open_box() is None
    assert panel.model.entries() == ["198.51.100.23", "2001:db8::/32", "192.0.2.9"]  # canonical
    assert not panel.model.dirty
    assert [e.ip for e in run(loop, admin.security.ip_whitelist()).entries] == [
        "198.51.100.23",
        "2001:db8::/32",
        "192.0.2.9",
    ]


def test_enable_warns_about_lockout_and_decline_keeps_it_off(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    done, text = run(loop, with_answer(panel.enable(), accept=False))
    assert not done
    assert "127.0.0.1" in text and "lock yourself out" in text
    assert not run(loop, admin.security.ip_whitelist()).enabled


def test_enable_and_disable_round_trip(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    ctx = panel_context(admin)
    panel = _panel(ctx, qtbot)
    run(loop, panel.reload())
    done, _ = run(loop, with_answer(panel.enable(), accept=True))
    assert done and panel.enabled and "enabled" in panel.state_label.text()
    assert run(loop, admin.security.ip_whitelist()).enabled
    assert panel.disable_button.isEnabled() and not panel.enable_button.isEnabled()
    assert run(loop, panel.disable())
    assert not run(loop, admin.security.ip_whitelist()).enabled
    assert "disabled" in panel.state_label.text()


def test_enable_without_warning_when_the_address_is_listed(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    run(loop, admin.security.set_ip_whitelist(["127.0.0.0/8"]))
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    assert "which the whitelist contains" in panel.address_label.text()
    assert run(loop, panel.enable())
    assert run(loop, admin.security.ip_whitelist()).enabled


def test_saving_an_enabled_list_without_the_address_warns(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    run(loop, admin.security.set_ip_whitelist(["127.0.0.1"]))
    run(loop, admin.security.enable_ip_whitelist())
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    panel.model.setData(panel.model.index(0, ENTRY), "192.0.2.1")
    done, text = run(loop, with_answer(panel.save(), accept=False))
    assert not done and "lock yourself out" in text
    assert panel.model.entries() == ["192.0.2.1"] and panel.model.dirty  # edits kept
    assert [e.ip for e in run(loop, admin.security.ip_whitelist()).entries] == ["127.0.0.1"]
    done, _ = run(loop, with_answer(panel.save(), accept=True))
    assert done
    assert [e.ip for e in run(loop, admin.security.ip_whitelist()).entries] == ["192.0.2.1"]
    # an enabled list that keeps the address saves without a question
    panel.model.add_entry("127.0.0.1")
    assert run(loop, panel.save())


def test_enable_keeps_unsaved_edits(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    panel.model.add_entry("127.0.0.1")
    done, _ = run(loop, with_answer(panel.enable(), accept=True))  # the saved list lacks it
    assert done and panel.enabled
    assert panel.model.entries() == [*SEEDED, "127.0.0.1"] and panel.model.dirty


def test_failed_save_keeps_the_edited_entries(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    ctx = panel_context(admin)
    panel = _panel(ctx, qtbot)
    run(loop, panel.reload())
    many = [f"10.1.{n // 256}.{n % 256}" for n in range(101)]  # the server takes at most 100
    for entry in many:
        panel.model.add_entry(entry)
    assert panel.model.all_valid
    assert not run(loop, panel.save())
    assert shown_codes(ctx) == ["VALIDATION.INVALID_PARAMETER"]
    assert ctx.runner.shown[0].request_id
    assert panel.model.entries() == [*SEEDED, *many] and panel.model.dirty
    assert panel.save_button.isEnabled()


def test_auditor_sees_the_editor_disabled(
    loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    ctx = panel_context(auditor)
    panel = _panel(ctx, qtbot)
    assert run(loop, panel.reload())
    assert panel.model.rowCount() == 0  # the auditor has no whitelist
    for widget in (panel.enable_button, panel.add_edit, panel.remove_button):
        assert not widget.isEnabled()
        assert "account:security:write" in widget.toolTip()
    assert not panel.save_button.isEnabled() and not panel.disable_button.isEnabled()
    assert panel.table.editTriggers() == panel.table.EditTrigger.NoEditTriggers


def test_forced_changes_by_the_auditor_show_permission_denied(
    loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    ctx = panel_context(auditor)
    panel = _panel(ctx, qtbot)
    run(loop, panel.reload())
    panel.model.add_entry("192.0.2.1")
    run(loop, panel.save())  # disabled list: no lockout question
    run(loop, with_answer(panel.enable(), accept=True))
    run(loop, panel.disable())
    assert shown_codes(ctx) == ["ACCESS.PERMISSION_DENIED"] * 3
    assert panel.model.entries()[-1] == "192.0.2.1"


def test_signed_out_shows_token_missing(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    ctx = panel_context(admin)
    panel = _panel(ctx, qtbot)
    run(loop, panel.reload())
    run(loop, admin.auth.logout())
    panel.model.add_entry("192.0.2.1")
    assert not run(loop, panel.save())
    assert shown_codes(ctx) == ["ACCESS.TOKEN_MISSING"]
    assert panel.model.dirty
    assert not run(loop, panel.reload())
    assert "ACCESS.TOKEN_MISSING" in panel.error_line.text()
