"""The shape both notification panels share: filters, list, actions, detail pane.

``RecordPanel`` is the (thin, synchronous) widget on the panel base; ``RecordController`` holds
everything that awaits: loading permissions and choices, running actions through the
OperationRunner (its tasks are kept by the panel). The choices come from the shared constants
cache; after a language switch the panel loads them and the list again (at once if shown,
else when next shown).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.lists.paged_list import PagedList
from portal_admin.ui.lists.paged_model import PagedTableModel
from portal_admin.ui.panels.base import ConstantsSource, PanelBase
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.confirm import confirm
from portal_admin.ui.widgets.plain import PlainLabel

from ...operations import Op
from .detail import DetailPane, Row

log = logging.getLogger(__name__)
T = TypeVar("T")

OperationFor = Callable[[Any], str]


@dataclass(slots=True)
class Action:
    """A button that runs an operation; enabled when permitted (and a row is current)."""

    button: QPushButton
    #: The operation id, given the current row (e.g. enable or disable by status).
    operation: OperationFor
    needs_row: bool = True


class RecordPanel(PanelBase):
    """A list with filters above, action buttons, a detail pane, and permission notices."""

    #: Runner topics that make this panel reload.
    TOPICS: frozenset[str] = frozenset()
    CONTEXT = "RecordPanel"
    #: The factory (``build``) starts loading, through the controller; ``reload()`` loads
    #: again what follows the language.
    LOAD_ON_SHOW = False
    #: Set by the subclass.
    controller: RecordController

    def __init__(
        self,
        ctx: PanelContext,
        model: PagedTableModel[Any],
        *,
        export_name: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(ctx, parent)
        self.ctx = ctx  # (``self.context`` as well)
        self.model = model
        self.list = PagedList(model, id_column="bizId", export_name=export_name, parent=self)
        self.detail = DetailPane(self)
        self.list.set_detail_widget(self.detail)
        self.list.show_detail(False)  # until a row is chosen
        self.actions_bar = QHBoxLayout()
        self.actions_bar.setContentsMargins(6, 6, 6, 0)
        self.notice = PlainLabel(self)
        self.notice.setObjectName("permissionNotice")
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.notice, "muted")
        self.notice.setStyleSheet("padding: 0 6px;")
        self.notice.hide()
        self.action_buttons: list[Action] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.actions_bar)
        layout.addWidget(self.notice)
        layout.addWidget(self.list, 1)
        self._wanted_id: str | None = None
        ctx.runner.changed.connect(self._changed)
        self.list.currentRowChanged.connect(self._row_changed)
        model.rowsInserted.connect(self._reselect)
        model.modelReset.connect(lambda: self._row_changed(None))
        ConstantsSource(ctx).on_cleared(self._language_switched)

    # -- building --------------------------------------------------------------------------

    def add_action(
        self, name: str, operation: str | OperationFor, *, needs_row: bool = True
    ) -> QPushButton:
        """A button in the action bar (the caller connects ``clicked``)."""
        button = QPushButton(self)
        button.setObjectName(name)
        op: OperationFor = operation if callable(operation) else _fixed(operation)
        self.action_buttons.append(Action(button, op, needs_row))
        self.actions_bar.addWidget(button)
        if needs_row:
            self.list.add_row_buttons(button)
        return button

    def use_keys(self, edit: QPushButton, delete: QPushButton) -> None:
        """F2 and Enter press ``edit``, Delete presses ``delete`` (when enabled: the
        button's own checks and confirmation follow)."""
        for signal in (self.list.editRequested, self.list.rowActivated):
            signal.connect(lambda _row: edit.click() if edit.isEnabled() else None)
        self.list.deleteRequested.connect(
            lambda _rows: delete.click() if delete.isEnabled() else None
        )

    def finish_actions(self) -> None:
        """Close the action bar (call after the last ``add_action``)."""
        self.actions_bar.addStretch(1)

    # -- state -----------------------------------------------------------------------------

    def current(self) -> Any:
        """The current row's record, or None."""
        return self.list.current_row()

    def apply_permissions(self) -> None:
        """Enable the actions the account may run (``update_actions``)."""
        self.update_actions()

    def update_actions(self) -> None:
        """Enable buttons by permission and selection; show why changes are refused."""
        row = self.current()
        reasons: list[str] = []
        for action in self.action_buttons:
            reason = self.permissions.reason(action.operation(row))
            if reason and reason not in reasons:
                reasons.append(reason)
            # enabled, or disabled with the reason; hidden in a read-only (kiosk) session
            waiting = None if row is not None or not action.needs_row else ""
            self.permissions.bind(action.button, action.operation(row), waiting)
        # kiosk: the buttons are hidden and the read-only banner says why once for all
        self.notice.setVisible(bool(reasons) and not self.permissions.read_only)
        self.notice.setText(
            fill(
                QCoreApplication.translate("NotificationPanels", "Changes are not available: %1"),
                " ".join(reasons),
            )
            if reasons
            else ""
        )

    def select_id(self, biz_id: str | None) -> None:
        """Make the row with ``biz_id`` current once it is loaded."""
        self._wanted_id = biz_id
        self._reselect()

    def refresh(self) -> None:
        """Reload the list, keeping the current row if it still exists (F5)."""
        row = self.current()
        self._wanted_id = getattr(row, "biz_id", None) or self._wanted_id
        self.model.refresh()

    async def reload(self) -> None:
        """The choices and the list again, in the current language (after a switch)."""
        await self.controller.load_choices_reported()
        self.refresh()
        await self.model.wait_idle()
        self.loaded = True

    def _language_switched(self, *_args: object) -> None:
        self.reload_when_shown()

    # -- for subclasses --------------------------------------------------------------------

    def apply_filters(self) -> None:
        """Show the query the filter controls describe (subclasses)."""
        raise NotImplementedError

    def detail_rows(self, row: Any) -> tuple[str, list[Row]]:
        """The detail pane's title and rows for ``row``."""
        raise NotImplementedError

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.update_actions()
        self._row_changed(self.current())

    # -- internals -------------------------------------------------------------------------

    def _changed(self, topics: frozenset[str]) -> None:
        if topics & self.TOPICS:
            self.refresh()

    def _row_changed(self, row: Any) -> None:
        if row is None:
            self.detail.set_rows("", None)
        else:
            self.detail.set_rows(*self.detail_rows(row))
        self.list.show_detail(row is not None)
        self.update_actions()

    def _reselect(self, *_args: object) -> None:
        wanted = self._wanted_id
        if wanted is None:
            return
        for number, row in enumerate(self.model.rows):
            if getattr(row, "biz_id", None) == wanted:
                self._wanted_id = None
                index = self.model.index(number, 0)
                self.list.table.setCurrentIndex(index)
                self.list.table.scrollTo(index)
                return


def _fixed(operation_id: str) -> OperationFor:
    def operation(_row: Any) -> str:
        return operation_id

    return operation


class RecordController(QObject):
    """The awaiting half of a panel: start-up loading and actions through the runner."""

    def __init__(self, ctx: PanelContext, panel: RecordPanel) -> None:
        super().__init__(panel)
        self.ctx = ctx
        self.panel = panel
        self._started: asyncio.Task[None] | None = None

    @property
    def client(self) -> Any:
        """The signed-in API client."""
        return self.ctx.client

    def begin(self) -> asyncio.Task[None] | None:
        """Start loading (once) as a task the panel keeps; returns it (None without a loop)."""
        if self._started is None:
            self._started = self.panel.spawn(self._start())
        return self._started

    def schedule(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a task the panel keeps (``panel.wait_idle``, ``panel.close_tasks``)."""
        self.panel.spawn(coro)

    async def start(self) -> None:
        """Load permissions, choices and the first page (once; later calls wait for it)."""
        started = self.begin()
        if started is not None:
            await asyncio.shield(started)

    async def _start(self) -> None:
        await self.panel.load_permissions()
        await self.load_choices_reported()
        self.panel.apply_filters()
        await self.panel.model.wait_idle()
        self.panel.loaded = True

    async def load_choices_reported(self) -> None:
        """``load_choices`` through the runner (a failure is shown)."""
        await self.run(
            QCoreApplication.translate("Notifications", "Could not load the lists of choices"),
            self.load_choices,
            progress=False,
        )

    async def load_choices(self) -> None:
        """Fetch what the pickers offer (subclasses)."""

    async def run(
        self,
        title: str,
        run: Callable[[], Awaitable[T]],
        *,
        changes: frozenset[str] = frozenset(),
        on_failure: Callable[[BaseException], bool | None] | None = None,
        progress: bool = True,
    ) -> T | None:
        """Run one operation through the runner; None when it failed (already shown)."""
        return await self.ctx.runner.execute(
            Op(
                run=run,
                changes=changes,
                on_failure=on_failure,
                progress=progress,
                title=title,
                parent=self.panel,
            )
        )

    async def confirm_delete(self, title: str, text: str, confirm_text: str) -> bool:
        """Ask before deleting (Cancel is the default)."""
        return await confirm(
            self.panel,
            title=title,
            text=text,
            confirm_text=confirm_text,
            profile=self.ctx.profile,
            destructive=True,
        )
