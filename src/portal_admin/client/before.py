"""The values before a change, for the journal: what a panel knew of the row it changed.

Each function returns a :func:`~portal_admin.client.changes.describe_change` block for one
reversible change (``jobs.reversible.REVERSIBLE``), keyed by the body's names (``status``,
``accountRemark``, ``ips``, ``enabled``, ``channelStatus``, ``typeStatus``, ...), so that a
revert can set the value back. ``await described(block, call)`` runs a call inside one (the
block must be entered in the task that sends the request). No secret is ever named: a
channel's configuration is not among the fields.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from pydantic.alias_generators import to_camel

from .changes import describe_change

T = TypeVar("T")

#: The status an account action leads to.
_ACCOUNT_RESULT = {"ACTIVATE": "ACTIVE", "SUSPEND": "SUSPENDED", "DEACTIVATE": "DEACTIVATED"}
#: Fields whose values a revert may set back (snake_case, as the client's keyword arguments).
_ACCOUNT_FIELDS = (
    "account_name",
    "account_phone",
    "account_remark",
    "default_language",
    "default_timezone",
    "default_country",
)
_CHANNEL_FIELDS = ("channel_name", "description", "is_default")
_TYPE_FIELDS = ("type_name", "type_description", "display_order", "icon_url")


def _code(item: Any) -> str:
    code = getattr(item, "code", None)
    return str(code) if code is not None else ""


def _fields(record: Any, changes: Mapping[str, Any], names: tuple[str, ...]) -> Block:
    changed = [name for name in names if name in changes and changes[name] is not None]
    return describe_change(
        before={to_camel(name): getattr(record, name, None) for name in changed},
        after={to_camel(name): changes[name] for name in changed},
    )


Block = AbstractContextManager[None]


def account_status(account: Any, action: str) -> Block:
    """An account's status change (``account``: the row changed; ``action``: ACTIVATE, ...)."""
    return describe_change(
        before={"status": _code(account.account_status)},
        after={"status": _ACCOUNT_RESULT.get(action, action)},
    )


def account_update(account: Any, changes: Mapping[str, Any]) -> Block:
    """An account's fields (``changes``: the client's keyword arguments)."""
    return _fields(account, changes, _ACCOUNT_FIELDS)


def whitelist_ips(listing: Any, ips: list[str]) -> Block:
    """The IP whitelist's entries replaced (``listing``: the whitelist before)."""
    return describe_change(
        before={"ips": [entry.ip for entry in listing.entries]}, after={"ips": list(ips)}
    )


def whitelist_enabled(enabled_before: bool, enabled_after: bool) -> Block:
    """The IP whitelist enforced or not."""
    return describe_change(before={"enabled": enabled_before}, after={"enabled": enabled_after})


def channel_status(channel: Any, active_after: bool) -> Block:
    """A channel activated or deactivated."""
    status = _code(channel.channel_status) or ("ACTIVE" if channel.active else "INACTIVE")
    return describe_change(
        before={"channelStatus": status},
        after={"channelStatus": "ACTIVE" if active_after else "INACTIVE"},
    )


def channel_update(channel: Any, changes: Mapping[str, Any]) -> Block:
    """A channel's fields that are not secret (its configuration never is recorded)."""
    return _fields(channel, changes, _CHANNEL_FIELDS)


def type_status(kind: Any, enabled_after: bool) -> Block:
    """A channel type enabled or disabled."""
    status = _code(kind.type_status) or ("ENABLED" if kind.enabled else "DISABLED")
    return describe_change(
        before={"typeStatus": status},
        after={"typeStatus": "ENABLED" if enabled_after else "DISABLED"},
    )


def type_update(kind: Any, changes: Mapping[str, Any]) -> Block:
    """A channel type's fields."""
    return _fields(kind, changes, _TYPE_FIELDS)


async def described(block: Block, call: Awaitable[T]) -> T:
    """Await ``call`` inside ``block`` (in this task: where its request is sent)."""
    with block:
        return await call
