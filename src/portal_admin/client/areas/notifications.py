"""Notification channel types, channels and mail-server checks (section 4.7).

Bodies the specification leaves open follow the sandbox's documented choices: targets are
named by ``bizId``; channels have ``channelName``, ``channelCategory`` (a type code or value),
``config`` (settings), ``description``, ``isDefault``; queries take a one-based ``page`` like
shape A's ``currentPage`` (the client's ``page`` argument stays zero-based). Extra keyword
arguments are sent as camelCase fields.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from pydantic.alias_generators import to_camel

from portal_admin.protocol import bodies, enums
from portal_admin.protocol.bodies import Body
from portal_admin.protocol.pages import DEFAULT_PAGE_SIZE, Page

from ..records import Channel, ChannelType, EnumItem, MailServerCheck
from ._base import Area, EnumArg, as_page, as_record, enum_value, iterate_pages, operation


def _body(model: type[Body], fields: Mapping[str, Any]) -> dict[str, Any]:
    """The body of ``model`` with ``fields``; fields it does not describe are sent as they
    are named, in camelCase (servers may take more than the sandbox's choices)."""
    known = {k: v for k, v in fields.items() if k in model.model_fields}
    extra = {to_camel(k): v for k, v in fields.items() if k not in known and v is not None}
    return {**model.build(**known), **extra}


class NotificationsArea(Area):
    """``client.notifications``: channel types, channels, IMAP/SMTP checks."""

    # -- channel types -------------------------------------------------------------------

    @operation("notifications.channel_types_query")
    async def query_channel_types(
        self,
        *,
        biz_id: str | None = None,
        type_code: str | None = None,
        type_status: EnumArg = None,
        enabled_only: bool = False,
        page: int = 0,
        size: int = DEFAULT_PAGE_SIZE,
    ) -> Page[ChannelType]:
        """One page (zero-based) of channel types."""
        body = bodies.ChannelTypeQuery.build(
            biz_id=biz_id,
            type_code=type_code,
            type_status=enum_value(enums.CHANNEL_TYPE_STATUS, type_status),
            enabled_only=enabled_only,
            page=page + 1,
            size=size,
        )
        data = await self._call("notifications.channel_types_query", json=body)
        return as_page(data, ChannelType, "notifications.channel_types_query")

    @operation("notifications.channel_types_query")
    def iterate_channel_types(
        self,
        *,
        type_code: str | None = None,
        type_status: EnumArg = None,
        enabled_only: bool = False,
        size: int = DEFAULT_PAGE_SIZE,
    ) -> AsyncIterator[ChannelType]:
        """Every matching channel type, page by page."""
        return iterate_pages(
            lambda n: self.query_channel_types(
                type_code=type_code,
                type_status=type_status,
                enabled_only=enabled_only,
                page=n,
                size=size,
            )
        )

    async def _type(self, operation_id: str, fields: Mapping[str, Any]) -> ChannelType:
        data = await self._call(operation_id, json=_body(bodies.BODIES[operation_id], fields))
        return as_record(data, ChannelType, operation_id)

    @operation("notifications.channel_types_create")
    async def create_channel_type(
        self,
        type_code: str,
        type_name: str,
        *,
        type_description: str | None = None,
        type_value: int | None = None,
        display_order: int | None = None,
        icon_url: str | None = None,
        extra_config: Mapping[str, Any] | None = None,
        **fields: Any,
    ) -> ChannelType:
        """Create a channel type."""
        return await self._type(
            "notifications.channel_types_create",
            {
                "type_code": type_code,
                "type_name": type_name,
                "type_description": type_description,
                "type_value": type_value,
                "display_order": display_order,
                "icon_url": icon_url,
                "extra_config": extra_config,
                **fields,
            },
        )

    @operation("notifications.channel_types_update")
    async def update_channel_type(self, biz_id: str, **fields: Any) -> ChannelType:
        """Change a channel type (``type_name``, ``type_description``, ``display_order``...)."""
        return await self._type("notifications.channel_types_update", {"biz_id": biz_id, **fields})

    @operation("notifications.channel_types_delete")
    async def delete_channel_type(self, biz_id: str) -> None:
        """Delete a channel type that no channel uses."""
        await self._call(
            "notifications.channel_types_delete", json=bodies.ById.build(biz_id=biz_id)
        )

    @operation("notifications.channel_types_enable")
    async def enable_channel_type(self, biz_id: str) -> ChannelType:
        """Enable a channel type."""
        return await self._type("notifications.channel_types_enable", {"biz_id": biz_id})

    @operation("notifications.channel_types_disable")
    async def disable_channel_type(self, biz_id: str) -> ChannelType:
        """Disable a channel type."""
        return await self._type("notifications.channel_types_disable", {"biz_id": biz_id})

    # -- channels ------------------------------------------------------------------------

    @operation("notifications.channels_query")
    async def query_channels(
        self,
        *,
        biz_id: str | None = None,
        institution_biz_id: str | None = None,
        channel_category: EnumArg = None,
        channel_status: EnumArg = None,
        active_only: bool = False,
        page: int = 0,
        size: int = DEFAULT_PAGE_SIZE,
    ) -> Page[Channel]:
        """One page (zero-based) of channels."""
        body = bodies.ChannelQuery.build(
            biz_id=biz_id,
            institution_biz_id=institution_biz_id,
            channel_category=_category(channel_category),
            channel_status=enum_value(enums.CHANNEL_STATUS, channel_status),
            active_only=active_only,
            page=page + 1,
            size=size,
        )
        data = await self._call("notifications.channels_query", json=body)
        return as_page(data, Channel, "notifications.channels_query")

    @operation("notifications.channels_query")
    def iterate_channels(
        self,
        *,
        institution_biz_id: str | None = None,
        channel_category: EnumArg = None,
        channel_status: EnumArg = None,
        active_only: bool = False,
        size: int = DEFAULT_PAGE_SIZE,
    ) -> AsyncIterator[Channel]:
        """Every matching channel, page by page."""
        return iterate_pages(
            lambda n: self.query_channels(
                institution_biz_id=institution_biz_id,
                channel_category=channel_category,
                channel_status=channel_status,
                active_only=active_only,
                page=n,
                size=size,
            )
        )

    async def _channel(self, operation_id: str, fields: Mapping[str, Any]) -> Channel:
        data = await self._call(operation_id, json=_body(bodies.BODIES[operation_id], fields))
        return as_record(data, Channel, operation_id)

    @operation("notifications.channels_create")
    async def create_channel(
        self,
        channel_name: str,
        channel_category: EnumArg,
        config: Mapping[str, Any],
        *,
        description: str | None = None,
        is_default: bool | None = None,
        channel_status: EnumArg = None,
        institution_biz_id: str | None = None,
        **fields: Any,
    ) -> Channel:
        """Create a channel of a category (a channel type code or value) with its settings."""
        return await self._channel(
            "notifications.channels_create",
            {
                "channel_name": channel_name,
                "channel_category": _category(channel_category),
                "config": dict(config),
                "description": description,
                "is_default": is_default,
                "channel_status": enum_value(enums.CHANNEL_STATUS, channel_status),
                "institution_biz_id": institution_biz_id,
                **fields,
            },
        )

    @operation("notifications.channels_update")
    async def update_channel(self, biz_id: str, **fields: Any) -> Channel:
        """Change a channel (``channel_name``, ``description``, ``config``, ``is_default``...)."""
        return await self._channel("notifications.channels_update", {"biz_id": biz_id, **fields})

    @operation("notifications.channels_delete")
    async def delete_channel(self, biz_id: str) -> None:
        """Delete a channel."""
        await self._call("notifications.channels_delete", json=bodies.ById.build(biz_id=biz_id))

    @operation("notifications.channels_activate")
    async def activate_channel(self, biz_id: str) -> Channel:
        """Activate a channel."""
        return await self._channel("notifications.channels_activate", {"biz_id": biz_id})

    @operation("notifications.channels_deactivate")
    async def deactivate_channel(self, biz_id: str) -> Channel:
        """Deactivate a channel."""
        return await self._channel("notifications.channels_deactivate", {"biz_id": biz_id})

    # -- mail servers --------------------------------------------------------------------

    @operation("notifications.validate_imap")
    async def validate_imap(
        self, *, channel_biz_id: str | None = None, **settings: Any
    ) -> MailServerCheck:
        """Check IMAP settings (``host``, ``port``, ``security``, ``username``, ``password``)."""
        data = await self._call(
            "notifications.validate_imap",
            json=_body(bodies.ImapCheck, {"channel_biz_id": channel_biz_id, **settings}),
        )
        return as_record(data, MailServerCheck, "notifications.validate_imap")

    @operation("notifications.validate_smtp")
    async def validate_smtp(
        self, *, channel_biz_id: str | None = None, **settings: Any
    ) -> MailServerCheck:
        """Check SMTP settings (as IMAP, plus ``from_address``)."""
        data = await self._call(
            "notifications.validate_smtp",
            json=_body(bodies.SmtpCheck, {"channel_biz_id": channel_biz_id, **settings}),
        )
        return as_record(data, MailServerCheck, "notifications.validate_smtp")


def _category(value: EnumArg) -> Any:
    """A channel category as sent: a value, or a code (custom types have codes only)."""
    if value is None:
        return None
    if isinstance(value, str) and not value.strip().isdigit():
        return value.strip().upper()
    if isinstance(value, EnumItem):
        return value.code
    return enum_value(enums.CHANNEL_TYPE, value)
