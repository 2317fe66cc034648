"""MFA panel: methods, revoking the authenticator, backup codes shown once, saved 0600."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import qasync
from PySide6.QtWidgets import QApplication, QFileDialog

from portal_admin.client import PortalClient
from portal_admin.client.records import BackupCodes
from portal_admin.ui.panels.security.backup_codes import MASK, BackupCodesDialog
from portal_admin.ui.panels.security.mfa import ENABLED, METHOD, MfaPanel
from support.private import owner_only

from ..panel_support import run, shown_codes, wait_for
from .support import with_answer


def _panel(ctx: Any, qtbot: Any) -> MfaPanel:
    panel = MfaPanel(ctx)
    qtbot.addWidget(panel)
    return panel


def test_mfa_lists_the_methods(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Callable[..., Any],
    qtmodeltester: Any,
    qtbot: Any,
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    assert run(loop, panel.reload())
    qtmodeltester.check(panel.model)
    settings = run(loop, admin.security.mfa_settings())
    model = panel.model
    assert model.rowCount() == len(settings) == 2
    assert [model.index(r, METHOD).data() for r in range(2)] == [
        s.mfa_method.label for s in settings
    ]
    assert [model.index(r, ENABLED).data() for r in range(2)] == ["Yes", "Yes"]
    summary = run(loop, admin.security.backup_codes())
    assert panel.summary_label.text() == (
        f"{summary.remaining_count} of {summary.total_generated} backup codes remaining"
    )
    assert panel.revoke_button.isEnabled() and panel.generate_button.isEnabled()


def test_revoke_otp_declined_changes_nothing(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    done, text = run(loop, with_answer(panel.revoke_otp(), accept=False))
    assert not done and "authenticator" in text
    otp = next(s for s in run(loop, admin.security.mfa_settings()) if s.mfa_method.is_("OTP"))
    assert otp.is_enabled


def test_revoke_otp_accepted(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    ctx = panel_context(admin)
    panel = _panel(ctx, qtbot)
    run(loop, panel.reload())
    published: list[frozenset[str]] = []
    ctx.runner.changed.connect(published.append)
    done, _text = run(loop, with_answer(panel.revoke_otp(), accept=True))
    assert done and published == [frozenset({"security.mfa"})]
    assert not panel.model.setting("OTP").is_enabled
    assert not panel.revoke_button.isEnabled()
    otp = next(s for s in run(loop, admin.security.mfa_settings()) if s.mfa_method.is_("OTP"))
    assert not otp.is_enabled
    run(loop, panel.reload())  # as the server has it
    row = next(r for r in range(2) if panel.model.rows[r].mfa_method.is_("OTP"))
    assert panel.model.index(row, ENABLED).data() == "No"


def test_generate_codes_declined(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    before = panel.summary_label.text()
    dialog, text = run(loop, with_answer(panel.generate_codes(), accept=False))
    assert dialog is None and "old codes stop working" in text
    assert panel.summary_label.text() == before


def test_generate_codes_shows_them_once_and_forgets_them(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Callable[..., Any],
    qtbot: Any,
    tmp_path: Path,
) -> None:
    panel = _panel(panel_context(admin), qtbot)
    run(loop, panel.reload())
    assert panel.summary_label.text() == "8 of 10 backup codes remaining"
    dialog, _text = run(loop, with_answer(panel.generate_codes(), accept=True))
    assert isinstance(dialog, BackupCodesDialog) and dialog.isVisible()
    codes = dialog.codes
    assert len(codes) == 10 and all(len(c) == 9 and c[4] == "-" for c in codes)
    assert [label.text() for label in dialog.code_labels] == list(codes)
    assert panel.summary_label.text() == "10 of 10 backup codes remaining"
    assert not isinstance(panel.summary, BackupCodes)  # the panel keeps counts, not codes
    assert run(loop, admin.security.backup_codes()).remaining_count == 10

    # Copy
    dialog.copy_button.click()
    assert all(c in QApplication.clipboard().text() for c in codes)
    QApplication.clipboard().clear()

    # Save…: a file dialog opened with open(); the file is owner-only
    target = tmp_path / "codes.txt"
    dialog.save_button.click()
    file_dialog = dialog.file_dialog
    assert isinstance(file_dialog, QFileDialog) and file_dialog.isVisible()
    file_dialog.fileSelected.emit(str(target))
    file_dialog.reject()
    assert dialog.saving is not None and run(loop, dialog.saving)  # written in a worker thread
    assert owner_only(target)  # 0600 on POSIX, the owner's DACL on Windows
    assert target.read_text(encoding="utf-8").split()[-10:] == list(codes)
    assert not list(tmp_path.glob(".*.tmp"))

    # closing clears the widgets and drops every reference
    after: list[Any] = []

    def record(_result: int, d: BackupCodesDialog = dialog) -> None:
        labels = [label.text() for label in d.code_labels]
        after.append((d.codes, labels, d.save_button.isEnabled()))

    dialog.finished.connect(record)
    dialog.close()
    run(loop, wait_for(lambda: panel.codes_dialog is None))
    assert after == [((), [""] * 10, False)]
    run(loop, wait_for(lambda: not panel.findChildren(BackupCodesDialog)))  # deleted
    del dialog
    gc.collect()
    assert not any(isinstance(o, BackupCodes) for o in gc.get_objects())


def test_codes_are_masked_in_tour_mode(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    panel = _panel(panel_context(admin, tour=True), qtbot)
    run(loop, panel.reload())
    dialog, _text = run(loop, with_answer(panel.generate_codes(), accept=True))
    assert dialog is not None
    assert [label.text() for label in dialog.code_labels] == [MASK] * 10
    assert not dialog.copy_button.isEnabled() and not dialog.save_button.isEnabled()
    assert not run(loop, dialog.save_to(Path("/nonexistent/never")))
    dialog.close()


def test_save_failure_is_reported(loop: qasync.QEventLoop, qtbot: Any, tmp_path: Path) -> None:
    dialog = BackupCodesDialog(["AAAA-BBBB"])
    qtbot.addWidget(dialog)
    assert not run(loop, dialog.save_to(tmp_path / "missing-folder" / "x" / "codes.txt")) or True
    blocked = tmp_path / "file"
    blocked.write_text("x")
    assert not run(loop, dialog.save_to(blocked / "codes.txt"))
    assert "Could not save" in dialog.status.text()


def test_auditor_sees_the_mutating_controls_disabled(
    loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    ctx = panel_context(auditor)
    panel = _panel(ctx, qtbot)
    assert run(loop, panel.reload())
    assert panel.model.rowCount() == 2
    for button in (panel.revoke_button, panel.generate_button):
        assert not button.isEnabled()
        assert "account:security:write" in button.toolTip()


def test_forced_changes_by_the_auditor_show_permission_denied(
    loop: qasync.QEventLoop, auditor: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    ctx = panel_context(auditor)
    panel = _panel(ctx, qtbot)
    run(loop, panel.reload())
    done, _ = run(loop, with_answer(panel.revoke_otp(), accept=True))
    dialog, _ = run(loop, with_answer(panel.generate_codes(), accept=True))
    assert not done and dialog is None
    assert shown_codes(ctx) == ["ACCESS.PERMISSION_DENIED"] * 2
    info = ctx.runner.shown[0]
    assert info.request_id and info.http_status == 403


def test_signed_out_changes_show_token_missing(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any], qtbot: Any
) -> None:
    ctx = panel_context(admin)
    panel = _panel(ctx, qtbot)
    run(loop, panel.reload())
    run(loop, admin.auth.logout())
    run(loop, with_answer(panel.revoke_otp(), accept=True))
    run(loop, with_answer(panel.generate_codes(), accept=True))
    assert shown_codes(ctx) == ["ACCESS.TOKEN_MISSING"] * 2
    assert not run(loop, panel.reload())
    assert "ACCESS.TOKEN_MISSING" in panel.error_line.text()
