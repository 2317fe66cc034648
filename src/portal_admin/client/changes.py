"""What a change sent to the server was, without its secrets: for the journal of changes.

Every mutating operation (``protocol.operations``, ``mutating``) ends with one
:class:`~portal_admin.client.events.ChangeFinished` event: the operation, its targets, the
fields of its body that are safe to keep, the outcome, the code, the request id and the
server's envelope time. Body fields are kept only from an allow-list: a password, code, token,
key, session id or a channel's configuration (which may hold a mail server's password) never
reaches an event. A caller that knows the values before and after (the bulk engine, a
dialog) says so with :func:`describe_change`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import Any

#: Body fields that name what was changed (kept as the change's targets).
TARGET_FIELDS = (
    "userBizId",
    "invitationBizId",
    "inviteeEmail",
    "roleId",
    "bizId",
    "channelBizId",
    "institutionBizId",
)
#: Body fields that are safe to keep: what an administrator set, never a secret.
SAFE_FIELDS = frozenset(
    {
        "action",
        "reason",
        "accountName",
        "accountPhone",
        "accountRemark",
        "defaultLanguage",
        "defaultTimezone",
        "defaultCountry",
        "message",
        "expirationDays",
        "workspaceId",
        "portalType",
        "domain",
        "remark",
        "ips",
        "typeCode",
        "typeName",
        "typeDescription",
        "typeValue",
        "typeStatus",
        "displayOrder",
        "iconUrl",
        "channelName",
        "channelCategory",
        "channelStatus",
        "description",
        "isDefault",
        "enabled",
    }
)
#: The longest text kept of one field (a remark or message may be long).
MAX_TEXT = 500

_DESCRIBED: ContextVar[tuple[Mapping[str, Any], Mapping[str, Any]] | None] = ContextVar(
    "described_change", default=None
)


@contextlib.contextmanager
def describe_change(
    *, before: Mapping[str, Any] | None = None, after: Mapping[str, Any] | None = None
) -> Iterator[None]:
    """Attach what the caller knew before and after to the changes sent inside the block."""
    token = _DESCRIBED.set((dict(before or {}), dict(after or {})))
    try:
        yield
    finally:
        _DESCRIBED.reset(token)


def described() -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """The before and after values attached by :func:`describe_change` (empty without)."""
    value = _DESCRIBED.get()
    return value if value is not None else ({}, {})


def _safe(value: Any) -> Any:
    if isinstance(value, str):
        return value[:MAX_TEXT]
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_safe(v) for v in value[:1000] if isinstance(v, str | int | float | bool)]
    return None  # nested objects (configurations) are never kept


def summarize(
    body: Any, path_params: Mapping[str, str] | None = None, params: Any = None
) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The targets and the safe fields of one request (its body, path and query)."""
    sources: list[Mapping[str, Any]] = []
    for source in (body, path_params, params):
        if isinstance(source, Mapping):
            sources.append(source)
    targets: list[str] = []
    fields: dict[str, Any] = {}
    for source in sources:
        for key in TARGET_FIELDS:
            value = source.get(key)
            if isinstance(value, str | int) and str(value) not in targets:
                targets.append(str(value)[:MAX_TEXT])
        for key, value in source.items():
            if key in SAFE_FIELDS:
                fields[key] = _safe(value)
    return tuple(targets), fields


def created(data: Any, targets: tuple[str, ...]) -> tuple[str, ...]:
    """The id of what a change created (from its answer), when the request named none."""
    if targets or not isinstance(data, Mapping):
        return ()
    for key in ("bizId", "id"):
        value = data.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool):
            return (str(value)[:MAX_TEXT],)
    return ()
