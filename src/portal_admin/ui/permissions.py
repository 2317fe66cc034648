"""What the signed-in account may do, so that panels disable what it may not, with the reason.

Two sources: the client (a read-only client refuses every mutating operation), and the live
profile's ``permissionCodes`` (an extra field the sandbox sends). A server whose profile carries
no permission codes leaves every action enabled; its 403 answers are then explained when they
come.

:meth:`Permissions.bind` applies the answer to a control: enabled, or disabled with the reason
as its tooltip; in a read-only (kiosk) session a mutating control is hidden instead. It also
tags the control with the dynamic property ``operationId``, which the kiosk guard
(``ui/kiosk/guard.py``) uses to keep it hidden.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from portal_admin.protocol.operations import OPERATIONS
from portal_admin.ui.widgets.plain import plain_tooltip


class Permissions:
    """Answers "may this account run this operation?" and, if not, why not."""

    def __init__(self, codes: Iterable[str] | None, *, read_only: bool = False) -> None:
        self._codes = frozenset(codes) if codes is not None else None
        self._read_only = read_only

    @classmethod
    def of(cls, client: Any, profile: Any = None) -> Permissions:
        """From a client and its live profile record (either may lack the information)."""
        codes = None
        raw = getattr(profile, "permission_codes", None)
        if isinstance(raw, list):
            codes = [c for c in raw if isinstance(c, str)]
        read_only = client is not None and not client.is_allowed("accounts.status")
        return cls(codes, read_only=read_only)

    @property
    def read_only(self) -> bool:
        """True when every mutating operation is refused (kiosk mode)."""
        return self._read_only

    def allows(self, operation_id: str) -> bool:
        """True when the operation may be attempted."""
        return self.reason(operation_id) is None

    def reason(self, operation_id: str) -> str | None:
        """Why the operation is not allowed (translated), or None when it is."""
        op = OPERATIONS[operation_id]
        if self._read_only and op.mutating:
            return QCoreApplication.translate("Permissions", "This session is read-only.")
        if op.permission and self._codes is not None and op.permission not in self._codes:
            return QCoreApplication.translate(
                "Permissions", "Your role lacks the permission {permission}."
            ).format(permission=op.permission)
        return None

    def bind(
        self, control: QWidget | QAction, operation_id: str, why_not: str | None = None
    ) -> str | None:
        """Apply what may be done to ``control``, which starts ``operation_id``.

        Enabled when allowed and ``why_not`` is None; otherwise disabled with the reason as
        its tooltip. In a read-only session a mutating control is hidden (not just disabled).
        Returns the reason (None when enabled).
        """
        tag_operation(control, operation_id)
        op = OPERATIONS[operation_id]
        reason = self.reason(operation_id) or why_not
        if self._read_only and op.mutating:
            control.setVisible(False)
            control.setEnabled(False)
            return reason
        control.setEnabled(reason is None)
        control.setToolTip(plain_tooltip(reason or ""))
        return reason


#: The dynamic property naming the operation a control starts (see ``ui/kiosk/guard.py``).
OPERATION_PROPERTY = "operationId"


def tag_operation(control: QObject, operation_id: str) -> None:
    """Tag ``control`` with the operation it starts (``operation_id`` must be stated)."""
    if operation_id not in OPERATIONS:
        raise KeyError(f"unknown operation {operation_id!r}")
    control.setProperty(OPERATION_PROPERTY, operation_id)
