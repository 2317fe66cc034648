"""The "Notification channel types" panel: filters, list, detail pane, and create, update,
enable, disable and delete. ``ChannelTypesPanel`` is the widget; ``ChannelTypesController``
does everything that awaits."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLineEdit, QWidget

from portal_admin.client import before
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.panels.base import async_slot
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.widgets.plain import PlainLabel

from .common import (
    TOPIC_CHANNELS,
    TOPIC_TYPES,
    Choice,
    constant_choices,
    fmt_time,
    label_of,
)
from .detail import Row
from .record_panel import RecordController, RecordPanel
from .type_dialog import ChannelTypeDialog
from .types_model import TypeFilter, type_fetch, type_model

_C = "ChannelTypesPanel"
ENABLE, DISABLE = "notifications.channel_types_enable", "notifications.channel_types_disable"


def is_enabled(row: Any) -> bool:
    """True when the channel type is enabled (by status code, else the flag)."""
    status = getattr(row, "type_status", None)
    if status is not None:
        return bool(status.code == "ENABLED")
    return bool(getattr(row, "enabled", False))


class ChannelTypesPanel(RecordPanel):
    """The widget: filter bar, action buttons, list and detail pane."""

    TOPICS = frozenset({TOPIC_TYPES})
    CONTEXT = _C

    def __init__(
        self, ctx: PanelContext, *, page_size: int = 50, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            ctx, type_model(ctx.client, page_size), export_name="channel-types.csv", parent=parent
        )
        self.setObjectName("channelTypesPanel")
        self.code_filter = QLineEdit(self)
        self.code_filter.setObjectName("typeCodeFilter")
        self.code_filter.setClearButtonEnabled(True)
        self.status_filter = QComboBox(self)
        self.status_filter.setObjectName("typeStatusFilter")
        self.enabled_only = QCheckBox(self)
        self.enabled_only.setObjectName("enabledOnlyFilter")
        self._code_label, self._status_label = PlainLabel(self), PlainLabel(self)
        self._code_label.setBuddy(self.code_filter)
        self._status_label.setBuddy(self.status_filter)
        bar = QWidget(self)
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (
            self._code_label,
            self.code_filter,
            self._status_label,
            self.status_filter,
            self.enabled_only,
        ):
            row.addWidget(widget)
        row.addStretch(1)
        self.list.set_filter_bar(bar)
        self.set_status_choices([])

        self.new_button = self.add_action(
            "newTypeButton", "notifications.channel_types_create", needs_row=False
        )
        self.edit_button = self.add_action("editTypeButton", "notifications.channel_types_update")
        self.status_button = self.add_action(
            "toggleTypeButton", lambda r: DISABLE if r is not None and is_enabled(r) else ENABLE
        )
        self.delete_button = self.add_action(
            "deleteTypeButton", "notifications.channel_types_delete"
        )
        self.finish_actions()
        self.use_keys(self.edit_button, self.delete_button)

        for column, width in enumerate((110, 90, 130, 260, 90, 100, 70, 140)):
            self.list.table.setColumnWidth(column, width)
        self.controller = ChannelTypesController(ctx, self)
        self.code_filter.editingFinished.connect(self.apply_filters)
        self.status_filter.activated.connect(self.apply_filters)
        self.enabled_only.toggled.connect(self.apply_filters)
        self.new_button.clicked.connect(self.controller.open_create)
        self.edit_button.clicked.connect(self.controller.open_edit)
        self.status_button.clicked.connect(self.controller.toggle_clicked)
        self.delete_button.clicked.connect(self.controller.delete_clicked)
        self.retranslateUi()

    @classmethod
    def build(cls, ctx: PanelContext) -> ChannelTypesPanel:
        """The panel factory: build, and start loading when a loop runs."""
        panel = cls(ctx)
        panel.controller.begin()
        return panel

    # -- filters ---------------------------------------------------------------------------

    def set_status_choices(self, choices: list[Choice]) -> None:
        """Fill the status filter (first entry: any status)."""
        current = self.status_filter.currentData()
        self.status_filter.clear()
        self.status_filter.addItem(
            QCoreApplication.translate("ChannelTypesPanel", "Any status"), None
        )
        for code, label in choices:
            self.status_filter.addItem(label, code)
        index = self.status_filter.findData(current)
        self.status_filter.setCurrentIndex(max(index, 0))

    def filters(self) -> TypeFilter:
        """The filters as set in the controls."""
        return TypeFilter(
            type_code=self.code_filter.text(),
            type_status=self.status_filter.currentData(),
            enabled_only=self.enabled_only.isChecked(),
        )

    def apply_filters(self) -> None:
        """Show the query of the filter controls from its first page."""
        self.model.set_fetch(type_fetch(self.ctx.client, self.filters()))

    # -- details and texts -----------------------------------------------------------------

    def detail_rows(self, row: Any) -> tuple[str, list[Row]]:
        """The channel type's fields, extra settings as JSON."""
        extra = (
            json.dumps(row.extra_config, indent=2, ensure_ascii=False)
            if row.extra_config is not None
            else ""
        )
        rows: list[Row] = [
            (QCoreApplication.translate("ChannelTypesPanel", "Code"), row.type_code or ""),
            (
                QCoreApplication.translate("ChannelTypesPanel", "Value"),
                "" if row.type_value is None else str(row.type_value),
            ),
            (QCoreApplication.translate("ChannelTypesPanel", "Name"), row.type_name or ""),
            (
                QCoreApplication.translate("ChannelTypesPanel", "Description"),
                row.type_description or "",
            ),
            (QCoreApplication.translate("ChannelTypesPanel", "Status"), label_of(row.type_status)),
            (
                QCoreApplication.translate("ChannelTypesPanel", "Display order"),
                "" if row.display_order is None else str(row.display_order),
            ),
            (QCoreApplication.translate("ChannelTypesPanel", "Icon URL"), row.icon_url or ""),
            (QCoreApplication.translate("ChannelTypesPanel", "Extra settings"), extra),
            (QCoreApplication.translate("ChannelTypesPanel", "Created"), fmt_time(row.created_at)),
            (QCoreApplication.translate("ChannelTypesPanel", "Updated"), fmt_time(row.updated_at)),
            (QCoreApplication.translate("ChannelTypesPanel", "Id"), row.biz_id),
        ]
        return row.type_name or row.type_code or row.biz_id, rows

    def update_actions(self) -> None:
        """Buttons by permission; the status button offers the opposite of the status."""
        row = self.current()
        enabled = row is not None and is_enabled(row)
        self.status_button.setText(
            QCoreApplication.translate("ChannelTypesPanel", "Disable")
            if enabled
            else QCoreApplication.translate("ChannelTypesPanel", "Enable")
        )
        self.status_button.setAccessibleName(
            QCoreApplication.translate("ChannelTypesPanel", "Disable the channel type")
            if enabled
            else QCoreApplication.translate("ChannelTypesPanel", "Enable the channel type")
        )
        super().update_actions()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self._code_label.setText(QCoreApplication.translate("ChannelTypesPanel", "&Code:"))
        self._status_label.setText(QCoreApplication.translate("ChannelTypesPanel", "&Status:"))
        self.code_filter.setPlaceholderText(
            QCoreApplication.translate("ChannelTypesPanel", "Any code")
        )
        self.code_filter.setAccessibleName(
            QCoreApplication.translate("ChannelTypesPanel", "Filter by code")
        )
        self.status_filter.setAccessibleName(
            QCoreApplication.translate("ChannelTypesPanel", "Filter by status")
        )
        self.status_filter.setItemText(
            0, QCoreApplication.translate("ChannelTypesPanel", "Any status")
        )
        self.enabled_only.setText(QCoreApplication.translate("ChannelTypesPanel", "Ena&bled only"))
        self.enabled_only.setAccessibleName(
            QCoreApplication.translate("ChannelTypesPanel", "Enabled only")
        )
        for button, text, name in (
            (
                self.new_button,
                QCoreApplication.translate("ChannelTypesPanel", "&New\u2026"),
                QCoreApplication.translate("ChannelTypesPanel", "New channel type"),
            ),
            (
                self.edit_button,
                QCoreApplication.translate("ChannelTypesPanel", "&Edit\u2026"),
                QCoreApplication.translate("ChannelTypesPanel", "Edit the channel type"),
            ),
            (
                self.delete_button,
                QCoreApplication.translate("ChannelTypesPanel", "&Delete\u2026"),
                QCoreApplication.translate("ChannelTypesPanel", "Delete the channel type"),
            ),
        ):
            button.setText(text)
            button.setAccessibleName(name)
        super().retranslateUi()


class ChannelTypesController(RecordController):
    """Loads choices and runs the channel-type operations."""

    panel: ChannelTypesPanel

    async def load_choices(self) -> None:
        """The status filter's entries (notification-channel-type-statuses)."""
        choices = await constant_choices(self.ctx, "notification-channel-type-statuses")
        self.panel.set_status_choices(choices)

    # -- dialogs ---------------------------------------------------------------------------

    def open_create(self) -> ChannelTypeDialog:
        """Open the dialog for a new channel type."""
        return self._open(ChannelTypeDialog(None, self.panel))

    def open_edit(self, *_args: object) -> ChannelTypeDialog | None:
        """Open the dialog for the current channel type (if it may be changed)."""
        row = self.panel.current()
        if row is None or not self.panel.permissions.allows("notifications.channel_types_update"):
            return None
        return self._open(ChannelTypeDialog(row, self.panel))

    def _open(self, dialog: ChannelTypeDialog) -> ChannelTypeDialog:
        dialog.saveRequested.connect(self.save_requested)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    @async_slot(object)
    async def save_requested(self, dialog: ChannelTypeDialog) -> None:
        """Save clicked (one line: see ``submit``)."""
        await self.submit(dialog)

    async def submit(self, dialog: ChannelTypeDialog) -> bool:
        """Send the dialog's input; close it on success, keep it open and filled otherwise."""
        if dialog.problems():
            dialog.revalidate()
            return False
        fields = dialog.values()
        dialog.show_error(None)
        dialog.set_busy(True)
        notifications = self.client.notifications
        if dialog.creating:
            code, name = fields.pop("type_code"), fields.pop("type_name")
            title = QCoreApplication.translate(
                "ChannelTypesPanel", "Could not create the channel type"
            )

            async def run() -> Any:
                return await notifications.create_channel_type(code, name, **fields)
        else:
            biz_id = dialog.record.biz_id
            title = QCoreApplication.translate(
                "ChannelTypesPanel", "Could not save the channel type"
            )

            async def run() -> Any:
                with before.type_update(dialog.record, fields):
                    return await notifications.update_channel_type(biz_id, **fields)

        try:
            result = await self.run(
                title,
                run,
                changes=frozenset({TOPIC_TYPES}),
                on_failure=dialog.failed,
            )
        finally:
            dialog.set_busy(False)
        if result is None:
            return False
        self.panel.select_id(result.biz_id)
        dialog.accept()
        return True

    # -- status and delete -----------------------------------------------------------------

    @async_slot()
    async def toggle_clicked(self) -> None:
        """Enable/Disable clicked (one line: see ``toggle``)."""
        await self.toggle()

    async def toggle(self, row: Any = None) -> Any:
        """Enable a disabled channel type, disable an enabled one."""
        row = row or self.panel.current()
        if row is None:
            return None
        notifications = self.client.notifications
        if is_enabled(row):
            title, call = (
                QCoreApplication.translate(
                    "ChannelTypesPanel", "Could not disable the channel type"
                ),
                notifications.disable_channel_type,
            )
        else:
            title, call = (
                QCoreApplication.translate(
                    "ChannelTypesPanel", "Could not enable the channel type"
                ),
                notifications.enable_channel_type,
            )
        self.panel.select_id(row.biz_id)

        async def run() -> Any:
            with before.type_status(row, not is_enabled(row)):
                return await call(row.biz_id)

        return await self.run(title, run, changes=frozenset({TOPIC_TYPES, TOPIC_CHANNELS}))

    @async_slot()
    async def delete_clicked(self) -> None:
        """Delete clicked (one line: see ``delete``)."""
        await self.delete()

    async def delete(self, row: Any = None) -> bool:
        """Delete the channel type after a confirmation naming it."""
        row = row or self.panel.current()
        if row is None:
            return False
        asked = await self.confirm_delete(
            QCoreApplication.translate("ChannelTypesPanel", "Delete channel type"),
            fill(
                QCoreApplication.translate(
                    "ChannelTypesPanel",
                    "Delete the channel type \u201c%1\u201d (%2)? This cannot be undone.",
                ),
                row.type_name or "",
                row.type_code or "",
            ),
            QCoreApplication.translate("ChannelTypesPanel", "Delete"),
        )
        if not asked:
            return False
        notifications = self.client.notifications

        async def run() -> bool:
            await notifications.delete_channel_type(row.biz_id)
            return True

        done = await self.run(
            QCoreApplication.translate("ChannelTypesPanel", "Could not delete the channel type"),
            run,
            changes=frozenset({TOPIC_TYPES, TOPIC_CHANNELS}),
        )
        return bool(done)
