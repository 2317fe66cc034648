"""The program's own labels for enum codes, shown when a server's label is unusable.

A server may send a label as an untranslated key (``enum.UserAccountStatus.ACTIVE``); the rule
of ``protocol.labels`` then shows the program's own label for the code, in the interface's
language, or else the code in words. The server's own label, when usable, always wins.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from portal_admin.protocol import enums
from portal_admin.protocol.labels import item_label
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
