"""Institution portals (section 4.8)."""

from __future__ import annotations

from portal_admin.protocol import bodies, enums

from ..records import Portal
from ._base import Area, EnumArg, as_record, enum_value, operation


class PortalsArea(Area):
    """``client.portals``: create."""

    @operation("portals.create")
    async def create(
        self,
        portal_type: EnumArg,
        domain: str,
        *,
        remark: str | None = None,
        institution_biz_id: str | None = None,
    ) -> Portal:
        """Create a portal; it starts ACTIVE. Codes take the creation (1001) series."""
        value: int | None
        if isinstance(portal_type, str) and not portal_type.isdigit():
            found = next(
                (i for i in enums.PORTAL_TYPE.alternate if i.code == portal_type.upper()), None
            )
            value = found.value if found else enum_value(enums.PORTAL_TYPE, portal_type)
        else:
            value = enum_value(enums.PORTAL_TYPE, portal_type)
        data = await self._call(
            "portals.create",
            json=bodies.PortalCreate.build(
                portal_type=value,
                domain=domain,
                remark=remark,
                institution_biz_id=institution_biz_id,
            ),
        )
        return as_record(data, Portal)
