"""Public constants lists (section 4.5): one method per list, no token needed."""

from __future__ import annotations

from ..records import ConstantItem
from ._base import Area, as_list, operation


class ConstantsArea(Area):
    """``client.constants``: enumeration and reference lists, labels localized."""

    async def _list(self, operation_id: str) -> list[ConstantItem]:
        return as_list(await self._call(operation_id), ConstantItem, operation_id)

    @operation("constants.countries")
    async def countries(self) -> list[ConstantItem]:
        """The ``countries`` list."""
        return await self._list("constants.countries")

    @operation("constants.currency_config_statuses")
    async def currency_config_statuses(self) -> list[ConstantItem]:
        """The ``currency-config-statuses`` list."""
        return await self._list("constants.currency_config_statuses")

    @operation("constants.notification_channel_statuses")
    async def notification_channel_statuses(self) -> list[ConstantItem]:
        """The ``notification-channel-statuses`` list."""
        return await self._list("constants.notification_channel_statuses")

    @operation("constants.notification_channel_type_statuses")
    async def notification_channel_type_statuses(self) -> list[ConstantItem]:
        """The ``notification-channel-type-statuses`` list."""
        return await self._list("constants.notification_channel_type_statuses")

    @operation("constants.notification_channel_types")
    async def notification_channel_types(self) -> list[ConstantItem]:
        """The ``notification-channel-types`` list."""
        return await self._list("constants.notification_channel_types")

    @operation("constants.order_statuses")
    async def order_statuses(self) -> list[ConstantItem]:
        """The ``order-statuses`` list."""
        return await self._list("constants.order_statuses")

    @operation("constants.timezones")
    async def timezones(self) -> list[ConstantItem]:
        """The ``timezones`` list."""
        return await self._list("constants.timezones")

    @operation("constants.transfer_statuses")
    async def transfer_statuses(self) -> list[ConstantItem]:
        """The ``transfer-statuses`` list."""
        return await self._list("constants.transfer_statuses")

    @operation("constants.us_states")
    async def us_states(self) -> list[ConstantItem]:
        """The ``us-states`` list."""
        return await self._list("constants.us_states")

    @operation("constants.user_account_statuses")
    async def user_account_statuses(self) -> list[ConstantItem]:
        """The ``user-account-statuses`` list."""
        return await self._list("constants.user_account_statuses")

    @operation("constants.user_institution_statuses")
    async def user_institution_statuses(self) -> list[ConstantItem]:
        """The ``user-institution-statuses`` list."""
        return await self._list("constants.user_institution_statuses")

    @operation("constants.user_institution_types")
    async def user_institution_types(self) -> list[ConstantItem]:
        """The ``user-institution-types`` list."""
        return await self._list("constants.user_institution_types")

    @operation("constants.user_invitation_statuses")
    async def user_invitation_statuses(self) -> list[ConstantItem]:
        """The ``user-invitation-statuses`` list."""
        return await self._list("constants.user_invitation_statuses")

    @operation("constants.user_join_sources")
    async def user_join_sources(self) -> list[ConstantItem]:
        """The ``user-join-sources`` list."""
        return await self._list("constants.user_join_sources")

    @operation("constants.user_portal_types")
    async def user_portal_types(self) -> list[ConstantItem]:
        """The ``user-portal-types`` list."""
        return await self._list("constants.user_portal_types")

    @operation("constants.user_workspace_statuses")
    async def user_workspace_statuses(self) -> list[ConstantItem]:
        """The ``user-workspace-statuses`` list."""
        return await self._list("constants.user_workspace_statuses")
