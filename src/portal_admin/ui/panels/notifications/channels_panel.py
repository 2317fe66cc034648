"""The "Notification channels" panel: filters, list, detail pane (secrets masked), and create,
update, activate, deactivate and delete; mail settings are checked by the server before a
save. ``ChannelsPanel`` is the widget; ``ChannelsController`` does everything that awaits."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLineEdit, QWidget

from portal_admin.client import before
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.panels.base import async_slot
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.widgets.plain import PlainLabel

from .channel_dialog import ChannelDialog, MailCheck
from .channels_model import ChannelFilter, channel_fetch, channel_model
from .common import (
    TOPIC_CHANNELS,
    TOPIC_TYPES,
    Choice,
    constant_choices,
    fmt_time,
    label_of,
)
from .detail import Row, settings_rows
from .record_panel import RecordController, RecordPanel

_C = "ChannelsPanel"
ACTIVATE, DEACTIVATE = "notifications.channels_activate", "notifications.channels_deactivate"


def is_active(row: Any) -> bool:
    """True when the channel is active (by status code, else the flag)."""
    status = getattr(row, "channel_status", None)
    if status is not None:
        return bool(status.code == "ACTIVE")
    return bool(getattr(row, "active", False))


class ChannelsPanel(RecordPanel):
    """The widget: filter bar, action buttons, list and detail pane."""

    TOPICS = frozenset({TOPIC_CHANNELS})
    CONTEXT = _C

    def __init__(
        self, ctx: PanelContext, *, page_size: int = 50, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            ctx, channel_model(ctx.client, page_size), export_name="channels.csv", parent=parent
        )
        self.setObjectName("channelsPanel")
        self.institution_filter = QLineEdit(self)
        self.institution_filter.setObjectName("institutionFilter")
        self.institution_filter.setClearButtonEnabled(True)
        self.institution_filter.setMinimumWidth(150)  # an id, and a placeholder in any language
        self.category_filter = QComboBox(self)
        self.category_filter.setObjectName("channelCategoryFilter")
        self.status_filter = QComboBox(self)
        self.status_filter.setObjectName("channelStatusFilter")
        self.active_only = QCheckBox(self)
        self.active_only.setObjectName("activeOnlyFilter")
        self._labels = [PlainLabel(self) for _ in range(3)]
        for label, field in zip(
            self._labels,
            (self.institution_filter, self.category_filter, self.status_filter),
            strict=True,
        ):
            label.setBuddy(field)
        bar = QWidget(self)
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 0, 0, 0)
        for label, field in zip(
            self._labels,
            (self.institution_filter, self.category_filter, self.status_filter),
            strict=True,
        ):
            row.addWidget(label)
            row.addWidget(field)
        row.addWidget(self.active_only)
        row.addStretch(1)
        self.list.set_filter_bar(bar)
        self.categories: list[Choice] = []
        self.statuses: list[Choice] = []
        self.set_category_choices([])
        self.set_status_choices([])

        self.new_button = self.add_action(
            "newChannelButton", "notifications.channels_create", needs_row=False
        )
        self.edit_button = self.add_action("editChannelButton", "notifications.channels_update")
        self.status_button = self.add_action(
            "toggleChannelButton",
            lambda r: DEACTIVATE if r is not None and is_active(r) else ACTIVATE,
        )
        self.delete_button = self.add_action("deleteChannelButton", "notifications.channels_delete")
        self.finish_actions()
        self.use_keys(self.edit_button, self.delete_button)

        for column, width in enumerate((150, 90, 80, 60, 300, 170, 160, 140)):
            self.list.table.setColumnWidth(column, width)
        self.controller = ChannelsController(ctx, self)
        self.institution_filter.editingFinished.connect(self.apply_filters)
        self.category_filter.activated.connect(self.apply_filters)
        self.status_filter.activated.connect(self.apply_filters)
        self.active_only.toggled.connect(self.apply_filters)
        self.new_button.clicked.connect(self.controller.open_create)
        self.edit_button.clicked.connect(self.controller.open_edit)
        self.status_button.clicked.connect(self.controller.toggle_clicked)
        self.delete_button.clicked.connect(self.controller.delete_clicked)
        self.retranslateUi()

    @classmethod
    def build(cls, ctx: PanelContext) -> ChannelsPanel:
        """The panel factory: build, and start loading when a loop runs."""
        panel = cls(ctx)
        panel.controller.begin()
        return panel

    # -- filters ---------------------------------------------------------------------------

    @staticmethod
    def _fill(combo: QComboBox, first: str, choices: list[Choice]) -> None:
        current = combo.currentData()
        combo.clear()
        combo.addItem(first, None)
        for code, label in choices:
            combo.addItem(label, code)
        combo.setCurrentIndex(max(combo.findData(current), 0))

    def set_category_choices(self, choices: list[Choice]) -> None:
        """Fill the category filter (first entry: any category)."""
        self.categories = list(choices)
        self._fill(
            self.category_filter,
            QCoreApplication.translate("ChannelsPanel", "Any category"),
            choices,
        )

    def set_status_choices(self, choices: list[Choice]) -> None:
        """Fill the status filter (first entry: any status)."""
        self.statuses = list(choices)
        self._fill(
            self.status_filter, QCoreApplication.translate("ChannelsPanel", "Any status"), choices
        )

    def filters(self) -> ChannelFilter:
        """The filters as set in the controls."""
        return ChannelFilter(
            institution_biz_id=self.institution_filter.text(),
            channel_category=self.category_filter.currentData(),
            channel_status=self.status_filter.currentData(),
            active_only=self.active_only.isChecked(),
        )

    def apply_filters(self) -> None:
        """Show the query of the filter controls from its first page."""
        self.model.set_fetch(channel_fetch(self.ctx.client, self.filters()))

    # -- details and texts -----------------------------------------------------------------

    def detail_rows(self, row: Any) -> tuple[str, list[Row]]:
        """The channel's fields and its settings; secrets show only whether one is set."""
        rows: list[Row] = [
            (QCoreApplication.translate("ChannelsPanel", "Name"), row.channel_name or ""),
            (
                QCoreApplication.translate("ChannelsPanel", "Category"),
                label_of(row.channel_category),
            ),
            (QCoreApplication.translate("ChannelsPanel", "Status"), label_of(row.channel_status)),
            (
                QCoreApplication.translate("ChannelsPanel", "Default"),
                QCoreApplication.translate("ChannelsPanel", "Yes")
                if row.is_default
                else QCoreApplication.translate("ChannelsPanel", "No"),
            ),
            (
                QCoreApplication.translate("ChannelsPanel", "Institution"),
                row.institution_biz_id or "",
            ),
            (QCoreApplication.translate("ChannelsPanel", "Description"), row.description or ""),
            (QCoreApplication.translate("ChannelsPanel", "Created"), fmt_time(row.created_at)),
            (QCoreApplication.translate("ChannelsPanel", "Updated"), fmt_time(row.updated_at)),
            (QCoreApplication.translate("ChannelsPanel", "Id"), row.biz_id),
        ]
        rows += settings_rows(row.config or {})
        return row.channel_name or row.biz_id, rows

    def update_actions(self) -> None:
        """Buttons by permission; the status button offers the opposite of the status."""
        row = self.current()
        active = row is not None and is_active(row)
        self.status_button.setText(
            QCoreApplication.translate("ChannelsPanel", "Deactivate")
            if active
            else QCoreApplication.translate("ChannelsPanel", "Activate")
        )
        self.status_button.setAccessibleName(
            QCoreApplication.translate("ChannelsPanel", "Deactivate the channel")
            if active
            else QCoreApplication.translate("ChannelsPanel", "Activate the channel")
        )
        super().update_actions()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        for label, text in zip(
            self._labels,
            (
                QCoreApplication.translate("ChannelsPanel", "&Institution:"),
                QCoreApplication.translate("ChannelsPanel", "&Category:"),
                QCoreApplication.translate("ChannelsPanel", "&Status:"),
            ),
            strict=True,
        ):
            label.setText(text)
        self.institution_filter.setPlaceholderText(
            QCoreApplication.translate("ChannelsPanel", "Any institution id")
        )
        self.institution_filter.setAccessibleName(
            QCoreApplication.translate("ChannelsPanel", "Filter by institution")
        )
        self.category_filter.setAccessibleName(
            QCoreApplication.translate("ChannelsPanel", "Filter by category")
        )
        self.category_filter.setItemText(
            0, QCoreApplication.translate("ChannelsPanel", "Any category")
        )
        self.status_filter.setAccessibleName(
            QCoreApplication.translate("ChannelsPanel", "Filter by status")
        )
        self.status_filter.setItemText(0, QCoreApplication.translate("ChannelsPanel", "Any status"))
        self.active_only.setText(QCoreApplication.translate("ChannelsPanel", "&Active only"))
        self.active_only.setAccessibleName(
            QCoreApplication.translate("ChannelsPanel", "Active only")
        )
        for button, text, name in (
            (
                self.new_button,
                QCoreApplication.translate("ChannelsPanel", "&New\u2026"),
                QCoreApplication.translate("ChannelsPanel", "New channel"),
            ),
            (
                self.edit_button,
                QCoreApplication.translate("ChannelsPanel", "&Edit\u2026"),
                QCoreApplication.translate("ChannelsPanel", "Edit the channel"),
            ),
            (
                self.delete_button,
                QCoreApplication.translate("ChannelsPanel", "&Delete\u2026"),
                QCoreApplication.translate("ChannelsPanel", "Delete the channel"),
            ),
        ):
            button.setText(text)
            button.setAccessibleName(name)
        super().retranslateUi()


class ChannelsController(RecordController):
    """Loads choices and runs the channel operations, mail checks first."""

    panel: ChannelsPanel

    def __init__(self, ctx: PanelContext, panel: ChannelsPanel) -> None:
        super().__init__(ctx, panel)
        #: Categories a new channel may use: the enabled channel types.
        self.enabled_categories: list[Choice] = []
        ctx.runner.changed.connect(self._changed)

    async def load_choices(self) -> None:
        """Categories (constants, plus custom channel types) and statuses."""
        labels = dict(await constant_choices(self.ctx, "notification-channel-types"))
        statuses = await constant_choices(self.ctx, "notification-channel-statuses")
        categories: list[Choice] = list(labels.items())
        enabled: list[Choice] = []
        async for kind in self.client.notifications.iterate_channel_types(size=100):
            code = kind.type_code or ""
            label = labels.get(code) or kind.type_name or code
            if code not in labels:
                categories.append((code, label))
            if kind.type_status is not None and kind.type_status.code == "ENABLED":
                enabled.append((code, label))
        self.enabled_categories = enabled
        self.panel.set_category_choices(categories)
        self.panel.set_status_choices(statuses)

    def _changed(self, topics: frozenset[str]) -> None:
        if TOPIC_TYPES in topics:
            self.schedule(
                self.run(
                    QCoreApplication.translate("ChannelsPanel", "Could not load the categories"),
                    self.load_choices,
                    progress=False,
                )
            )

    # -- dialogs ---------------------------------------------------------------------------

    def open_create(self) -> ChannelDialog:
        """Open the dialog for a new channel."""
        dialog = ChannelDialog(
            None,
            categories=self.enabled_categories,
            statuses=self.panel.statuses or None,
            parent=self.panel,
        )
        return self._open(dialog)

    def open_edit(self, *_args: object) -> ChannelDialog | None:
        """Open the dialog for the current channel (if it may be changed)."""
        row = self.panel.current()
        if row is None or not self.panel.permissions.allows("notifications.channels_update"):
            return None
        return self._open(ChannelDialog(row, parent=self.panel))

    def _open(self, dialog: ChannelDialog) -> ChannelDialog:
        dialog.saveRequested.connect(self.save_requested)
        dialog.testRequested.connect(self.test_requested)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    # -- mail checks -----------------------------------------------------------------------

    @async_slot(object)
    async def test_requested(self, dialog: ChannelDialog) -> None:
        """Test connection clicked (one line: see ``test``)."""
        await self.test(dialog)

    async def test(self, dialog: ChannelDialog) -> bool:
        """Check the mail settings with the server and show its verdict; True when valid."""
        if dialog.problems():
            dialog.revalidate()
            return False
        dialog.show_error(None)
        dialog.set_busy(True)
        try:
            return await self._check(dialog, dialog.mail_checks())
        finally:
            dialog.set_busy(False)

    async def _check(self, dialog: ChannelDialog, checks: list[MailCheck]) -> bool:
        notifications = self.client.notifications
        verdicts: list[tuple[str, Any]] = []
        for protocol, arguments in checks:
            call = (
                notifications.validate_smtp if protocol == "SMTP" else notifications.validate_imap
            )

            async def run(call: Any = call, arguments: dict[str, Any] = arguments) -> Any:
                return await call(**arguments)

            verdict = await self.run(
                fill(
                    QCoreApplication.translate("ChannelsPanel", "Could not check the %1 settings"),
                    protocol,
                ),
                run,
                on_failure=dialog.failed,
            )
            if verdict is None:
                dialog.show_verdicts(verdicts)
                return False
            verdicts.append((protocol, verdict))
        dialog.show_verdicts(verdicts)
        return all(bool(v.valid) for _, v in verdicts)

    # -- save ------------------------------------------------------------------------------

    @async_slot(object)
    async def save_requested(self, dialog: ChannelDialog) -> None:
        """Save clicked (one line: see ``submit``)."""
        await self.submit(dialog)

    async def submit(self, dialog: ChannelDialog) -> bool:
        """Check mail settings with the server, then save; close the dialog only on success."""
        if dialog.problems():
            dialog.revalidate()
            return False
        dialog.show_error(None)
        dialog.set_busy(True)
        try:
            checks = dialog.mail_checks()
            if checks and not await self._check(dialog, checks):
                return False
            result = await self._save(dialog)
        finally:
            dialog.set_busy(False)
        if result is None:
            return False
        self.panel.select_id(result.biz_id)
        dialog.accept()
        return True

    async def _save(self, dialog: ChannelDialog) -> Any:
        fields = dialog.values()
        notifications = self.client.notifications
        if dialog.creating:
            name, category = fields.pop("channel_name"), fields.pop("channel_category")
            config = fields.pop("config")
            title = QCoreApplication.translate("ChannelsPanel", "Could not create the channel")

            async def run() -> Any:
                return await notifications.create_channel(name, category, config, **fields)
        else:
            biz_id = dialog.record.biz_id
            title = QCoreApplication.translate("ChannelsPanel", "Could not save the channel")

            async def run() -> Any:
                with before.channel_update(dialog.record, fields):
                    return await notifications.update_channel(biz_id, **fields)

        return await self.run(
            title,
            run,
            changes=frozenset({TOPIC_CHANNELS}),
            on_failure=dialog.failed,
        )

    # -- status and delete -----------------------------------------------------------------

    @async_slot()
    async def toggle_clicked(self) -> None:
        """Activate/Deactivate clicked (one line: see ``toggle``)."""
        await self.toggle()

    async def toggle(self, row: Any = None) -> Any:
        """Activate an inactive channel, deactivate an active one."""
        row = row or self.panel.current()
        if row is None:
            return None
        notifications = self.client.notifications
        if is_active(row):
            title, call = (
                QCoreApplication.translate("ChannelsPanel", "Could not deactivate the channel"),
                notifications.deactivate_channel,
            )
        else:
            title, call = (
                QCoreApplication.translate("ChannelsPanel", "Could not activate the channel"),
                notifications.activate_channel,
            )
        self.panel.select_id(row.biz_id)

        async def run() -> Any:
            with before.channel_status(row, not is_active(row)):
                return await call(row.biz_id)

        return await self.run(title, run, changes=frozenset({TOPIC_CHANNELS}))

    @async_slot()
    async def delete_clicked(self) -> None:
        """Delete clicked (one line: see ``delete``)."""
        await self.delete()

    async def delete(self, row: Any = None) -> bool:
        """Delete the channel after a confirmation naming it."""
        row = row or self.panel.current()
        if row is None:
            return False
        asked = await self.confirm_delete(
            QCoreApplication.translate("ChannelsPanel", "Delete channel"),
            fill(
                QCoreApplication.translate(
                    "ChannelsPanel",
                    "Delete the channel \u201c%1\u201d (%2)? This cannot be undone.",
                ),
                row.channel_name or "",
                label_of(row.channel_category),
            ),
            QCoreApplication.translate("ChannelsPanel", "Delete"),
        )
        if not asked:
            return False
        notifications = self.client.notifications

        async def run() -> bool:
            await notifications.delete_channel(row.biz_id)
            return True

        return bool(
            await self.run(
                QCoreApplication.translate("ChannelsPanel", "Could not delete the channel"),
                run,
                changes=frozenset({TOPIC_CHANNELS}),
            )
        )
