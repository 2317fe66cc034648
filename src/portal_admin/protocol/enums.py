"""Every enumeration of sections 2 and 3, with codes and numeric values.

Where the specification gives two conflicting listings, both are kept: ``items`` is the listing
the sandbox serves from its constants endpoint, ``alternate`` the other one. Items are
recognised by ``code``; :meth:`EnumListing.by_value` accepts a value from either listing.
Values marked ``stated=False`` are the project's choice where the specification is silent
(recorded in ``docs/protocol.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class EnumValue:
    """One member of an enumeration."""

    code: str
    value: int
    stated: bool = True


@dataclass(frozen=True, slots=True)
class EnumListing:
    """An enumeration: its constants path (if public), type name and members."""

    path: str | None
    type_name: str
    items: tuple[EnumValue, ...]
    alternate: tuple[EnumValue, ...] = ()

    def by_code(self, code: str) -> EnumValue | None:
        """The member with ``code`` in the served listing, else in the alternate one."""
        for item in (*self.items, *self.alternate):
            if item.code == code:
                return item
        return None

    def by_value(self, value: int) -> EnumValue | None:
        """The member whose value is ``value`` in either listing."""
        for item in (*self.items, *self.alternate):
            if item.value == value:
                return item
        return None

    def code_of(self, value: int) -> str | None:
        """The code for ``value`` in either listing."""
        item = self.by_value(value)
        return item.code if item else None

    def value_of(self, code: str) -> int:
        """The served listing's value for ``code`` (KeyError when unknown)."""
        item = self.by_code(code)
        if item is None:
            raise KeyError(code)
        for served in self.items:
            if served.code == code:
                return served.value
        return item.value

    @property
    def codes(self) -> tuple[str, ...]:
        """Codes of the served listing, in order."""
        return tuple(item.code for item in self.items)


def _items(*pairs: tuple[str, int] | tuple[str, int, bool]) -> tuple[EnumValue, ...]:
    return tuple(EnumValue(*pair) for pair in pairs)


N = False  # marks a value the specification does not state

# -- Section 3 status enumerations ------------------------------------------------------------

ACCOUNT_STATUS = EnumListing(
    "user-account-statuses",
    "UserAccountStatus",
    _items(
        ("ACTIVE", 35010101),
        ("SUSPENDED", 35010102),
        ("PENDING_INIT", 35010103),
        ("REJECTED", 35010104),
        ("DEACTIVATED", 35010105, N),
    ),
    alternate=_items(("REGISTERED", 10010201), ("ACTIVE", 10010202)),
)

INVITATION_STATUS = EnumListing(
    "user-invitation-statuses",
    "UserInvitationStatus",
    _items(
        ("PENDING", 10050301),
        ("ACCEPTED", 10050302),
        ("DECLINED", 10050303, N),
        ("EXPIRED", 10050304),
        ("CANCELLED", 10050305, N),
    ),
)

INSTITUTION_STATUS = EnumListing(
    "user-institution-statuses",
    "UserInstitutionStatus",
    _items(
        ("PENDING", 10010401),
        ("REVIEWING", 10010402),
        ("APPROVED", 10010403, N),
        ("REJECTED", 10010404, N),
    ),
)

INSTITUTION_TYPE = EnumListing(
    "user-institution-types",
    "UserInstitutionType",
    _items(("PLATFORM", 10010601), ("TENANT", 10010602)),
)

WORKSPACE_STATUS = EnumListing(
    "user-workspace-statuses",
    "UserWorkspaceStatus",
    _items(("ACTIVE", 35010501), ("SUSPENDED", 35010502)),
)

CURRENCY_CONFIG_STATUS = EnumListing(
    "currency-config-statuses",
    "CurrencyConfigStatus",
    _items(("ENABLED", 55010101), ("DISABLED", 55010102)),
    alternate=_items(("ACTIVE", 34010101), ("INACTIVE", 34010102)),
)

CHANNEL_STATUS = EnumListing(
    "notification-channel-statuses",
    "NotificationChannelStatus",
    _items(("ACTIVE", 80010201), ("INACTIVE", 80010202)),
)

CHANNEL_TYPE_STATUS = EnumListing(
    "notification-channel-type-statuses",
    "NotificationChannelTypeStatus",
    _items(("ENABLED", 80010301), ("DISABLED", 80010302)),
)

ORDER_STATUS = EnumListing(
    "order-statuses",
    "OrderStatus",
    _items(
        ("PROCESSING", 30010101),
        ("AUDITING", 30010102),
        ("COMPLETED", 30010103, N),
        ("CANCELLED", 30010104, N),
    ),
)

TRANSFER_STATUS = EnumListing(
    "transfer-statuses",
    "TransferStatus",
    _items(
        ("PENDING", 35010701),
        ("PROCESSING", 35010702),
        ("COMPLETED", 35010703, N),
        ("FAILED", 35010704, N),
    ),
)

#: The constants list serves SYSTEM and TENANT in the 3501 series, as section 3 states; portal
#: creation uses the 1001 series. Both are accepted wherever a portal type is read.
PORTAL_TYPE = EnumListing(
    "user-portal-types",
    "UserPortalType",
    _items(
        ("SYSTEM", 35010201),
        ("TENANT", 35010202),
        ("PARTNER", 10010103),
        ("CONSUMER", 10010104),
    ),
    alternate=_items(
        ("SYSTEM", 10010101),
        ("TENANT", 10010102),
        ("PARTNER", 10010103),
        ("CONSUMER", 10010104),
    ),
)

PORTAL_STATUS = EnumListing(
    None, "PortalStatus", _items(("ACTIVE", 10080101), ("INACTIVE", 10080102, N))
)

# -- Section 2 enumerations -------------------------------------------------------------------

MFA_METHOD = EnumListing(None, "MfaMethod", _items(("EMAIL", 10011001), ("OTP", 10011002)))

ROLE_TYPE = EnumListing(None, "RoleType", _items(("OWNER", 10010901), ("CUSTOM", 10010902)))

#: Items of this list are not shown in the specification: the project's choice.
CHANNEL_TYPE = EnumListing(
    "notification-channel-types",
    "NotificationChannelType",
    _items(
        ("EMAIL", 80010101, N),
        ("SMS", 80010102, N),
        ("WEBHOOK", 80010103, N),
        ("IN_APP", 80010104, N),
    ),
)

#: Items of this list are not shown in the specification: the project's choice.
JOIN_SOURCE = EnumListing(
    "user-join-sources",
    "UserJoinSource",
    _items(
        ("INVITATION", 35010601, N),
        ("REGISTRATION", 35010602, N),
        ("ADMIN_CREATED", 35010603, N),
    ),
)

#: Login-history results: 1 is stated for success; the others are the project's choice.
LOGIN_RESULT = EnumListing(
    None, "LoginResult", _items(("SUCCESS", 1), ("FAILURE", 2, N), ("BLOCKED", 3, N))
)

#: Lists whose items come from reference data rather than a fixed enumeration.
DATA_LISTS: tuple[str, ...] = ("countries", "timezones", "us-states")

ALL_LISTINGS: tuple[EnumListing, ...] = (
    ACCOUNT_STATUS,
    INVITATION_STATUS,
    INSTITUTION_STATUS,
    INSTITUTION_TYPE,
    WORKSPACE_STATUS,
    CURRENCY_CONFIG_STATUS,
    CHANNEL_STATUS,
    CHANNEL_TYPE_STATUS,
    ORDER_STATUS,
    TRANSFER_STATUS,
    PORTAL_TYPE,
    PORTAL_STATUS,
    MFA_METHOD,
    ROLE_TYPE,
    CHANNEL_TYPE,
    JOIN_SOURCE,
    LOGIN_RESULT,
)

#: The public constants lists of section 4.5 that are enumerations, by path.
CONSTANT_LISTINGS: dict[str, EnumListing] = {
    listing.path: listing for listing in ALL_LISTINGS if listing.path is not None
}

#: Every constants path of section 4.5 (16 lists).
CONSTANT_PATHS: tuple[str, ...] = tuple(sorted((*CONSTANT_LISTINGS, *DATA_LISTS)))

# -- Transitions (section 3 gives none; the project's rules) ----------------------------------

ACCOUNT_ACTIONS: tuple[str, ...] = ("ACTIVATE", "SUSPEND", "DEACTIVATE")

#: Which status-change actions each account status allows, and where each leads.
ACCOUNT_TRANSITIONS: dict[str, dict[str, str]] = {
    "ACTIVE": {"SUSPEND": "SUSPENDED", "DEACTIVATE": "DEACTIVATED"},
    "SUSPENDED": {"ACTIVATE": "ACTIVE", "DEACTIVATE": "DEACTIVATED"},
    "DEACTIVATED": {"ACTIVATE": "ACTIVE"},
    "PENDING_INIT": {"DEACTIVATE": "DEACTIVATED"},
    "REJECTED": {"ACTIVATE": "ACTIVE"},
    "REGISTERED": {"ACTIVATE": "ACTIVE", "DEACTIVATE": "DEACTIVATED"},
}

#: Invitation statuses in which an invitation can no longer be accepted.
INVITATION_FINAL: frozenset[str] = frozenset({"ACCEPTED", "DECLINED", "EXPIRED", "CANCELLED"})


# -- JSON Schema of an enum on the wire (the OpenAPI document) --------------------------------


def values_of(listing: EnumListing) -> dict[str, Any]:
    """The JSON Schema of an enum as its bare numeric value (either listing)."""
    values = sorted({item.value for item in (*listing.items, *listing.alternate)})
    return {"type": "integer", "enum": values}


def codes_of(listing: EnumListing) -> dict[str, Any]:
    """The JSON Schema of an enum as its bare code."""
    codes = list(dict.fromkeys(item.code for item in (*listing.items, *listing.alternate)))
    return {"type": "string", "enum": codes}
