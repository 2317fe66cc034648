"""The signed-in account's own invitations, filtered by status; those that can no longer be
accepted are greyed with the reason. Used by the "my-invitations" and "profile" panels.
"""

from __future__ import annotations

import asyncio
import logging

from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListView,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from portal_admin.client.records import Invitation
from portal_admin.ui.lists.local_list import LocalList
from portal_admin.ui.lists.paged_list import PagedList
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.task_panel import TaskPanel
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from ...enum_labels import INVITATION_STATUS, shown
from .models import InvitationTableModel, own_columns
from .panel import STATUS_LIST, TOPIC

log = logging.getLogger(__name__)


class OwnInvitationsWidget(TaskPanel):
    """``client.invitations.own(statuses=...)`` with a checkable status list above the table."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("ownInvitations")
        columns = own_columns(self.clock)
        self.source: LocalList[Invitation] = LocalList(self._fetch, columns)
        self.model = InvitationTableModel(
            columns, self.source.fetch, clock=self.clock, mark_unacceptable=True, parent=self
        )
        self.list_view = PagedList(self.model, export_name="my-invitations.csv")
        self.list_view.setObjectName("ownInvitationsList")
        self.statuses = QListWidget(self)
        self.statuses.setObjectName("ownStatusFilter")
        self.statuses.setFlow(QListView.Flow.LeftToRight)
        self.statuses.setWrapping(True)
        self.statuses.setResizeMode(QListView.ResizeMode.Adjust)  # re-wrap when resized
        self.statuses.setSpacing(2)
        self.statuses.setFixedHeight(34)  # one row; _fit_statuses() adds rows as needed
        self.statuses.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.statuses_label = PlainLabel(self)
        self.statuses_label.setBuddy(self.statuses)
        filters = QWidget(self)
        row = QHBoxLayout(filters)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.statuses_label)
        row.addWidget(self.statuses, 1)
        self.list_view.set_filter_bar(filters)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list_view)
        self.statuses.itemChanged.connect(self._statuses_changed)
        self.runner.changed.connect(self._changed)
        self.constants.cleared.connect(self._language_switched)
        self.retranslateUi()

    # -- loading -------------------------------------------------------------------------------

    def checked_statuses(self) -> list[str] | None:
        """The codes checked; None when all are (no filter sent)."""
        codes = []
        for i in range(self.statuses.count()):
            item = self.statuses.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                codes.append(str(item.data(Qt.ItemDataRole.UserRole)))
        return None if len(codes) == self.statuses.count() else codes

    async def _fetch(self) -> list[Invitation]:
        statuses = self.checked_statuses()
        if statuses == []:
            return []  # nothing checked: nothing to show, nothing to ask
        return list(await self.client.invitations.own(statuses=statuses))

    async def reload(self) -> None:
        """The status choices, then the invitations."""
        await self.load_statuses()
        await self.ask_again()
        self.loaded = True

    def refresh(self) -> None:
        """Ask the server again with the checked statuses (F5)."""
        self.spawn(self.ask_again())

    async def ask_again(self) -> None:
        """Ask the server again with the checked statuses, and wait for the answer."""
        self.source.reload()
        self.model.refresh()
        await self.model.wait_idle()
        self.list_view.fit_columns()

    async def load_statuses(self) -> None:
        """Fill the status list from the invitation-status constants (all checked at first)."""
        try:
            items = await self.constants.items(STATUS_LIST)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.info("invitation statuses not loaded: %r", exc)
            return
        previous = {
            self.statuses.item(i).data(Qt.ItemDataRole.UserRole): self.statuses.item(i).checkState()
            for i in range(self.statuses.count())
        }
        self.statuses.blockSignals(True)
        try:
            self.statuses.clear()
            for status in items:
                item = QListWidgetItem(shown(status, INVITATION_STATUS), self.statuses)
                item.setData(Qt.ItemDataRole.UserRole, status.code)
                item.setToolTip(plain_tooltip(status.description or status.code))
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(previous.get(status.code, Qt.CheckState.Checked))
                item.setSizeHint(QSize(item.sizeHint().width(), 24))
        finally:
            self.statuses.blockSignals(False)
        self._fit_statuses()

    def _fit_statuses(self) -> None:
        """As many rows as the checkboxes need at this width (labels are never cut)."""
        view = self.statuses
        width = max(view.viewport().width(), 1)
        rows, used = 1, 0
        for i in range(view.count()):
            item_width = view.sizeHintForIndex(view.model().index(i, 0)).width() + 2 * 2
            if used and used + item_width > width:
                rows, used = rows + 1, 0
            used += item_width
        view.setFixedHeight(rows * (24 + 2 * 2) + 2 * view.frameWidth() + 2)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_statuses()

    def set_checked(self, codes: list[str]) -> None:
        """Check exactly ``codes`` (then the list is fetched again)."""
        self.statuses.blockSignals(True)
        try:
            for i in range(self.statuses.count()):
                item = self.statuses.item(i)
                on = item.data(Qt.ItemDataRole.UserRole) in codes
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        finally:
            self.statuses.blockSignals(False)
        self._statuses_changed()

    def _statuses_changed(self, *_args: object) -> None:
        self.refresh()

    def _changed(self, topics: frozenset[str]) -> None:
        if TOPIC in topics and self.loaded:
            self.refresh()

    def _language_switched(self, _language: str) -> None:
        self.reload_when_shown()

    def retranslateUi(self) -> None:
        self.statuses_label.setText(QCoreApplication.translate("OwnInvitations", "&Show:"))
        self.statuses.setAccessibleName(
            QCoreApplication.translate("OwnInvitations", "Invitation statuses to show")
        )
        self.setAccessibleName(QCoreApplication.translate("OwnInvitations", "My invitations"))


class MyInvitationsPanel(OwnInvitationsWidget):
    """The "my-invitations" panel."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("myInvitationsPanel")
