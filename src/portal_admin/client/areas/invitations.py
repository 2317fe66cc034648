"""Workspace invitations and the caller's own invitations (section 4.6)."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from portal_admin.protocol import bodies, enums

from ..records import Invitation
from ._base import Area, EnumArg, as_list, as_record, enum_value, operation


class InvitationsArea(Area):
    """``client.invitations``: list, create, cancel, own."""

    @operation("invitations.list")
    async def list(self) -> list[Invitation]:
        """The workspace's invitations (the workspace of ``X-Workspace-Id``)."""
        return as_list(await self._call("invitations.list"), Invitation, "invitations.list")

    @operation("invitations.create")
    async def create(
        self,
        invitee_email: str,
        *,
        message: str | None = None,
        expiration_days: int = bodies.DEFAULT_EXPIRATION_DAYS,
    ) -> Invitation:
        """Invite someone to the workspace by email."""
        data = await self._call(
            "invitations.create",
            json=bodies.InvitationCreate.build(
                invitee_email=invitee_email, message=message, expiration_days=expiration_days
            ),
        )
        return as_record(data, Invitation, "invitations.create")

    @operation("invitations.cancel")
    async def cancel(self, invitation_biz_id: str, *, reason: str = "") -> Invitation:
        """Cancel a pending invitation."""
        data = await self._call(
            "invitations.cancel",
            json=bodies.InvitationCancel.build(
                keep_none=True, invitation_biz_id=invitation_biz_id, reason=reason
            ),
        )
        return as_record(data, Invitation, "invitations.cancel")

    @operation("invitations.own")
    async def own(self, statuses: Sequence[EnumArg] | None = None) -> builtins.list[Invitation]:
        """The caller's own invitations, optionally filtered by status (codes or values)."""
        params = None
        if statuses:
            params = {"statuses": [enum_value(enums.INVITATION_STATUS, s) for s in statuses]}
        data = await self._call("invitations.own", params=params)
        return as_list(data, Invitation, "invitations.own")
