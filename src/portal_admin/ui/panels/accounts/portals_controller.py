"""The portals panel's logic: create an institution portal; keep this session's portals.

The specification offers no operation that lists portals, so the table holds the portals
created in this session only.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.lists.paged_model import Column
from portal_admin.ui.panels.base import ConstantsSource, PanelBase
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.widgets.confirm import confirm_production_change

from ...enum_labels import PORTAL_TYPE, shown
from ...operations import Op
from .common import enum_code, explain
from .list_model import RecordListModel

CTX = "PortalsPanel"
TOPIC = "portals"
#: Domain and remark limits (section 8).
MAX_LENGTH = 255

PORTAL_ERRORS: dict[str, str] = {
    "4000": QT_TRANSLATE_NOOP(
        "AdminErrors",
        "The server did not accept the portal (code 4000): a portal type and a domain "
        "without spaces are required; domain and remark have at most 255 characters each.",
    ),
    "VALIDATION.INVALID_PARAMETER": QT_TRANSLATE_NOOP(
        "AdminErrors",
        "The server did not accept the portal: a portal type and a domain without spaces "
        "are required; domain and remark have at most 255 characters each.",
    ),
    "4040": QT_TRANSLATE_NOOP(
        "AdminErrors",
        "The institution was not found (code 4040). Check the institution id, or leave it "
        "empty to use your own institution.",
    ),
}

_STATUS_TEXT = {
    "ACTIVE": QT_TRANSLATE_NOOP("PortalsPanel", "Active"),
    "INACTIVE": QT_TRANSLATE_NOOP("PortalsPanel", "Inactive"),
}


def tr(text: str) -> str:
    """Translate in the PortalsPanel context."""
    return QCoreApplication.translate(CTX, text)


def status_text(item: Any) -> str:
    """A portal status as "Active (ACTIVE)"."""
    code = enum_code(item) or ""
    known = _STATUS_TEXT.get(code)
    return f"{tr(known)} ({code})" if known else code


class PortalsModel(RecordListModel):
    """The portals created in this session, newest first."""

    def __init__(self, type_label: Any, parent: Any = None) -> None:
        columns: tuple[Column[Any], ...] = (
            Column("id", QT_TRANSLATE_NOOP("PortalsPanel", "Id"), lambda p: p.id, context=CTX),
            Column(
                "type",
                QT_TRANSLATE_NOOP("PortalsPanel", "Type"),
                lambda p: type_label(p.portal_type),
                context=CTX,
            ),
            Column(
                "domain",
                QT_TRANSLATE_NOOP("PortalsPanel", "Domain"),
                lambda p: p.domain,
                context=CTX,
            ),
            Column(
                "status",
                QT_TRANSLATE_NOOP("PortalsPanel", "Status"),
                lambda p: status_text(p.portal_status),
                context=CTX,
            ),
            Column(
                "remark",
                QT_TRANSLATE_NOOP("PortalsPanel", "Remark"),
                lambda p: p.remark,
                context=CTX,
            ),
            Column(
                "created",
                QT_TRANSLATE_NOOP("PortalsPanel", "Created"),
                lambda p: p.created_at,
                context=CTX,
                format=format_datetime,
            ),
            Column(
                "institution",
                QT_TRANSLATE_NOOP("PortalsPanel", "Institution"),
                lambda p: p.institution_biz_id,
                context=CTX,
            ),
        )
        super().__init__(columns, parent)


class PortalsController(QObject):
    """Creates portals through the runner."""

    #: The created portal record.
    created = Signal(object)
    errorShown = Signal(object)
    #: (code, label) pairs of the portal types.
    typesChanged = Signal(object)
    busyChanged = Signal(bool)

    def __init__(self, context: PanelContext, panel: PanelBase) -> None:
        super().__init__(panel)
        #: The panel: it keeps the tasks and knows what the signed-in account may do.
        self.panel = panel
        self.context = context
        self.runner = context.runner
        self.constants = ConstantsSource(context)
        self.types: list[Any] = []
        self.model = PortalsModel(self.type_label)
        self.dialog_parent: QWidget | None = None
        self.busy = False
        self._start_task: asyncio.Task[None] | None = None
        self.constants.on_cleared(self._constants_cleared)

    @property
    def client(self) -> Any:
        """The signed-in client (None before sign-in)."""
        return self.context.client

    def start(self) -> asyncio.Task[None] | None:
        """Load permissions and the portal types (once signed in; returns the task)."""
        if self._start_task is None and self.client is not None:
            self._start_task = self.panel.spawn(self._start())
        return self._start_task

    async def _start(self) -> None:
        await self.panel.load_permissions()
        await self.load_types()
        self.panel.loaded = True

    def _constants_cleared(self, *_args: object) -> None:
        self.panel.spawn(self.load_types())

    async def load_types(self) -> None:
        """The portal-type picker from the user-portal-types list."""
        try:
            self.types = await self.constants.items("user-portal-types")
        except Exception as exc:
            self.errorShown.emit(explain(exc))
            return
        self.typesChanged.emit([(i.code, shown(i, PORTAL_TYPE)) for i in self.types])
        self.model.retranslate()

    def type_label(self, item: Any) -> str:
        """A portal type as "label (code)" (the label from the constants list)."""
        code = enum_code(item) or ""
        label = next((shown(i, PORTAL_TYPE) for i in self.types if i.code == code), None)
        return f"{label} ({code})" if label and label != code else code

    def problems(self, portal_type: str | None, domain: str, remark: str) -> list[str]:
        """Why the form cannot be sent (translated; empty when it can)."""
        out = []
        reason = self.panel.permissions.reason("portals.create")
        if reason:
            out.append(reason)
        if not portal_type:
            out.append(QCoreApplication.translate("PortalsPanel", "Choose a portal type."))
        if not domain.strip():
            out.append(QCoreApplication.translate("PortalsPanel", "The domain is required."))
        if len(domain) > MAX_LENGTH:
            out.append(
                fill(
                    QCoreApplication.translate(
                        "PortalsPanel", "The domain is longer than %1 characters."
                    ),
                    MAX_LENGTH,
                )
            )
        if len(remark) > MAX_LENGTH:
            out.append(
                fill(
                    QCoreApplication.translate(
                        "PortalsPanel", "The remark is longer than %1 characters."
                    ),
                    MAX_LENGTH,
                )
            )
        return out

    async def create(
        self, portal_type: str, domain: str, remark: str = "", institution: str = ""
    ) -> Any:
        """Create a portal; returns the record, or None (failure shown, input kept)."""
        if self.busy or self.problems(portal_type, domain, remark):
            return None
        action = fill(
            QCoreApplication.translate("PortalsPanel", "Create the portal %1."), domain.strip()
        )
        if not await confirm_production_change(self.dialog_parent, self.context.profile, action):
            return None

        def failed(exc: BaseException) -> bool:
            self.errorShown.emit(explain(exc, PORTAL_ERRORS))
            return True

        def done(record: Any) -> None:
            self.model.insert(record)
            self.created.emit(record)

        op: Op[Any] = Op(
            run=lambda: self.client.portals.create(
                portal_type,
                domain.strip(),
                remark=remark.strip() or None,
                institution_biz_id=institution.strip() or None,
            ),
            on_success=done,
            on_failure=failed,
            changes=frozenset({TOPIC}),
            title=QCoreApplication.translate("PortalsPanel", "Could not create the portal"),
            parent=self.dialog_parent,
        )
        self._set_busy(True)
        try:
            return await self.runner.run(op)
        finally:
            self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.busyChanged.emit(busy)
