"""The tour's stops at the panels' form dialogs that no other stop opens: editing an account and
changing its status, inviting and cancelling an invitation, a new notification channel and
channel type, the CSV export's options, naming a saved view, and a confirmation.

Each dialog is opened on the running workspace (on its panel where it has one), pictured and
closed without sending anything. The AT-SPI walk (``tests/accessibility``) checks them at
these stops. Kiosk mode (read-only) offers none of them but the export's options.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QWidget

from .screenshots import TourStep

if TYPE_CHECKING:
    from portal_admin.ui.mainwindow.workspace import Workspace


def dialog_steps(workspace: Workspace, *, kiosk: bool = False) -> list[TourStep]:
    """The steps, in order; each opens one dialog and its cleanup closes it."""
    main = workspace.window
    profile = workspace.service.profile

    def panel(panel_id: str) -> QWidget:
        shown = main.show_panel(panel_id)
        if shown is None:
            raise RuntimeError(f"no {panel_id} panel")
        return shown

    def first_account() -> object:
        accounts = panel("accounts")
        rows = accounts.controller.model.rows  # type: ignore[attr-defined]
        if not rows:
            raise RuntimeError("the accounts panel shows no account")
        return rows[0]

    def opened(dialog: QDialog) -> QDialog:
        dialog.open()
        return dialog

    async def account_edit() -> QWidget:
        from portal_admin.ui.panels.accounts.edit_dialog import AccountEditDialog

        account = first_account()
        return opened(AccountEditDialog(account, main))

    async def account_status() -> QWidget:
        from portal_admin.ui.panels.accounts.status_dialog import StatusChangeDialog

        account = first_account()
        label = QCoreApplication.translate("Tour", "Suspended")
        return opened(StatusChangeDialog("SUSPEND", account, label, profile, main))

    async def invitation_create() -> QWidget:
        from portal_admin.ui.panels.invitations.dialogs import CreateInvitationDialog

        return opened(CreateInvitationDialog(panel("invitations")))

    async def invitation_cancel() -> QWidget:
        from portal_admin.ui.panels.invitations.dialogs import CancelInvitationDialog

        return opened(CancelInvitationDialog("guest@example.com", panel("invitations"), profile))

    async def channel_create() -> QWidget:
        from portal_admin.ui.panels.notifications.channel_dialog import ChannelDialog

        return opened(ChannelDialog(None, parent=panel("channels")))

    async def channel_type_create() -> QWidget:
        from portal_admin.ui.panels.notifications.type_dialog import ChannelTypeDialog

        return opened(ChannelTypeDialog(None, panel("channel-types")))

    async def export_options() -> QWidget:
        from portal_admin.ui.lists.export_dialog import ExportOptionsDialog

        return opened(ExportOptionsDialog(Path.home() / "accounts.csv", panel("accounts")))

    async def view_name() -> QWidget:
        from portal_admin.ui.lists.saved_view_dialog import ViewNameDialog

        return opened(ViewNameDialog(["Suspended this week"], "", panel("accounts")))

    async def confirm() -> QWidget:
        from portal_admin.ui.widgets.confirm import build_confirm_box

        box, _button = build_confirm_box(
            main,
            title=QCoreApplication.translate("Tour", "Suspend the account"),
            text=QCoreApplication.translate("Tour", "Suspend the account ann@example.com."),
            confirm_text=QCoreApplication.translate("Tour", "Suspend"),
            profile=profile,
        )
        box.open()
        return box

    async def close(widget: QWidget) -> None:
        widget.close()
        widget.deleteLater()

    steps = [
        TourStep("dialog-account-edit", account_edit, close),
        TourStep("dialog-account-status", account_status, close),
        TourStep("dialog-invitation-create", invitation_create, close),
        TourStep("dialog-invitation-cancel", invitation_cancel, close),
        TourStep("dialog-channel-create", channel_create, close),
        TourStep("dialog-channel-type-create", channel_type_create, close),
        TourStep("dialog-export-options", export_options, close),
        TourStep("dialog-view-name", view_name, close),
        TourStep("dialog-confirm", confirm, close),
    ]
    if kiosk:
        steps = [s for s in steps if s.name == "dialog-export-options"]
    return steps
