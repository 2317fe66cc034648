"""The roles panel's logic: list, detail, and delete (explained before anyone tries)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.widgets.confirm import confirm

from ...operations import Op
from .common import enum_code, explain
from .roles_model import RolesModel, member_count

log = logging.getLogger(__name__)

CTX = "RolesPanel"
TOPIC = "roles"

#: The 409 answers of role deletion, explained.
DELETE_ERRORS: dict[str, str] = {
    "WORKSPACE.OWNER_ROLE_PROTECTED": QT_TRANSLATE_NOOP(
        "AdminErrors",
        "The server refused: the OWNER role is protected and can never be deleted.",
    ),
    "WORKSPACE.ROLE_IN_USE": QT_TRANSLATE_NOOP(
        "AdminErrors",
        "The server refused: the role still has members. Give them another role first, "
        "then delete it.",
    ),
    "RESOURCE.NOT_FOUND": QT_TRANSLATE_NOOP(
        "AdminErrors", "The role does not exist any more: someone else deleted it."
    ),
}


def tr(text: str, n: int = -1) -> str:
    """Translate in the RolesPanel context."""
    return QCoreApplication.translate(CTX, text, None, n)


def role_name(role: Any) -> str:
    """How confirmations name a role: “Name”."""
    return fill(
        QCoreApplication.translate("RolesPanel", "\u201c%1\u201d"),
        getattr(role, "role_name", None) or role.biz_id,
    )


class RolesController(QObject):
    """Loads the roles and deletes them through the runner."""

    #: The role the detail shows (None: nothing chosen).
    detailChanged = Signal(object)
    errorShown = Signal(object)
    noticeShown = Signal(str)
    #: "loading", "ready", "empty" or "error".
    stateChanged = Signal(str)

    def __init__(self, context: PanelContext, panel: PanelBase) -> None:
        super().__init__(panel)
        #: The panel: it keeps the tasks and knows what the signed-in account may do.
        self.panel = panel
        self.context = context
        self.runner = context.runner
        self.model = RolesModel()
        self.current: Any = None
        self.dialog_parent: QWidget | None = None
        self.state = "idle"
        self._start_task: asyncio.Task[None] | None = None
        self._own_change = False
        self._detail_generation = 0
        self.runner.changed.connect(self._topics_changed)

    @property
    def client(self) -> Any:
        """The signed-in client (None before sign-in)."""
        return self.context.client

    def start(self) -> asyncio.Task[None] | None:
        """Load permissions and the roles (once signed in; returns the task)."""
        if self._start_task is None and self.client is not None:
            self._start_task = self.panel.spawn(self._start())
        return self._start_task

    async def _start(self) -> None:
        await self.panel.load_permissions()
        await self.reload()
        self.panel.loaded = True

    def _set_state(self, state: str) -> None:
        self.state = state
        self.stateChanged.emit(state)

    async def reload(self) -> bool:
        """Fetch the roles again (the current one stays chosen if it still exists)."""
        self._set_state("loading")
        try:
            roles = await self.client.roles.list()
        except Exception as exc:
            self.runner.note_request_id(getattr(exc, "request_id", None))
            self.errorShown.emit(explain(exc))
            self._set_state("error")
            return False
        self.model.set_records(roles)
        self._set_state("ready" if roles else "empty")
        if self.current is not None:
            fresh = next((r for r in roles if r.biz_id == self.current.biz_id), None)
            self.current = fresh
            self.detailChanged.emit(fresh)
        return True

    def refresh(self) -> None:
        """Reload (F5)."""
        self.panel.spawn(self.reload())

    def _topics_changed(self, topics: frozenset[str]) -> None:
        if TOPIC not in topics:
            return
        if self._own_change:
            self._own_change = False
            return
        self.refresh()

    # -- detail --------------------------------------------------------------------------------

    def show_role(self, role: Any) -> None:
        """Show ``role`` at once, then its fresh record (``client.roles.get``)."""
        self._detail_generation += 1
        self.current = role
        self.detailChanged.emit(role)
        if role is not None:
            self.panel.spawn(self.load_detail(role.biz_id))

    async def load_detail(self, biz_id: str) -> Any:
        """The role with its permission codes; None on failure (explained)."""
        self._detail_generation += 1
        generation = self._detail_generation
        try:
            role = await self.client.roles.get(biz_id)
        except Exception as exc:
            if generation == self._detail_generation:
                self.errorShown.emit(explain(exc, DELETE_ERRORS))
            return None
        if generation == self._detail_generation:
            if member_count(role) is None and self.current is not None:
                role = self._keep_count(role, self.current)
            self.current = role
            self.model.replace(role)
            self.detailChanged.emit(role)
        return role

    @staticmethod
    def _keep_count(role: Any, listed: Any) -> Any:
        count = member_count(listed)
        if count is None:
            return role
        return role.model_copy(update={"memberCount": count})

    # -- delete --------------------------------------------------------------------------------

    def delete_reason(self, role: Any) -> str | None:
        """Why ``role`` cannot be deleted (translated), or None when it may be tried."""
        if role is None:
            return QCoreApplication.translate("RolesPanel", "Choose a role.")
        if enum_code(role.role_type) == "OWNER":
            return QCoreApplication.translate(
                "RolesPanel", "The OWNER role is protected: it can never be deleted."
            )
        count = member_count(role)
        if count:
            return QCoreApplication.translate(
                "RolesPanel",
                "The role is in use by %n member(s): give them another role before deleting it.",
                None,
                count,
            )
        return self.panel.permissions.reason("roles.delete")

    async def delete(self, role: Any) -> bool:
        """Delete ``role`` after confirmation; True when it is gone."""
        if role is None or self.delete_reason(role) is not None:
            return False
        text = fill(
            QCoreApplication.translate("RolesPanel", "Delete the role %1? This cannot be undone."),
            role_name(role),
        )
        if member_count(role) is None:
            text += "\n" + QCoreApplication.translate(
                "RolesPanel", "The server refuses if members still hold the role."
            )
        ok = await confirm(
            self.dialog_parent,
            title=QCoreApplication.translate("RolesPanel", "Delete role"),
            text=text,
            confirm_text=QCoreApplication.translate("RolesPanel", "Delete role"),
            profile=self.context.profile,
            destructive=True,
        )
        if not ok:
            return False

        def failed(exc: BaseException) -> bool:
            self.errorShown.emit(explain(exc, DELETE_ERRORS))
            if getattr(exc, "code", None) in DELETE_ERRORS:
                self.refresh()  # the list was stale: show what the server knows
            return True

        def deleted(_result: object) -> None:
            self._own_change = True
            self.model.remove(role.biz_id)
            if self.current is not None and self.current.biz_id == role.biz_id:
                self.current = None
                self.detailChanged.emit(None)

        op: Op[Any] = Op(
            run=lambda: self._delete(role.biz_id),
            on_success=deleted,
            on_failure=failed,
            changes=frozenset({TOPIC}),
            title=fill(
                QCoreApplication.translate("RolesPanel", "Could not delete the role %1"),
                role_name(role),
            ),
            parent=self.dialog_parent,
        )
        if await self.runner.run(op) is None:
            return False
        self.noticeShown.emit(
            fill(
                QCoreApplication.translate("RolesPanel", "The role %1 was deleted."),
                role_name(role),
            )
        )
        return True

    async def _delete(self, biz_id: str) -> bool:
        await self.client.roles.delete(biz_id)
        return True
