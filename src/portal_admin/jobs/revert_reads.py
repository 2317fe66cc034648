"""A revert's reads of its targets as they are now: accounts (page by page, a few pages at
once, or one by one), the IP whitelist, notification channels and channel types, each as a
dictionary of the values a revert compares (keyed by the body's names) and a ``label``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from portal_admin.client import PortalClient
from portal_admin.client.errors import InvalidIdError, NotFoundError

from .reversible import ACCOUNT_FIELDS, CHANNEL_FIELDS, TYPE_FIELDS
from .targets import planning_read

#: Accounts read one by one up to this many; more are read page by page.
READ_ONE_BY_ONE = 20
#: Pages of accounts asked for at once.
PAGES_AT_ONCE = 4


def account_values(account: Any) -> dict[str, Any]:
    status = account.account_status
    return {
        "label": account.account_email or account.biz_id,
        "status": status.code if status else "",
        **{key: getattr(account, name) or "" for key, name in ACCOUNT_FIELDS.items()},
    }


def _channel_values(channel: Any) -> dict[str, Any]:
    status = channel.channel_status
    return {
        "label": channel.channel_name or channel.biz_id,
        "channelStatus": status.code if status else ("ACTIVE" if channel.active else "INACTIVE"),
        **{key: getattr(channel, name) for key, name in CHANNEL_FIELDS.items()},
    }


def _type_values(kind: Any) -> dict[str, Any]:
    status = kind.type_status
    return {
        "label": kind.type_name or kind.type_code or kind.biz_id,
        "typeStatus": status.code if status else ("ENABLED" if kind.enabled else "DISABLED"),
        **{key: getattr(kind, name) for key, name in TYPE_FIELDS.items()},
    }


async def _read_account(client: PortalClient, target: str) -> dict[str, Any] | None:
    try:
        return account_values(await planning_read(client, lambda: client.accounts.get(target)))
    except (NotFoundError, InvalidIdError):
        return None


async def account_pages(client: PortalClient, status: str | None) -> dict[str, dict[str, Any]]:
    """Every account (of ``status``) read page by page, a few pages at once, by id."""
    query = {"status": status} if status else {}
    found: dict[str, dict[str, Any]] = {}

    async def page(number: int) -> Any:
        return await planning_read(
            client, lambda: client.accounts.query(page=number, size=100, **query)
        )

    def keep(items: Iterable[Any]) -> None:
        for account in items:
            found[account.biz_id] = account_values(account)

    first = await page(0)
    keep(first.items)
    gate = asyncio.Semaphore(PAGES_AT_ONCE)  # pages asked ahead, as snapshots read them

    async def rest(number: int) -> None:
        async with gate:
            keep((await page(number)).items)

    if first.items:
        await asyncio.gather(*(rest(n) for n in range(1, first.total_pages)))
    return found


async def read_accounts(
    client: PortalClient,
    ids: set[str],
    status: str | None,
    pages: dict[str, dict[str, Any]] | None = None,
) -> dict[str, dict[str, Any] | None]:
    """Each account now (None: gone): from ``pages`` (read ahead) or, for more than a few,
    page by page (filtered by ``status`` when every line expects the same); then the ones
    not met one by one."""
    found: dict[str, dict[str, Any] | None] = {}
    if pages is None and len(ids) > READ_ONE_BY_ONE:
        pages = await account_pages(client, status)
    if pages is not None:
        found.update((i, pages[i]) for i in ids if i in pages)
    missing = [i for i in ids if i not in found]
    gate = asyncio.Semaphore(8)

    async def one(target: str) -> None:
        async with gate:
            found[target] = await _read_account(client, target)

    await asyncio.gather(*(one(t) for t in missing))
    return found


async def _read_whitelist(client: PortalClient) -> dict[str, Any]:
    listing = await planning_read(client, client.security.ip_whitelist)
    return {
        "label": "IP whitelist",
        "ips": [e.ip for e in listing.entries],
        "enabled": listing.enabled,
    }


async def _read_channel(client: PortalClient, target: str) -> dict[str, Any] | None:
    page = await planning_read(client, lambda: client.notifications.query_channels(biz_id=target))
    for channel in page.items:
        if channel.biz_id == target:
            return _channel_values(channel)
    return None


async def _read_type(client: PortalClient, target: str) -> dict[str, Any] | None:
    page = await planning_read(
        client, lambda: client.notifications.query_channel_types(biz_id=target)
    )
    for kind in page.items:
        if kind.biz_id == target:
            return _type_values(kind)
    return None


async def read_now(client: PortalClient, kind: str, target: str) -> dict[str, Any] | None:
    """One target's values now (None: it no longer exists)."""
    if kind == "account":
        return await _read_account(client, target)
    if kind == "whitelist":
        return await _read_whitelist(client)
    if kind == "channel":
        return await _read_channel(client, target)
    return await _read_type(client, target)
