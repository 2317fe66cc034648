"""Which journaled changes can be reverted, and how each names its target and values.

Every mutating operation of ``protocol.operations`` is in exactly one of :data:`REVERSIBLE`
(what it changes: a kind of target and the keys of its values) and :data:`NOT_REVERSIBLE`
(why not, and what can be done instead); ``tests/jobs/test_revert_table.py`` checks it.

A journal record's values: ``before`` and ``after`` hold, for each key changed, the value
before and after (``{"status": "ACTIVE"}``, ``{"ips": [...]}``, ``{"accountRemark": "..."}``),
as the desktop panels and reverts record them; a bulk job records ``{"value": ...}`` for its
one status or field (and ``after.job``, its id). The value after can always be derived from
the operation and the body's fields; the value before only the caller knows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Account fields a revert can set back: body key -> the client's keyword argument.
ACCOUNT_FIELDS: dict[str, str] = {
    "accountName": "account_name",
    "accountPhone": "account_phone",
    "accountRemark": "account_remark",
    "defaultLanguage": "default_language",
    "defaultTimezone": "default_timezone",
    "defaultCountry": "default_country",
}
#: A notification channel's fields that are not secret (its configuration may hold one).
CHANNEL_FIELDS: dict[str, str] = {
    "channelName": "channel_name",
    "description": "description",
    "isDefault": "is_default",
}
#: A notification channel type's fields.
TYPE_FIELDS: dict[str, str] = {
    "typeName": "type_name",
    "typeDescription": "type_description",
    "displayOrder": "display_order",
    "iconUrl": "icon_url",
}
#: The target id of the signed-in account's IP whitelist (it has no id of its own).
WHITELIST_ID = "ip-whitelist"


@dataclass(frozen=True, slots=True)
class Reversible:
    """What a reversible operation changes: the kind of target and the keys of its values;
    ``implied``: the value after that the operation itself sets (a status, enabled)."""

    kind: str  # "account" | "whitelist" | "channel" | "type"
    keys: tuple[str, ...]
    implied: Any = None


REVERSIBLE: dict[str, Reversible] = {
    "accounts.status": Reversible("account", ("status",)),
    "accounts.update": Reversible("account", tuple(ACCOUNT_FIELDS)),
    "security.ip_whitelist_set": Reversible("whitelist", ("ips",)),
    "security.ip_whitelist_enable": Reversible("whitelist", ("enabled",), True),
    "security.ip_whitelist_disable": Reversible("whitelist", ("enabled",), False),
    "notifications.channels_activate": Reversible("channel", ("channelStatus",), "ACTIVE"),
    "notifications.channels_deactivate": Reversible("channel", ("channelStatus",), "INACTIVE"),
    "notifications.channels_update": Reversible("channel", tuple(CHANNEL_FIELDS)),
    "notifications.channel_types_enable": Reversible("type", ("typeStatus",), "ENABLED"),
    "notifications.channel_types_disable": Reversible("type", ("typeStatus",), "DISABLED"),
    "notifications.channel_types_update": Reversible("type", tuple(TYPE_FIELDS)),
}

#: Operations that cannot be reverted: why, and what can be done instead.
NOT_REVERSIBLE: dict[str, tuple[str, str]] = {
    "accounts.password_reset": (
        "a password-reset mail cannot be taken back",
        "tell the person to ignore the mail; its link expires",
    ),
    "auth.password_forgot": (
        "a password-reset mail cannot be taken back",
        "ignore the mail; its link expires",
    ),
    "auth.password_reset": (
        "a password is never recorded, so it cannot be set back",
        "set a new password",
    ),
    "auth.password_change": (
        "a password is never recorded, so it cannot be set back",
        "change the password again",
    ),
    "auth.password_init": (
        "a password is never recorded, so it cannot be set back",
        "change the password again",
    ),
    "security.backup_codes_generate": (
        "generated backup codes replaced the earlier ones, which cannot be restored",
        "keep the new codes, or generate another set",
    ),
    "security.otp_revoke": (
        "a revoked authenticator (its sign-in codes) cannot be restored",
        "enrol the authenticator again",
    ),
    "roles.delete": (
        "a deleted role cannot be restored",
        "create the role again with its permissions and members",
    ),
    "portals.create": (
        "a created portal cannot be removed by this program",
        "ask the server's operator to remove it",
    ),
    "invitations.create": (
        "a sent invitation cannot be unsent",
        "cancel it (Invitations, or 'bulk cancel-invitations --ids ID')",
    ),
    "invitations.cancel": (
        "a cancelled invitation cannot be reopened",
        "invite again (Invitations, or 'bulk invite')",
    ),
    "notifications.channels_create": (
        "a created channel is not deleted by a revert",
        "delete the channel (Notifications)",
    ),
    "notifications.channels_delete": (
        "a deleted channel cannot be restored (its settings were never recorded)",
        "create the channel again",
    ),
    "notifications.channel_types_create": (
        "a created channel type is not deleted by a revert",
        "delete the channel type (Notifications)",
    ),
    "notifications.channel_types_delete": (
        "a deleted channel type cannot be restored",
        "create the channel type again",
    ),
    "notifications.validate_imap": ("a settings check changed nothing", "nothing to do"),
    "notifications.validate_smtp": ("a settings check changed nothing", "nothing to do"),
}

#: Why a record has no usable value before, and what to do (skip ``NO_BEFORE``).
NO_BEFORE_WHY = "the journal record has no value before the change"
NO_BEFORE_INSTEAD = "set the value by hand (the record says the value after)"


def norm(value: Any) -> str:
    """A value as the plan shows and compares it: text as it is, a list as sorted JSON, a
    truth value as true/false, nothing as the empty text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return json.dumps(sorted(str(v) for v in value), ensure_ascii=False)
    return str(value)


#: Keys whose values are truth values, whole numbers and lists of addresses; every other key
#: holds text (or nothing).
_BOOL_KEYS = frozenset({"enabled", "isDefault"})
_INT_KEYS = frozenset({"displayOrder"})


def usable(key: str, value: Any) -> bool:
    """True when ``value`` is a value this program can set ``key`` to (a record rewritten by
    hand may hold anything)."""
    if key == "ips":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if key in _BOOL_KEYS:
        return isinstance(value, bool)
    if key in _INT_KEYS:
        return value is None or (isinstance(value, int) and not isinstance(value, bool))
    return value is None or (isinstance(value, str) and len(value) <= 10_000)


@dataclass(frozen=True, slots=True)
class Value:
    """One value a record changed: the target's kind and id, the key, before and after."""

    kind: str
    target: str
    key: str
    before: Any
    after: Any
    has_before: bool


#: The status an account action leads to (``accounts.status``'s ``action`` field).
_STATUS_AFTER = {"ACTIVATE": "ACTIVE", "SUSPEND": "SUSPENDED", "DEACTIVATE": "DEACTIVATED"}


def values_of(record: Mapping[str, Any]) -> list[Value] | None:
    """The values one journal record changed (None: its operation is not reversible; an empty
    list: it names nothing a revert can set back)."""
    operation = str(record.get("operation", ""))
    spec = REVERSIBLE.get(operation)
    if spec is None:
        return None
    before = record.get("before") if isinstance(record.get("before"), Mapping) else {}
    after = record.get("after") if isinstance(record.get("after"), Mapping) else {}
    fields = record.get("fields") if isinstance(record.get("fields"), Mapping) else {}
    assert isinstance(before, Mapping) and isinstance(after, Mapping)
    assert isinstance(fields, Mapping)
    listed = record.get("targets")
    targets = (
        [str(t) for t in listed if isinstance(t, str | int)] if isinstance(listed, list) else []
    )
    if spec.kind == "whitelist":
        target = WHITELIST_ID
    elif targets:
        target = targets[0]
    else:
        return []
    if spec.keys == ("status",):
        keys: tuple[str, ...] = ("status",)
    elif len(spec.keys) == 1:
        keys = spec.keys
    else:  # fields: those the body set (or the record names)
        keys = tuple(k for k in spec.keys if k in fields or k in before or k in after)
    bulk = "value" in before and "job" in after  # a bulk job's one value
    found: list[Value] = []
    for key in keys:
        if key in after:
            value_after = after[key]
        elif bulk and "value" in after:
            value_after = after["value"]
        elif spec.implied is not None:
            value_after = spec.implied
        elif key == "status":
            value_after = _STATUS_AFTER.get(str(fields.get("action", "")), "")
        else:
            value_after = fields.get(key)
        if key in before:
            found.append(Value(spec.kind, target, key, before[key], value_after, True))
        elif bulk and len(keys) == 1:
            found.append(Value(spec.kind, target, key, before["value"], value_after, True))
        else:
            found.append(Value(spec.kind, target, key, None, value_after, False))
    return found
