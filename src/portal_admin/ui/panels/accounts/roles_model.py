"""The roles table: a plain list (``client.roles.list`` is not paged) in a small model."""

from __future__ import annotations

from typing import Any

from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.lists.paged_model import RIGHT, Column

from .common import enum_text
from .list_model import RecordListModel

CTX = "RoleColumns"


def member_count(role: Any) -> int | None:
    """How many members hold ``role``, when the server says (the sandbox's memberCount)."""
    value = getattr(role, "member_count", None)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


COLUMNS: tuple[Column[Any], ...] = (
    Column("name", QT_TRANSLATE_NOOP("RoleColumns", "Name"), lambda r: r.role_name, context=CTX),
    Column(
        "type",
        QT_TRANSLATE_NOOP("RoleColumns", "Type"),
        lambda r: enum_text(r.role_type),
        context=CTX,
    ),
    Column(
        "members",
        QT_TRANSLATE_NOOP("RoleColumns", "Members"),
        member_count,
        context=CTX,
        alignment=RIGHT,
    ),
    Column(
        "permissions",
        QT_TRANSLATE_NOOP("RoleColumns", "Permissions"),
        lambda r: len(r.permission_codes),
        context=CTX,
        alignment=RIGHT,
    ),
    Column(
        "description",
        QT_TRANSLATE_NOOP("RoleColumns", "Description"),
        lambda r: r.description,
        context=CTX,
    ),
    Column(
        "updated",
        QT_TRANSLATE_NOOP("RoleColumns", "Updated"),
        lambda r: r.updated_at,
        context=CTX,
        format=format_datetime,
    ),
    Column(
        "id", QT_TRANSLATE_NOOP("RoleColumns", "Id"), lambda r: r.biz_id, context=CTX, hidden=True
    ),
)


class RolesModel(RecordListModel):
    """The workspace's roles."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(COLUMNS, parent)
