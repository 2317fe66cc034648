"""The "invitations" panel: the workspace's invitations, create and cancel."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.client.records import Invitation
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.lists.local_list import LocalList, text_matcher
from portal_admin.ui.lists.paged_list import PagedList
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.task_panel import TaskPanel
from portal_admin.ui.widgets.dialogs import ask
from portal_admin.ui.widgets.plain import PlainLabel

from ...bulk.dialog import INVITATION_KINDS, Sources
from ...bulk.menu import BulkButton
from ...enum_labels import INVITATION_STATUS, shown
from ...error_info import describe_error
from ...operations import Op
from .dialogs import CancelInvitationDialog, CreateInvitationDialog
from .formatting import is_pending, status_code, status_label
from .models import InvitationTableModel, workspace_columns

log = logging.getLogger(__name__)

TOPIC = "invitations"
STATUS_LIST = "user-invitation-statuses"


def _searchable(invitation: Invitation) -> tuple[object, ...]:
    return (
        invitation.invitee_email,
        invitation.inviter_name,
        invitation.message,
        status_label(invitation),
    )


class InvitationsPanel(TaskPanel):
    """The workspace's invitations with a status and a text filter; invite; cancel."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("invitationsPanel")
        columns = workspace_columns(self.clock)
        self.source: LocalList[Invitation] = LocalList(self._fetch_all, columns)
        self.model = InvitationTableModel(columns, self.source.fetch, clock=self.clock, parent=self)
        self.list_view = PagedList(self.model, id_column="id", export_name="invitations.csv")
        self.list_view.setObjectName("invitationsList")

        self.status_filter = QComboBox(self)
        self.status_filter.setObjectName("statusFilter")
        self.status_filter.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.text_filter = QLineEdit(self)
        self.text_filter.setObjectName("textFilter")
        self.text_filter.setClearButtonEnabled(True)
        self.status_label = PlainLabel(self)
        self.status_label.setBuddy(self.status_filter)
        filters = QWidget(self)
        row = QHBoxLayout(filters)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.status_label)
        row.addWidget(self.status_filter)
        row.addWidget(self.text_filter, 1)
        self.list_view.set_filter_bar(filters)

        self.create_button = QPushButton(self)
        self.create_button.setObjectName("createInvitation")
        self.cancel_button = QPushButton(self)
        self.cancel_button.setObjectName("cancelInvitation")
        self.list_view.set_empty_action(self.create_button)
        self.action_note = PlainLabel(self)
        self.action_note.setObjectName("actionNote")
        self.action_note.setWordWrap(True)
        self.action_note.setTextFormat(Qt.TextFormat.PlainText)
        self.action_note.setStyleSheet("color: palette(placeholder-text);")
        actions = QHBoxLayout()
        actions.addWidget(self.create_button)
        actions.addWidget(self.cancel_button)
        self.list_view.set_multi_select()
        self.bulk = BulkButton(self, INVITATION_KINDS, self.bulk_sources)
        actions.addWidget(self.bulk)
        actions.addWidget(self.action_note, 1)

        actions.setContentsMargins(6, 6, 6, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(actions)
        layout.addWidget(self.list_view, 1)

        self.create_dialog: CreateInvitationDialog | None = None
        self.cancel_dialog: CancelInvitationDialog | None = None
        self.status_filter.currentIndexChanged.connect(self._filters_changed)
        self.text_filter.textChanged.connect(self._filters_changed)
        self.create_button.clicked.connect(self._create_clicked)
        self.cancel_button.clicked.connect(self._cancel_clicked)
        # The list's context menu offers Cancel; the Delete key asks to cancel (the same
        # confirmation).
        self.list_view.add_row_buttons(self.cancel_button)
        self.list_view.deleteRequested.connect(
            lambda _rows: self.cancel_button.click() if self.cancel_button.isEnabled() else None
        )
        self.list_view.currentRowChanged.connect(self._selection_changed)
        self.model.modelReset.connect(self.apply_permissions)
        self.runner.changed.connect(self._changed)
        self.constants.cleared.connect(self._language_switched)
        self.retranslateUi()
        self.apply_permissions()

    # -- loading -------------------------------------------------------------------------------

    async def _fetch_all(self) -> list[Invitation]:
        return list(await self.client.invitations.list())

    async def reload(self) -> None:
        """Permissions, the status choices and the invitations, fetched again."""
        await self.load_permissions()
        await self.load_statuses()
        self.source.reload()
        self.model.refresh()
        await self.model.wait_idle()
        self.list_view.fit_columns()
        self.loaded = True
        self.apply_permissions()

    async def load_statuses(self) -> None:
        """Fill the status filter from the invitation-status constants (in the UI language)."""
        try:
            items = await self.constants.items(STATUS_LIST)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.info("invitation statuses not loaded: %r", exc)
            return
        current = self.status_filter.currentData()
        self.status_filter.blockSignals(True)
        try:
            while self.status_filter.count() > 1:
                self.status_filter.removeItem(1)
            for item in items:
                self.status_filter.addItem(shown(item, INVITATION_STATUS), item.code)
            found = self.status_filter.findData(current)
            self.status_filter.setCurrentIndex(max(found, 0))
        finally:
            self.status_filter.blockSignals(False)

    def refresh(self) -> None:
        """Fetch the invitations again (F5)."""
        self.start_reload()

    def _changed(self, topics: frozenset[str]) -> None:
        if TOPIC in topics:
            self.start_reload()

    def _language_switched(self, _language: str) -> None:
        if self.loaded:
            self.spawn(self.load_statuses())

    # -- filters -------------------------------------------------------------------------------

    def set_status_filter(self, code: str | None) -> None:
        """Show only invitations in status ``code`` (None: all)."""
        self.status_filter.setCurrentIndex(max(self.status_filter.findData(code), 0))

    def _filters_changed(self, *_args: object) -> None:
        code = self.status_filter.currentData()
        words = text_matcher(self.text_filter.text(), _searchable)

        def keep(invitation: Invitation) -> bool:
            if code and status_code(invitation) != code:
                return False
            return words is None or words(invitation)

        self.source.set_filter(keep)
        self.requery(self.model)

    # -- permissions ---------------------------------------------------------------------------

    def _selection_changed(self, _row: object) -> None:
        self.apply_permissions()

    def cancel_reason(self) -> str | None:
        """Why the current invitation cannot be cancelled, or None when it can."""
        reason = self.permissions.reason("invitations.cancel")
        if reason:
            return reason
        invitation = self.list_view.current_row()
        if invitation is None:
            return QCoreApplication.translate(
                "Invitations", "Select a pending invitation to cancel it."
            )
        if not is_pending(invitation):
            return fill(
                QCoreApplication.translate(
                    "Invitations", "Only pending invitations can be cancelled; this one is %1."
                ),
                status_label(invitation),
            )
        return None

    def bulk_sources(self) -> Sources:
        """The targets a bulk change can take: the selection, or a list."""
        rows = [row for row in self.list_view.selected_rows() if row is not None]
        return Sources("invitations", selected=rows)

    def apply_permissions(self) -> None:
        self.allow(self.bulk, "invitations.cancel")
        create = self.allow(self.create_button, "invitations.create", None)
        cancel = self.allow(self.cancel_button, "invitations.cancel", self.cancel_reason())
        notes = []
        if create:
            notes.append(
                fill(
                    QCoreApplication.translate("Invitations", "Inviting is not possible: %1"),
                    create,
                )
            )
        if cancel and cancel != create:
            notes.append(cancel)
        self.action_note.setText("  ".join(notes))
        # kiosk: the buttons are hidden and the banner says why; no note about them
        self.action_note.setVisible(not self.permissions.read_only)

    # -- create --------------------------------------------------------------------------------

    def _create_clicked(self) -> None:
        self.open_create_dialog()

    def open_create_dialog(self) -> CreateInvitationDialog:
        """Open the invite dialog (window-modal, no nested loop)."""
        dialog = CreateInvitationDialog(self)
        dialog.submitRequested.connect(lambda: self.spawn(self.submit_create(dialog)))
        dialog.finished.connect(dialog.deleteLater)
        self.create_dialog = dialog
        dialog.open()
        return dialog

    async def submit_create(self, dialog: CreateInvitationDialog) -> Invitation | None:
        """Send what ``dialog`` holds; closes it on success, shows the refusal in it otherwise."""
        email, message, days = dialog.values()

        def refused(exc: BaseException) -> bool:
            info = describe_error(exc)
            if info.unexpected:
                return False
            dialog.show_error(info)
            return True

        dialog.set_busy(True)
        try:
            created: Invitation | None = await self.runner.execute(
                Op(
                    lambda: self.client.invitations.create(
                        email, message=message, expiration_days=days
                    ),
                    on_failure=refused,
                    changes=frozenset({TOPIC}),
                    title=QCoreApplication.translate("Invitations", "Could not invite"),
                    parent=dialog,
                )
            )
        finally:
            dialog.set_busy(False)
        if created is not None:
            dialog.accept()
        return created

    # -- cancel --------------------------------------------------------------------------------

    def _cancel_clicked(self) -> None:
        self.runner.run(Op(self.cancel_selected, progress=False, parent=self))

    async def cancel_selected(self) -> Invitation | None:
        """Ask (naming the invitee, with a reason), then cancel the current invitation."""
        invitation: Any = self.list_view.current_row()
        if invitation is None or self.cancel_reason() is not None:
            return None
        dialog = CancelInvitationDialog(
            invitation.invitee_email or invitation.biz_id, self, self.context.profile
        )
        self.cancel_dialog = dialog
        try:
            if await ask(dialog) != CancelInvitationDialog.DialogCode.Accepted:
                return None
            reason = dialog.reason_text()
        finally:
            self.cancel_dialog = None
            dialog.deleteLater()
        cancelled: Invitation | None = await self.runner.execute(
            Op(
                lambda: self.client.invitations.cancel(invitation.biz_id, reason=reason),
                changes=frozenset({TOPIC}),
                title=fill(
                    QCoreApplication.translate(
                        "Invitations", "Could not cancel the invitation to %1"
                    ),
                    invitation.invitee_email,
                ),
                parent=self,
            )
        )
        if cancelled is None:
            self.start_reload()  # the invitation may have changed meanwhile
        return cancelled

    # -- language ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        self.list_view.set_empty_texts(
            QCoreApplication.translate("Invitations", "There are no invitations yet."),
            QCoreApplication.translate("Invitations", "No invitations match these filters."),
        )
        if self.status_filter.count() == 0:
            self.status_filter.addItem("", None)
        self.status_filter.setItemText(0, QCoreApplication.translate("Invitations", "All statuses"))
        self.status_label.setText(QCoreApplication.translate("Invitations", "&Status:"))
        self.status_filter.setAccessibleName(
            QCoreApplication.translate("Invitations", "Status filter")
        )
        self.text_filter.setPlaceholderText(
            QCoreApplication.translate("Invitations", "Filter by email, inviter or message")
        )
        self.text_filter.setAccessibleName(QCoreApplication.translate("Invitations", "Text filter"))
        self.create_button.setText(QCoreApplication.translate("Invitations", "Invite\u2026"))
        self.create_button.setAccessibleName(
            QCoreApplication.translate("Invitations", "Invite someone")
        )
        self.cancel_button.setText(
            QCoreApplication.translate("Invitations", "Cancel invitation\u2026")
        )
        self.cancel_button.setAccessibleName(
            QCoreApplication.translate("Invitations", "Cancel the selected invitation")
        )
        self.action_note.setAccessibleName(
            QCoreApplication.translate("Invitations", "Why actions are disabled")
        )
        self.setAccessibleName(QCoreApplication.translate("Invitations", "Invitations"))
        self.bulk.retranslateUi()
        self.apply_permissions()
