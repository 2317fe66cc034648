"""The roles area (section 4.8): list, get and delete the roles of a workspace.

Role record: bizId, workspaceBizId, roleName, roleType (enum item), description,
permissionCodes, createdAt, updatedAt, plus ``memberCount`` (ours: how many members hold it).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import JSONResponse

from portal_admin.protocol.bodies import RoleDelete
from portal_admin.protocol.enums import ROLE_TYPE
from portal_admin.protocol.errors import Code
from portal_admin.protocol.operations import PERMISSIONS
from portal_admin.protocol.records import Role

from ..clock import iso
from ..deps import Caller, Ctx, require
from ..errors import ApiError, invalid
from ._route import route

router = APIRouter()

_SELECT = (
    "SELECT r.*, (SELECT COUNT(*) FROM workspace_members m WHERE m.role_biz_id = r.biz_id)"
    " AS member_count FROM roles r"
)


def role_record(ctx: Ctx, row: Any) -> dict[str, Any]:
    """The wire form of a ``roles`` row (with ``member_count``)."""
    try:
        codes = [str(c) for c in json.loads(row["permission_codes"])]
    except ValueError:
        codes = []
    return Role.wire(
        biz_id=row["biz_id"],
        workspace_biz_id=row["workspace_biz_id"],
        role_name=row["role_name"],
        role_type=ctx.item(ROLE_TYPE, row["role_type"]),
        description=row["description"],
        permission_codes=codes,
        member_count=int(row["member_count"]),
        created_at=iso(row["created_at"]),
        updated_at=iso(row["updated_at"]),
    )


@route(router, "roles.list", list[Role])
async def list_roles(caller: Annotated[Caller, Depends(require("roles.list"))]) -> JSONResponse:
    """The roles of the caller's workspace: OWNER first, then by name."""
    rows = caller.db.query(
        _SELECT + " WHERE r.workspace_biz_id = ?"
        " ORDER BY r.role_type = 'OWNER' DESC, r.role_name COLLATE NOCASE, r.biz_id",
        (caller.workspace_biz_id,),
    )
    return caller.ok([role_record(caller.ctx, r) for r in rows])


@route(router, "roles.get", Role)
async def get_role(
    roleBizId: str,
    caller: Annotated[Caller, Depends(require("roles.get"))],
) -> JSONResponse:
    """One role of the caller's workspace; 404 RESOURCE.NOT_FOUND otherwise."""
    row = caller.db.one(
        _SELECT + " WHERE r.biz_id = ? AND r.workspace_biz_id = ?",
        (roleBizId, caller.workspace_biz_id),
    )
    if row is None:
        raise ApiError(Code.NOT_FOUND)
    return caller.ok(role_record(caller.ctx, row))


def _target_workspace(caller: Caller, workspace_id: str | None) -> str:
    """The workspace named by the body; the caller must hold role:write there too."""
    if not workspace_id or workspace_id == caller.workspace_biz_id:
        return caller.workspace_biz_id
    row = caller.db.one(
        "SELECT r.permission_codes FROM workspace_members m JOIN roles r"
        " ON r.biz_id = m.role_biz_id JOIN workspaces w ON w.biz_id = m.workspace_biz_id"
        " WHERE m.account_biz_id = ? AND m.workspace_biz_id = ? AND m.status = 'ACTIVE'"
        " AND w.status = 'ACTIVE'",
        (caller.principal.account_biz_id, workspace_id),
    )
    if row is None:
        raise ApiError(Code.NOT_FOUND)
    try:
        codes = {str(c) for c in json.loads(row["permission_codes"])}
    except ValueError:
        codes = set()
    if PERMISSIONS["roles.delete"] not in codes:
        raise ApiError(Code.PERMISSION_DENIED)
    return workspace_id


@route(router, "roles.delete")
async def delete_role(
    caller: Annotated[Caller, Depends(require("roles.delete"))],
    query: Annotated[RoleDelete, Query()],
    body: Annotated[RoleDelete | None, Body()] = None,
) -> JSONResponse:
    """Delete a custom role without members (``{workspaceId, roleId}``, body or query; the
    body's fields win)."""
    body = body or RoleDelete()
    role_id = body.role_id or query.role_id
    if not role_id:
        raise invalid("roleId is required")
    workspace = _target_workspace(caller, body.workspace_id or query.workspace_id)
    with caller.db.transaction():
        row = caller.db.one(
            _SELECT + " WHERE r.biz_id = ? AND r.workspace_biz_id = ?", (role_id, workspace)
        )
        if row is None:
            raise ApiError(Code.NOT_FOUND)
        if row["role_type"] == "OWNER":
            raise ApiError(Code.OWNER_ROLE_PROTECTED)
        if int(row["member_count"]) > 0:
            raise ApiError(Code.ROLE_IN_USE)
        caller.db.execute("DELETE FROM roles WHERE biz_id = ?", (role_id,))
    return caller.ok(None)
