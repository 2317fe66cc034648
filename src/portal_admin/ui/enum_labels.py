"""The program's own labels for enum codes, shown when a server's label is unusable.

A server may send a label as an untranslated key (``enum.UserAccountStatus.ACTIVE``); the rule
of ``protocol.labels`` then shows the program's own label for the code, in the interface's
language, or else the code in words. The server's own label, when usable, always wins.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from portal_admin.protocol import enums
from portal_admin.protocol.labels import code_in_words, item_label, label_to_show
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP

CTX = "EnumLabels"

_ACCOUNT_STATUS = {
    "ACTIVE": QT_TRANSLATE_NOOP("EnumLabels", "Active"),
    "SUSPENDED": QT_TRANSLATE_NOOP("EnumLabels", "Suspended"),
    "PENDING_INIT": QT_TRANSLATE_NOOP("EnumLabels", "Pending setup"),
    "REJECTED": QT_TRANSLATE_NOOP("EnumLabels", "Rejected"),
    "DEACTIVATED": QT_TRANSLATE_NOOP("EnumLabels", "Deactivated"),
    "REGISTERED": QT_TRANSLATE_NOOP("EnumLabels", "Registered"),
}
_PORTAL_TYPE = {
    "SYSTEM": QT_TRANSLATE_NOOP("EnumLabels", "System portal"),
    "TENANT": QT_TRANSLATE_NOOP("EnumLabels", "Tenant portal"),
    "PARTNER": QT_TRANSLATE_NOOP("EnumLabels", "Partner portal"),
    "CONSUMER": QT_TRANSLATE_NOOP("EnumLabels", "Consumer portal"),
}
_INVITATION_STATUS = {
    "PENDING": QT_TRANSLATE_NOOP("EnumLabels", "Pending"),
    "ACCEPTED": QT_TRANSLATE_NOOP("EnumLabels", "Accepted"),
    "DECLINED": QT_TRANSLATE_NOOP("EnumLabels", "Declined"),
    "EXPIRED": QT_TRANSLATE_NOOP("EnumLabels", "Expired"),
    "CANCELLED": QT_TRANSLATE_NOOP("EnumLabels", "Cancelled"),
}

#: Own labels by enumeration, found by its type name or its constants path.
_OWN: dict[str, dict[str, str]] = {}
for _listing, _labels in (
    (enums.ACCOUNT_STATUS, _ACCOUNT_STATUS),
    (enums.PORTAL_TYPE, _PORTAL_TYPE),
    (enums.INVITATION_STATUS, _INVITATION_STATUS),
):
    _OWN[_listing.type_name] = _labels
    if _listing.path:
        _OWN[_listing.path] = _labels

#: The enumerations with labels of the program's own, for ``shown``'s ``kind``.
ACCOUNT_STATUS = enums.ACCOUNT_STATUS
PORTAL_TYPE = enums.PORTAL_TYPE
INVITATION_STATUS = enums.INVITATION_STATUS

#: An enumeration: its listing, type name (``UserAccountStatus``) or constants path.
Kind = enums.EnumListing | str | None


def own_label(kind: Kind, code: str) -> str | None:
    """The program's label for ``code`` of the enumeration ``kind``, translated; None when
    it has none."""
    name = kind.type_name if isinstance(kind, enums.EnumListing) else kind
    text = _OWN.get(name or "", {}).get(code)
    return QCoreApplication.translate(CTX, text) if text else None


def shown(item: object, kind: Kind = None) -> str:
    """What to show for an enum item: the server's label, else the program's own label for
    its code (when ``kind`` names an enumeration it has labels for), else the code in words;
    never an untranslated key. Empty for None."""
    return item_label(item, (lambda code: own_label(kind, code)) if kind else None)


# -- Values by field: the diff, the journal, the bulk window ------------------------------------

_CHANNEL_STATUS = {
    "ACTIVE": QT_TRANSLATE_NOOP("EnumLabels", "Active"),
    "INACTIVE": QT_TRANSLATE_NOOP("EnumLabels", "Inactive"),
}
_CHANNEL_TYPE_STATUS = {
    "ENABLED": QT_TRANSLATE_NOOP("EnumLabels", "Enabled"),
    "DISABLED": QT_TRANSLATE_NOOP("EnumLabels", "Disabled"),
}
_ROLE_TYPE = {
    "OWNER": QT_TRANSLATE_NOOP("EnumLabels", "Owner"),
    "CUSTOM": QT_TRANSLATE_NOOP("EnumLabels", "Custom"),
}
_MFA_METHOD = {
    "EMAIL": QT_TRANSLATE_NOOP("EnumLabels", "E-mail code"),
    "OTP": QT_TRANSLATE_NOOP("EnumLabels", "Authenticator app"),
}
_CHANNEL_TYPE = {
    "EMAIL": QT_TRANSLATE_NOOP("EnumLabels", "E-mail"),
    "SMS": QT_TRANSLATE_NOOP("EnumLabels", "SMS"),
    "WEBHOOK": QT_TRANSLATE_NOOP("EnumLabels", "Webhook"),
    "IN_APP": QT_TRANSLATE_NOOP("EnumLabels", "In the app"),
}
#: What an account status action leads to, said as its result ("Suspended").
_ACCOUNT_ACTION = {
    "ACTIVATE": QT_TRANSLATE_NOOP("EnumLabels", "Activated"),
    "SUSPEND": QT_TRANSLATE_NOOP("EnumLabels", "Suspended"),
    "DEACTIVATE": QT_TRANSLATE_NOOP("EnumLabels", "Deactivated"),
}
for _listing, _labels in (
    (enums.CHANNEL_STATUS, _CHANNEL_STATUS),
    (enums.CHANNEL_TYPE_STATUS, _CHANNEL_TYPE_STATUS),
    (enums.ROLE_TYPE, _ROLE_TYPE),
    (enums.MFA_METHOD, _MFA_METHOD),
    (enums.CHANNEL_TYPE, _CHANNEL_TYPE),
):
    _OWN[_listing.type_name] = _labels
    if _listing.path:
        _OWN[_listing.path] = _labels
_OWN["AccountAction"] = _ACCOUNT_ACTION

#: Field names a person reads: the snapshot's columns, and the request bodies' names the
#: journal keeps (``accountRemark``), by name.
_FIELDS = {
    "email": QT_TRANSLATE_NOOP("EnumLabels", "E-mail"),
    "name": QT_TRANSLATE_NOOP("EnumLabels", "Name"),
    "status": QT_TRANSLATE_NOOP("EnumLabels", "Status"),
    "portal": QT_TRANSLATE_NOOP("EnumLabels", "Portal"),
    "institution": QT_TRANSLATE_NOOP("EnumLabels", "Institution"),
    "language": QT_TRANSLATE_NOOP("EnumLabels", "Language"),
    "timezone": QT_TRANSLATE_NOOP("EnumLabels", "Time zone"),
    "country": QT_TRANSLATE_NOOP("EnumLabels", "Country"),
    "remark": QT_TRANSLATE_NOOP("EnumLabels", "Remark"),
    "phone": QT_TRANSLATE_NOOP("EnumLabels", "Phone"),
    "type": QT_TRANSLATE_NOOP("EnumLabels", "Type"),
    "description": QT_TRANSLATE_NOOP("EnumLabels", "Description"),
    "permissions": QT_TRANSLATE_NOOP("EnumLabels", "Permissions"),
    "member_count": QT_TRANSLATE_NOOP("EnumLabels", "Members"),
    "expires": QT_TRANSLATE_NOOP("EnumLabels", "Expires"),
    "code": QT_TRANSLATE_NOOP("EnumLabels", "Code"),
    "enabled": QT_TRANSLATE_NOOP("EnumLabels", "Enabled"),
    "category": QT_TRANSLATE_NOOP("EnumLabels", "Category"),
    "active": QT_TRANSLATE_NOOP("EnumLabels", "Active"),
    "is_default": QT_TRANSLATE_NOOP("EnumLabels", "Default"),
    "is_primary": QT_TRANSLATE_NOOP("EnumLabels", "Primary"),
    "verified": QT_TRANSLATE_NOOP("EnumLabels", "Verified"),
    "whitelist_enabled": QT_TRANSLATE_NOOP("EnumLabels", "IP whitelist enforced"),
    "backup_codes": QT_TRANSLATE_NOOP("EnumLabels", "Backup codes"),
    "session_config": QT_TRANSLATE_NOOP("EnumLabels", "Session settings"),
    "action": QT_TRANSLATE_NOOP("EnumLabels", "Action"),
    "reason": QT_TRANSLATE_NOOP("EnumLabels", "Reason"),
    "message": QT_TRANSLATE_NOOP("EnumLabels", "Message"),
    "expiration_days": QT_TRANSLATE_NOOP("EnumLabels", "Valid for (days)"),
    "workspace_id": QT_TRANSLATE_NOOP("EnumLabels", "Workspace"),
    "portal_type": QT_TRANSLATE_NOOP("EnumLabels", "Portal type"),
    "domain": QT_TRANSLATE_NOOP("EnumLabels", "Domain"),
    "ips": QT_TRANSLATE_NOOP("EnumLabels", "IP addresses"),
    "type_code": QT_TRANSLATE_NOOP("EnumLabels", "Type code"),
    "type_name": QT_TRANSLATE_NOOP("EnumLabels", "Type name"),
    "type_description": QT_TRANSLATE_NOOP("EnumLabels", "Type description"),
    "type_value": QT_TRANSLATE_NOOP("EnumLabels", "Type value"),
    "type_status": QT_TRANSLATE_NOOP("EnumLabels", "Type status"),
    "display_order": QT_TRANSLATE_NOOP("EnumLabels", "Display order"),
    "icon_url": QT_TRANSLATE_NOOP("EnumLabels", "Icon address"),
    "channel_name": QT_TRANSLATE_NOOP("EnumLabels", "Channel name"),
    "channel_category": QT_TRANSLATE_NOOP("EnumLabels", "Channel category"),
    "channel_status": QT_TRANSLATE_NOOP("EnumLabels", "Channel status"),
}
#: Prefixes a request body puts before a field's own name (``accountRemark``: the remark).
_PREFIXES = ("account_", "default_", "invitee_")
#: Which enumeration a field's values belong to, by field (the kind of row decides "status").
_FIELD_KINDS: dict[str, str] = {
    "portal": enums.PORTAL_TYPE.type_name,
    "portal_type": enums.PORTAL_TYPE.type_name,
    "channel_status": enums.CHANNEL_STATUS.type_name,
    "type_status": enums.CHANNEL_TYPE_STATUS.type_name,
    "channel_category": enums.CHANNEL_TYPE.type_name,
    "category": enums.CHANNEL_TYPE.type_name,
    "method": enums.MFA_METHOD.type_name,
    "action": "AccountAction",
}
#: Which enumeration a ``status`` or ``type`` belongs to, by the kind of row (the diff's kinds).
_STATUS_KINDS: dict[str, str] = {
    "account": enums.ACCOUNT_STATUS.type_name,
    "invitation": enums.INVITATION_STATUS.type_name,
    "channel": enums.CHANNEL_STATUS.type_name,
    "channel type": enums.CHANNEL_TYPE_STATUS.type_name,
    "role": enums.ROLE_TYPE.type_name,
}
#: Fields whose values are yes or no.
_YES_NO = frozenset(
    {"enabled", "active", "is_default", "is_primary", "whitelist_enabled", "is_enabled"}
)


def snake(name: str) -> str:
    """A field's name in snake case: ``accountRemark`` -> ``account_remark``."""
    out = [f"_{c.lower()}" if c.isupper() else c for c in name.strip()]
    return "".join(out).lstrip("_")


def _field_key(name: str) -> str:
    key = snake(name)
    if key in _FIELDS:
        return key
    for prefix in _PREFIXES:
        if key.startswith(prefix) and key.removeprefix(prefix) in _FIELDS:
            return key.removeprefix(prefix)
    return key


def field_label(name: str) -> str:
    """A field's name as a person reads it, translated (``accountRemark``, ``remark`` ->
    "Remark"); a field the program does not know, in words."""
    key = _field_key(name)
    text = _FIELDS.get(key)
    return QCoreApplication.translate(CTX, text) if text else code_in_words(key)


def field_kind(name: str, row_kind: str | None = None) -> str | None:
    """The enumeration a field's values belong to (a type name), None for free text;
    ``row_kind`` (account, invitation, channel, ...) decides what a ``status`` is."""
    key = _field_key(name)
    if key in ("status", "type") and row_kind:
        found = _STATUS_KINDS.get(row_kind)
        if key == "type" and found != enums.ROLE_TYPE.type_name:
            return None
        return found
    if key == "status":
        return enums.ACCOUNT_STATUS.type_name if row_kind is None else None
    return _FIELD_KINDS.get(key)


def yes_no(value: object) -> str:
    """A yes-or-no value as a word (``1``, ``true``, ``True`` -> "Yes")."""
    text = str(value).strip().casefold()
    if text in ("1", "true", "yes"):
        return QCoreApplication.translate("EnumLabels", "Yes")
    if text in ("0", "false", "no"):
        return QCoreApplication.translate("EnumLabels", "No")
    return str(value)


def value_label(
    field: str,
    code: object,
    served: str | None = None,
    *,
    row_kind: str | None = None,
) -> str:
    """A field's value as a person reads it: for an enumeration the server's label
    (``served``, when usable), else the program's own, else the code in words; yes or no for
    a flag; free text as it is. Empty for None or an empty value."""
    if code is None or code == "":
        return ""
    key = _field_key(field)
    if key in _YES_NO or isinstance(code, bool):
        return yes_no(code)
    if isinstance(code, list | tuple):
        return ", ".join(value_label(field, c, row_kind=row_kind) for c in code)
    text = str(code)
    kind = field_kind(field, row_kind)
    if kind is None:
        return text
    return label_to_show(served, text, own_label(kind, text))
