"""IP whitelist: entries validated as you type, save, enable and disable, lockout warning."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from portal_admin.client import before
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.base import async_slot
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.tour.screenshots import TourStep
from portal_admin.ui.widgets.confirm import confirm
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from ...operations import Op
from ...permissions import tag_operation
from .common import SecurityPanel
from .ip_entry_delegate import LiveEntryDelegate, mark
from .ip_rules import check_entry, covers
from .ip_whitelist_model import ENTRY, KIND, EntriesModel, describe_check

log = logging.getLogger(__name__)

TOPICS = frozenset({"security.ip_whitelist"})


class IpWhitelistPanel(SecurityPanel):
    """The whitelist's state and its entries, with an editor."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("ipWhitelistPanel")
        self.whitelist: Any = None
        self.current_ip: str | None = None

        self.state_label = PlainLabel(self)
        self.state_label.setObjectName("whitelistState")
        self.state_label.setWordWrap(True)
        self.address_label = PlainLabel(self)
        self.address_label.setObjectName("currentAddress")
        self.address_label.setWordWrap(True)
        self.enable_button = QPushButton(self)
        self.enable_button.setObjectName("enableWhitelist")
        self.disable_button = QPushButton(self)
        self.disable_button.setObjectName("disableWhitelist")
        self.enable_button.clicked.connect(self._on_enable)
        self.disable_button.clicked.connect(self._on_disable)

        self.model = EntriesModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("whitelistEntries")
        self.table.setModel(self.model)
        self.delegate = LiveEntryDelegate(self.table)
        self.table.setItemDelegateForColumn(ENTRY, self.delegate)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setDefaultSectionSize(220)
        self.table.setColumnWidth(ENTRY, 260)
        self.table.setColumnWidth(KIND, 360)
        self.table.setWordWrap(False)

        self.add_edit = QLineEdit(self)
        self.add_edit.setObjectName("newEntry")
        self.add_edit.setClearButtonEnabled(True)
        self.add_button = QPushButton(self)
        self.add_button.setObjectName("addEntry")
        self.add_button.setEnabled(False)
        self.add_reason = PlainLabel(self)
        self.add_reason.setObjectName("newEntryReason")
        self.remove_button = QPushButton(self)
        self.remove_button.setObjectName("removeEntry")
        self.validity_label = PlainLabel(self)
        self.validity_label.setObjectName("validity")
        set_tone(self.validity_label, "error")
        self.revert_button = QPushButton(self)
        self.revert_button.setObjectName("revertWhitelist")
        self.save_button = QPushButton(self)
        self.save_button.setObjectName("saveWhitelist")
        self.save_button.setDefault(True)

        for control in (
            self.add_edit,
            self.add_button,
            self.add_reason,
            self.remove_button,
            self.validity_label,
            self.revert_button,
            self.save_button,
        ):  # the editing controls: hidden in kiosk mode (ui/kiosk/guard.py)
            tag_operation(control, "security.ip_whitelist_set")
        self.add_edit.textChanged.connect(self._new_entry_changed)
        self.add_edit.returnPressed.connect(self.add_from_field)
        self.add_button.clicked.connect(self.add_from_field)
        self.remove_button.clicked.connect(self.remove_selected)
        self.revert_button.clicked.connect(self._on_revert)
        self.save_button.clicked.connect(self._on_save)
        self.model.validityChanged.connect(self._update_controls)
        self.table.selectionModel().selectionChanged.connect(self._update_controls)
        # Several entries may be removed at once; Delete removes, F2 edits the address (the
        # whitelist changes only when saved, which asks first).
        self.table_actions = TableActions(self.table, id_column=ENTRY)
        self.table_actions.set_multi_select()
        self.table_actions.add_row_buttons(self.remove_button)
        self.table_actions.deleteRequested.connect(lambda _rows: self.remove_button.click())
        self.table_actions.editRequested.connect(self._edit_entry)

        state_row = QHBoxLayout()
        state_col = QVBoxLayout()
        state_col.addWidget(self.state_label)
        state_col.addWidget(self.address_label)
        state_row.addLayout(state_col, 1)
        state_row.addWidget(self.enable_button)
        state_row.addWidget(self.disable_button)
        add_row = QHBoxLayout()
        add_row.addWidget(self.add_edit, 1)
        add_row.addWidget(self.add_button)
        add_row.addWidget(self.remove_button)
        bottom = QHBoxLayout()
        bottom.addWidget(self.validity_label, 1)
        bottom.addWidget(self.revert_button)
        bottom.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.error_line)
        layout.addLayout(state_row)
        layout.addWidget(self.table, 1)
        layout.addLayout(add_row)
        layout.addWidget(self.add_reason)
        layout.addLayout(bottom)
        self.retranslateUi()

    # -- loading -------------------------------------------------------------------------------

    async def load(self) -> None:
        """Fetch the whitelist and the address this program connects from."""
        whitelist = await self.client.security.ip_whitelist()
        sessions = await self.client.security.sessions()
        current = next((s for s in sessions if s.is_current), None)
        self.current_ip = current.client_ip if current is not None else None
        self._apply(whitelist)

    def _apply(self, whitelist: Any) -> None:
        self.whitelist = whitelist
        self.model.set_entries(whitelist.entries)
        self._show_state()
        self._update_controls()

    @property
    def enabled(self) -> bool:
        """True when the server enforces the whitelist."""
        return bool(self.whitelist is not None and self.whitelist.enabled)

    def saved_entries(self) -> list[str]:
        """The entries the server holds."""
        return [e.ip for e in self.whitelist.entries] if self.whitelist else []

    def apply_permissions(self) -> None:
        """The editor and the switches need account:security:write."""
        self._update_controls()

    def _update_controls(self, *_args: object) -> None:
        loaded = self.whitelist is not None
        self.allow(
            self.enable_button, "security.ip_whitelist_enable", enabled=loaded and not self.enabled
        )
        self.allow(
            self.disable_button, "security.ip_whitelist_disable", enabled=loaded and self.enabled
        )
        writable = self.permissions.reason("security.ip_whitelist_set")
        can_save = loaded and self.model.dirty and self.model.all_valid
        self.allow(self.save_button, "security.ip_whitelist_set", enabled=can_save)
        self.revert_button.setEnabled(loaded and self.model.dirty)
        has_row = self.table.selectionModel().hasSelection()
        self.allow(self.remove_button, "security.ip_whitelist_set", enabled=loaded and has_row)
        self.add_edit.setEnabled(writable is None)
        self.add_edit.setToolTip(plain_tooltip(writable or ""))
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.NoEditTriggers
            if writable
            else QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self._new_entry_changed(self.add_edit.text())
        invalid = self.model.invalid_count
        if invalid:
            self.validity_label.setText(
                fill(
                    QCoreApplication.translate(
                        "IpWhitelistPanel",
                        "%1 entries are not valid: correct or remove them to save.",
                    ),
                    invalid,
                )
                if invalid > 1
                else QCoreApplication.translate(
                    "IpWhitelistPanel", "1 entry is not valid: correct or remove it to save."
                )
            )
        elif loaded and self.model.dirty:
            self.validity_label.setText(
                QCoreApplication.translate("IpWhitelistPanel", "Unsaved changes.")
            )
        else:
            self.validity_label.setText("")
        set_tone(self.validity_label, "error" if invalid else None)

    def _show_state(self) -> None:
        if self.whitelist is None:
            self.state_label.setText("")
            self.address_label.setText("")
            return
        self.state_label.setText(
            QCoreApplication.translate(
                "IpWhitelistPanel",
                "The whitelist is enabled: only the addresses below may sign in.",
            )
            if self.enabled
            else QCoreApplication.translate(
                "IpWhitelistPanel", "The whitelist is disabled: every address may sign in."
            )
        )
        if self.current_ip is None:
            self.address_label.setText(
                QCoreApplication.translate(
                    "IpWhitelistPanel", "The address you connect from is not known."
                )
            )
        elif covers(self.saved_entries(), self.current_ip):
            self.address_label.setText(
                fill(
                    QCoreApplication.translate(
                        "IpWhitelistPanel", "You connect from %1, which the whitelist contains."
                    ),
                    self.current_ip,
                )
            )
        else:
            self.address_label.setText(
                fill(
                    QCoreApplication.translate(
                        "IpWhitelistPanel",
                        "You connect from %1, which the whitelist does not contain.",
                    ),
                    self.current_ip,
                )
            )

    # -- editing -------------------------------------------------------------------------------

    def _new_entry_changed(self, text: str) -> None:
        if not text.strip():
            self.add_edit.setStyleSheet("")
            self.add_reason.setText("")
            self.add_button.setEnabled(False)
            return
        check = check_entry(text)
        mark(self.add_edit, check)
        self.add_reason.setText(describe_check(check))
        set_tone(self.add_reason, None if check.valid else "error")
        self.add_button.setEnabled(
            check.valid and self.permissions.allows("security.ip_whitelist_set")
        )

    def add_from_field(self) -> bool:
        """Add the typed entry (when valid); True when added."""
        if not self.add_button.isEnabled():
            return False
        row = self.model.add_entry(self.add_edit.text())
        self.add_edit.clear()
        self.table.selectRow(row)
        return True

    def remove_selected(self) -> None:
        """Remove the selected entries."""
        for row in reversed(self.table_actions.selected_numbers()):
            self.model.remove_row(row)

    def _edit_entry(self, row: int) -> None:
        """F2: edit the address of ``row`` (when the whitelist may be changed)."""
        if self.table.editTriggers() != QAbstractItemView.EditTrigger.NoEditTriggers:
            index = self.model.index(row, ENTRY)
            self.table.setCurrentIndex(index)
            self.table.edit(index)

    # -- operations ----------------------------------------------------------------------------

    async def _lockout_ok(self, entries: Sequence[str]) -> bool:
        """True when ``entries`` contain the current address, or the person accepts the risk."""
        if covers(entries, self.current_ip):
            return await self.confirm_change(
                QCoreApplication.translate("IpWhitelistPanel", "Change the IP whitelist.")
            )
        address = self.current_ip or QCoreApplication.translate("IpWhitelistPanel", "(unknown)")
        return await confirm(
            self,
            title=QCoreApplication.translate("IpWhitelistPanel", "You may lock yourself out"),
            text=fill(
                QCoreApplication.translate(
                    "IpWhitelistPanel",
                    "The whitelist does not contain %1, the address you connect from. Once it"
                    " is enforced, the server may refuse this program: you may lock yourself"
                    " out. Continue anyway?",
                ),
                address,
            ),
            confirm_text=QCoreApplication.translate("IpWhitelistPanel", "Continue anyway"),
            profile=self.context.profile,
            destructive=True,
        )

    @async_slot()
    async def _on_save(self) -> None:
        await self.save()

    async def save(self) -> bool:
        """Save the edited entries; True when the server took them.

        When the whitelist is enabled and the list lacks the current address, asks first. On
        failure the edited entries stay.
        """
        if not self.model.all_valid or self.whitelist is None:
            return False
        entries = self.model.entries()
        if self.enabled:
            if not await self._lockout_ok(entries):
                return False
        elif not await self.confirm_change(
            QCoreApplication.translate("IpWhitelistPanel", "Change the IP whitelist.")
        ):
            return False
        result = await self.execute(
            Op(
                lambda: before.described(
                    before.whitelist_ips(self.whitelist, entries),
                    self.client.security.set_ip_whitelist(entries),
                ),
                on_success=self._apply,
                changes=TOPICS,
                title=QCoreApplication.translate(
                    "IpWhitelistPanel", "Could not save the IP whitelist"
                ),
            )
        )
        return result is not None

    @async_slot()
    async def _on_enable(self) -> None:
        await self.enable()

    async def enable(self) -> bool:
        """Enforce the saved whitelist (warns when it lacks the current address)."""
        if not await self._lockout_ok(self.saved_entries()):
            return False
        result = await self.execute(
            Op(
                lambda: before.described(
                    before.whitelist_enabled(self.enabled, True),
                    self.client.security.enable_ip_whitelist(),
                ),
                on_success=self._switched,
                changes=TOPICS,
                title=QCoreApplication.translate(
                    "IpWhitelistPanel", "Could not enable the IP whitelist"
                ),
            )
        )
        return result is not None

    @async_slot()
    async def _on_disable(self) -> None:
        await self.disable()

    async def disable(self) -> bool:
        """Stop enforcing the whitelist."""
        if not await self.confirm_change(
            QCoreApplication.translate("IpWhitelistPanel", "Disable the IP whitelist.")
        ):
            return False
        result = await self.execute(
            Op(
                lambda: before.described(
                    before.whitelist_enabled(self.enabled, False),
                    self.client.security.disable_ip_whitelist(),
                ),
                on_success=self._switched,
                changes=TOPICS,
                title=QCoreApplication.translate(
                    "IpWhitelistPanel", "Could not disable the IP whitelist"
                ),
            )
        )
        return result is not None

    def _switched(self, whitelist: Any) -> None:
        """After enable/disable: the state changes, unsaved edits stay."""
        if self.model.dirty:
            self.whitelist = whitelist
            self.model.rebase(whitelist.entries)
            self._show_state()
            self._update_controls()
        else:
            self._apply(whitelist)

    async def tour_steps(self) -> list[TourStep]:
        """Invalid entries, then the lockout warning (declined), for ``--tour``."""
        return [
            TourStep("ip-whitelist-invalid", self._tour_invalid, self._tour_revert),
            TourStep("ip-whitelist-lockout-warning", self._tour_lockout, self._tour_decline),
        ]

    async def _tour_invalid(self) -> QWidget:
        self.model.add_entry("198.51.100.300")
        self.model.add_entry("10.0.0.1/8")
        self.add_edit.setText("2001:db8::/200")
        return self.window()

    async def _tour_revert(self, _widget: QWidget) -> None:
        self.add_edit.clear()
        self.model.set_entries(self.whitelist.entries if self.whitelist else [])
        self._update_controls()

    async def _tour_lockout(self) -> QWidget:
        self._tour_task = self.spawn(self.enable())
        for _ in range(200):
            box = self.findChild(QMessageBox)
            if box is not None and box.isVisible():
                return box
            await asyncio.sleep(0.01)
        raise RuntimeError("the lockout warning did not open")

    async def _tour_decline(self, widget: QWidget) -> None:
        if isinstance(widget, QMessageBox):
            widget.reject()
        await self.wait_idle()

    @async_slot()
    async def _on_revert(self) -> None:
        await self.reload()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.enable_button.setText(QCoreApplication.translate("IpWhitelistPanel", "&Enable"))
        self.enable_button.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Enable the whitelist")
        )
        self.disable_button.setText(QCoreApplication.translate("IpWhitelistPanel", "&Disable"))
        self.disable_button.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Disable the whitelist")
        )
        self.table.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Whitelist entries")
        )
        self.add_edit.setPlaceholderText(
            QCoreApplication.translate("IpWhitelistPanel", "IPv4 or IPv6 address, or CIDR network")
        )
        self.add_edit.setAccessibleName(QCoreApplication.translate("IpWhitelistPanel", "New entry"))
        self.add_button.setText(QCoreApplication.translate("IpWhitelistPanel", "&Add"))
        self.add_button.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Add the entry")
        )
        self.add_reason.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "New entry check")
        )
        self.remove_button.setText(QCoreApplication.translate("IpWhitelistPanel", "&Remove"))
        self.remove_button.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Remove the selected entry")
        )
        self.revert_button.setText(QCoreApplication.translate("IpWhitelistPanel", "Rever&t"))
        self.revert_button.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Discard the changes")
        )
        self.save_button.setText(QCoreApplication.translate("IpWhitelistPanel", "&Save"))
        self.save_button.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Save the whitelist")
        )
        self.state_label.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Whitelist state")
        )
        self.address_label.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Your address")
        )
        self.validity_label.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Entry problems")
        )
        self.model.retranslate()
        self._show_state()
        self._update_controls()
