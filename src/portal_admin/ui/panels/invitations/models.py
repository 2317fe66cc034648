"""Columns and the table model of invitation lists (workspace and own)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont, QPalette
from PySide6.QtWidgets import QApplication

from portal_admin.client.records import Invitation
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.lists.paged_model import AnyIndex, Column, FetchPage, PagedTableModel
from portal_admin.ui.panels.registry import Clock, utc_now
from portal_admin.ui.widgets.plain import plain_tooltip

from .formatting import cannot_accept_reason, expiry_text, status_label

_C = "InvitationColumns"


def workspace_columns(clock: Clock = utc_now) -> list[Column[Invitation]]:
    """Columns of the workspace's invitations."""
    return [
        Column(
            "invitee",
            QT_TRANSLATE_NOOP("InvitationColumns", "Invitee email"),
            lambda i: i.invitee_email,
            sort_field="invitee",
            context=_C,
        ),
        Column(
            "inviter",
            QT_TRANSLATE_NOOP("InvitationColumns", "Inviter"),
            lambda i: i.inviter_name,
            sort_field="inviter",
            context=_C,
        ),
        Column(
            "status",
            QT_TRANSLATE_NOOP("InvitationColumns", "Status"),
            status_label,
            sort_field="status",
            context=_C,
        ),
        Column(
            "message",
            QT_TRANSLATE_NOOP("InvitationColumns", "Message"),
            lambda i: i.message,
            sort_field="message",
            context=_C,
        ),
        Column(
            "expires",
            QT_TRANSLATE_NOOP("InvitationColumns", "Expires"),
            lambda i: i.expires_at,
            sort_field="expires",
            context=_C,
            format=lambda v: expiry_text(v, clock()),  # type: ignore[arg-type]
        ),
        Column(
            "created",
            QT_TRANSLATE_NOOP("InvitationColumns", "Created"),
            lambda i: i.created_at,
            sort_field="created",
            context=_C,
            format=format_datetime,
        ),
        Column(
            "id",
            QT_TRANSLATE_NOOP("InvitationColumns", "Id"),
            lambda i: i.biz_id,
            context=_C,
            hidden=True,
        ),
    ]


def own_columns(clock: Clock = utc_now) -> list[Column[Invitation]]:
    """Columns of the signed-in account's own invitations."""
    return [
        Column(
            "workspace",
            QT_TRANSLATE_NOOP("InvitationColumns", "Workspace"),
            lambda i: i.workspace_name,
            sort_field="workspace",
            context=_C,
        ),
        Column(
            "inviter",
            QT_TRANSLATE_NOOP("InvitationColumns", "Inviter"),
            lambda i: i.inviter_name,
            sort_field="inviter",
            context=_C,
        ),
        Column(
            "status",
            QT_TRANSLATE_NOOP("InvitationColumns", "Status"),
            status_label,
            sort_field="status",
            context=_C,
        ),
        Column(
            "expires",
            QT_TRANSLATE_NOOP("InvitationColumns", "Expires"),
            lambda i: i.expires_at,
            sort_field="expires",
            context=_C,
            format=lambda v: expiry_text(v, clock()),  # type: ignore[arg-type]
        ),
        Column(
            "acceptable",
            QT_TRANSLATE_NOOP("InvitationColumns", "Can be accepted"),
            lambda i: cannot_accept_reason(i, clock()),
            context=_C,
            format=lambda v: str(v) if v else _yes(),
        ),
        Column(
            "message",
            QT_TRANSLATE_NOOP("InvitationColumns", "Message"),
            lambda i: i.message,
            context=_C,
        ),
        Column(
            "created",
            QT_TRANSLATE_NOOP("InvitationColumns", "Created"),
            lambda i: i.created_at,
            sort_field="created",
            context=_C,
            format=format_datetime,
        ),
    ]


def _yes() -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("Invitations", "Yes")


class InvitationTableModel(PagedTableModel[Invitation]):
    """Invitations; with ``mark_unacceptable`` those that cannot be accepted are greyed."""

    def __init__(
        self,
        columns: Sequence[Column[Invitation]],
        fetch: FetchPage[Invitation],
        *,
        clock: Clock = utc_now,
        mark_unacceptable: bool = False,
        parent: Any = None,
    ) -> None:
        super().__init__(columns, fetch, parent=parent)
        self._clock = clock
        self._mark = mark_unacceptable

    def unacceptable(self, row: int) -> str | None:
        """Why the row's invitation cannot be accepted (None: it can, or no such row)."""
        invitation = self.row_at(row)
        return None if invitation is None else cannot_accept_reason(invitation, self._clock())

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if self._mark and index.isValid() and index.row() < self.rowCount():
            if role == Qt.ItemDataRole.ForegroundRole:
                if self.unacceptable(index.row()):
                    palette = QApplication.palette()
                    return QBrush(
                        palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
                    )
                return None
            if role == Qt.ItemDataRole.FontRole:
                if self.unacceptable(index.row()):
                    font = QFont()
                    font.setItalic(True)
                    return font
                return None
            if role == Qt.ItemDataRole.ToolTipRole:
                reason = self.unacceptable(index.row())
                text = super().data(index, Qt.ItemDataRole.DisplayRole)
                return plain_tooltip(f"{text}\n{reason}" if reason else text)
        return super().data(index, role)
