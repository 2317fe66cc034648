"""The accounts panel: filter bar, server-side list, detail pane with the actions."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton, QVBoxLayout, QWidget

from portal_admin.ui.lists.paged_list import PagedList
from portal_admin.ui.panels.base import PanelBase, async_slot
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import TourStep
from portal_admin.ui.widgets.message_bar import MessageBar
from portal_admin.ui.widgets.plain import PlainLabel

from ...bulk.dialog import ACCOUNT_KINDS, Sources
from ...bulk.menu import BulkButton
from .account_detail import EDIT, AccountDetail
from .account_filter_bar import AccountFilterBar
from .accounts_controller import AccountsController

#: Initial column widths (the person can resize; hidden columns keep the default).
COLUMN_WIDTHS = {
    "email": 235,
    "name": 150,
    "status": 110,
    "portal": 160,
    "phone": 130,
    "created": 140,
    "updated": 140,
}


class AccountsPanel(PanelBase):
    """Accounts: query, filter, sort, detail, status changes, edit, password reset, export."""

    #: Shown, the controller starts loading (``controller.start()``).
    LOAD_ON_SHOW = False

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("accountsPanel")
        self.controller = AccountsController(context, self)
        self.controller.dialog_parent = self
        self.filters = AccountFilterBar(self)
        self.view = PagedList(
            self.controller.model, id_column="id", export_name="accounts.csv", parent=self
        )
        self.view.setObjectName("accountsList")
        self.view.set_filter_bar(self.filters)
        self.detail = AccountDetail(self)
        self.detail.setMaximumWidth(460)  # beside the list (below it: the full width)
        self.view.set_detail_widget(self.detail)
        self.view.show_detail(False)  # until an account is chosen: the table has the room
        header = self.view.table.horizontalHeader()
        for key, width in COLUMN_WIDTHS.items():
            header.resizeSection(self.controller.model.column_number(key), width)
        self.message = MessageBar(self)
        self.lookup_label = PlainLabel(self)
        self.lookup = QLineEdit(self)
        self.lookup.setObjectName("accountLookup")
        self.lookup.setClearButtonEnabled(True)
        self.lookup_button = QPushButton(self)
        self.lookup_button.setObjectName("accountLookupOpen")
        self.lookup_label.setBuddy(self.lookup)
        lookup = QHBoxLayout()
        lookup.setContentsMargins(6, 6, 6, 0)
        lookup.addWidget(self.lookup_label)
        lookup.addWidget(self.lookup, 1)
        lookup.addWidget(self.lookup_button)
        lookup.addStretch(2)
        self.view.set_multi_select()
        self._tour_task: asyncio.Task[Any] | None = None
        self.bulk = BulkButton(self, ACCOUNT_KINDS, self.bulk_sources)
        lookup.addWidget(self.bulk)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(lookup)
        layout.addWidget(self.message)
        layout.addWidget(self.view, 1)

        c = self.controller
        self.filters.filterChanged.connect(c.set_filter)
        self.view.currentRowChanged.connect(c.show_account)
        c.detailChanged.connect(self._show_detail)
        c.errorShown.connect(self.message.show_error)
        c.noticeShown.connect(self.message.show_notice)
        c.choicesChanged.connect(self._choices)
        self.detail.actionRequested.connect(self._on_action)
        # The detail's actions in the list's context menu too; Enter opens the detail, F2
        # edits the current account.
        self.view.add_row_buttons(*self.detail.buttons.values())
        self.view.rowActivated.connect(lambda _row: self.detail.focus_first_action())
        self.view.editRequested.connect(lambda _row: self.detail.buttons[EDIT].click())
        self.lookup_button.clicked.connect(self._on_lookup)
        self.lookup.returnPressed.connect(self._on_lookup)
        self.retranslateUi()

    # -- slots (one line each: the logic is in the controller) ---------------------------------

    @async_slot(str)
    async def _on_action(self, name: str) -> None:
        await self.controller.run_action(name)

    @async_slot()
    async def _on_lookup(self) -> None:
        await self.controller.open_by_id(self.lookup.text())

    def _show_detail(self, account: Any) -> None:
        self.detail.set_account(account, self.controller.actions(account))
        self.view.show_detail(account is not None)

    def apply_permissions(self) -> None:
        """The detail's actions, enabled as the account may run them."""
        self._show_detail(self.detail.account)
        self.allow(self.bulk, "accounts.status")

    def bulk_sources(self) -> Sources:
        """The targets a bulk change can take: the selection, or all the filter matches."""
        return Sources(
            "accounts",
            selected=[row for row in self.view.selected_rows() if row is not None],
            matching=self.controller.filter.query_kwargs(),
            matching_count=self.controller.model.total,
        )

    def _choices(self, portals: list[tuple[str, str]], statuses: list[tuple[str, str]]) -> None:
        self.filters.set_portals(portals)
        self.filters.set_statuses(statuses)

    # -- tour ----------------------------------------------------------------------------------

    async def tour_steps(self) -> list[TourStep]:
        """The bulk window's plan and a running job, for ``--tour``."""
        return [
            TourStep("accounts-bulk-plan", self._tour_plan),
            TourStep("accounts-bulk-running", self._tour_running, self._tour_close),
        ]

    async def _tour_plan(self) -> QWidget:
        dialog = self.bulk.open_dialog("status")
        dialog.use_matching.setChecked(True)
        dialog.reason.setText("Institution left the platform")
        await dialog.plan()
        return dialog

    async def _tour_running(self) -> QWidget:
        dialog = self.bulk.dialog
        assert dialog is not None
        dialog.concurrency.setValue(1)
        self._tour_task = self.spawn(dialog.run())
        for _ in range(1000):  # the tour's sandbox is small: pause the job part-way to show it
            runner = dialog.runner
            if runner is not None and runner.progress().counts["done"] >= 8:
                runner.pause()
                break
            await asyncio.sleep(0)
        return dialog

    async def _tour_close(self, widget: QWidget) -> None:
        dialog = self.bulk.dialog
        if dialog is not None:
            dialog.cancel()
            if self._tour_task is not None:
                await self._tour_task
            dialog.close()

    # -- panel protocol ------------------------------------------------------------------------

    def refresh(self) -> None:
        """Reload the list and the detail (F5)."""
        self.controller.refresh()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.controller.start()

    def closeEvent(self, event: Any) -> None:
        self.close_tasks()
        super().closeEvent(event)

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.view.set_empty_texts(
            QCoreApplication.translate("AccountsPanel", "There are no accounts yet."),
            QCoreApplication.translate("AccountsPanel", "No accounts match these filters."),
        )
        self.lookup_label.setText(QCoreApplication.translate("AccountsPanel", "&Open by id:"))
        self.lookup.setPlaceholderText(
            QCoreApplication.translate("AccountsPanel", "Account id, e.g. ACC\u2026")
        )
        self.lookup.setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Account id to open")
        )
        self.lookup_button.setText(QCoreApplication.translate("AccountsPanel", "Open"))
        self.lookup_button.setAccessibleName(
            QCoreApplication.translate("AccountsPanel", "Open the account with this id")
        )
        self.setAccessibleName(QCoreApplication.translate("AccountsPanel", "Accounts"))
        self.bulk.retranslateUi()
