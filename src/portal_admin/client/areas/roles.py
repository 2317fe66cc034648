"""Workspace roles (section 4.8)."""

from __future__ import annotations

from portal_admin.protocol import bodies

from ..records import Role
from ._base import Area, as_list, as_record, operation


class RolesArea(Area):
    """``client.roles``: list, get, delete."""

    @operation("roles.list")
    async def list(self) -> list[Role]:
        """The workspace's roles."""
        return as_list(await self._call("roles.list"), Role, "roles.list")

    @operation("roles.get")
    async def get(self, role_biz_id: str) -> Role:
        """One role."""
        data = await self._call("roles.get", path_params={"roleBizId": role_biz_id})
        return as_record(data, Role)

    @operation("roles.delete")
    async def delete(self, role_id: str, *, workspace_id: str | None = None) -> None:
        """Delete a role (refused for OWNER and for roles that still have members)."""
        workspace = workspace_id or self._invoker.transport.options.workspace_id
        await self._call(
            "roles.delete", json=bodies.RoleDelete.build(workspace_id=workspace, role_id=role_id)
        )
