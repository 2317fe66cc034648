"""Response records, one pydantic model each: what the sandbox sends and the client reads.

Attributes are snake_case with the spec's camelCase names as aliases. The client parses
tolerantly: unknown fields are kept (``record.model_extra``), missing ones take their
defaults, and enum fields accept an enum item object, a bare numeric value or a bare code
(recognised by ``code``: the numeric value differs between listings). The sandbox builds
its answers with :meth:`Record.wire`, which needs every field, so the JSON Schema of a
record in serialization mode (every field required, as ``json_schema_serialization_defaults_
required`` says) is exactly what the sandbox sends; the OpenAPI document is generated from it.
Where the wire form differs from the parsed one (an enum sent as its bare value), the field
says so with :func:`sent_as`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, SecretStr, WithJsonSchema
from pydantic import ValidationError as PydanticValidationError
from pydantic.alias_generators import to_camel

from portal_admin.protocol import enums
from portal_admin.protocol.enums import EnumListing, codes_of, values_of
from portal_admin.protocol.labels import is_untranslated_key
from portal_admin.protocol.wire import sent


class Record(BaseModel):
    """Base of every record: camelCase aliases, unknown fields kept, tolerant of gaps."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        frozen=True,
        json_schema_serialization_defaults_required=True,
    )

    @classmethod
    def wire(cls, **values: Any) -> dict[str, Any]:
        """The JSON object of ``values`` (every field) as a server sends it (:func:`sent`)."""
        return sent(cls, values)


class EnumItem(Record):
    """An enum item (section 2.2): code, 8-digit value, localized label and description."""

    code: str
    value: int | None = None
    label: str | None = None
    description: str | None = None

    def is_(self, code: str) -> bool:
        """True when this item is ``code`` (whatever its numeric value)."""
        return self.code == code

    def __str__(self) -> str:
        """The label, unless it is missing or an untranslated key (``protocol.labels``): then
        the code."""
        return self.code if not self.label or is_untranslated_key(self.label) else self.label


def _timestamp(raw: Any) -> Any:
    """An ISO 8601 text parsed by the standard library, whose UTC zone is one shared object
    (the default parser gives each timestamp its own zone object, two per loaded account, each
    tracked by the garbage collector); anything else is left to the default validation."""
    if isinstance(raw, str):
        try:
            return datetime.fromisoformat(raw)
        except ValueError:
            return raw
    return raw


#: A timestamp of a record (ISO 8601 on the wire).
Timestamp = Annotated[datetime, BeforeValidator(_timestamp)]


#: Enum items already built, by their fields: a page of 100 accounts carries the same few
#: status and portal items over and over, and records are frozen, so one shared instance per
#: distinct item saves validating it again and keeps thousands of loaded rows light for
#: memory and for the garbage collector (docs/performance.md).
_SHARED_ITEMS: dict[tuple[Any, ...], EnumItem] = {}
_SHARED_ITEMS_MAX = 4096
_ITEM_FIELDS = frozenset({"code", "value", "label", "description"})


def shared_item(raw: dict[str, Any]) -> Any:
    """The shared :class:`EnumItem` for ``raw``; ``raw`` itself when it holds other fields
    or is not a valid item (its own validation then keeps or reports them)."""
    if not raw.keys() <= _ITEM_FIELDS:
        return raw
    key = (raw.get("code"), raw.get("value"), raw.get("label"), raw.get("description"))
    try:
        item = _SHARED_ITEMS.get(key)
    except TypeError:  # a value that cannot be a key is not a valid item either
        return raw
    if item is not None:
        return item
    try:
        item = EnumItem.model_validate(raw)
    except PydanticValidationError:
        return raw
    if len(_SHARED_ITEMS) >= _SHARED_ITEMS_MAX:
        _SHARED_ITEMS.clear()
    _SHARED_ITEMS[key] = item
    return item


def _enum_item(listing: EnumListing | None) -> Callable[[Any], Any]:
    def convert(raw: Any) -> Any:
        if isinstance(raw, EnumItem) or raw is None:
            return raw
        if isinstance(raw, dict):
            return shared_item(raw)
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, int):
            code = listing.code_of(raw) if listing else None
            return shared_item({"code": code or str(raw), "value": raw})
        if isinstance(raw, str):
            if raw.strip().isascii() and raw.strip().isdigit():
                return convert(int(raw))
            known = listing.by_code(raw) if listing else None
            return shared_item({"code": raw, "value": known.value if known else None})
        return raw

    return convert


def sent_as(schema: dict[str, Any]) -> WithJsonSchema:
    """The wire form of a field whose parsed form differs (documentation only)."""
    return WithJsonSchema(schema, mode="serialization")


AccountStatus = Annotated[EnumItem, BeforeValidator(_enum_item(enums.ACCOUNT_STATUS))]
PortalType = Annotated[EnumItem, BeforeValidator(_enum_item(enums.PORTAL_TYPE))]
InvitationStatus = Annotated[EnumItem, BeforeValidator(_enum_item(enums.INVITATION_STATUS))]
RoleType = Annotated[EnumItem, BeforeValidator(_enum_item(enums.ROLE_TYPE))]
ChannelTypeStatus = Annotated[EnumItem, BeforeValidator(_enum_item(enums.CHANNEL_TYPE_STATUS))]
ChannelStatus = Annotated[EnumItem, BeforeValidator(_enum_item(enums.CHANNEL_STATUS))]
MfaMethod = Annotated[EnumItem, BeforeValidator(_enum_item(enums.MFA_METHOD))]
PortalStatus = Annotated[EnumItem, BeforeValidator(_enum_item(enums.PORTAL_STATUS))]
ChannelCategory = Annotated[EnumItem, BeforeValidator(_enum_item(enums.CHANNEL_TYPE))]
LoginResult = Annotated[EnumItem, BeforeValidator(_enum_item(enums.LOGIN_RESULT))]


class ConstantItem(EnumItem):
    """An item of a constants list, with the extra fields of countries, timezones, us-states."""

    alpha2_code: str | None = None
    alpha3_code: str | None = None
    numeric_code: int | None = None
    phone_code: str | None = None
    zone_id_code: str | None = None
    utc_offset: str | None = None
    iso_code: str | None = None


class CountryItem(EnumItem):
    """An item of ``constants.countries`` (the form the sandbox sends)."""

    alpha2_code: str = Field(pattern="^[A-Z]{2}$")
    alpha3_code: str = Field(pattern="^[A-Z]{3}$")
    numeric_code: int = Field(ge=0, le=999)
    phone_code: str = Field(pattern=r"^(\+[0-9][0-9 -]*)?$")


class TimezoneItem(EnumItem):
    """An item of ``constants.timezones``."""

    zone_id_code: str = Field(min_length=1)
    utc_offset: str = Field(pattern=r"^UTC[+-][0-9]{1,2}(:[0-9]{2})?$")


class UsStateItem(EnumItem):
    """An item of ``constants.us_states``."""

    iso_code: str = Field(pattern="^US-[A-Z]{2}$")


class Account(Record):
    """An account as the admin list shows it."""

    biz_id: str
    institution_biz_id: str | None = None
    account_email: str | None = None
    account_phone: str | None = None
    account_name: str | None = None
    account_remark: str | None = None
    account_portal: PortalType | None = None
    account_status: AccountStatus | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    default_language: str | None = None
    default_timezone: str | None = None
    default_country: str | None = None


class AccountStatusChange(Record):
    """The answer of an account-status change (the new status as its code)."""

    user_biz_id: str
    email: str | None = None
    display_name: str | None = None
    status: Annotated[str | None, sent_as(codes_of(enums.ACCOUNT_STATUS))] = None


class PasswordResetSent(Record):
    """The answer of ``accounts.password_reset``: the mail went to the account's address."""

    user_biz_id: str | None = None
    email: str | None = None
    sent: bool = True


class ProfileRole(Record):
    """A role the signed-in account holds (``roleType`` as its code)."""

    biz_id: str
    role_name: str | None = None
    role_type: Annotated[str | None, sent_as(codes_of(enums.ROLE_TYPE))] = None
    workspace_biz_id: str | None = None


class ProfileWorkspace(Record):
    """A workspace the signed-in account is an active member of."""

    biz_id: str
    name: str | None = None
    is_primary: bool = False
    permission_codes: list[str] = Field(default_factory=list)


class Profile(Record):
    """The signed-in account's own profile. Beyond the spec's four fields, the sandbox's
    extras; None where a server does not send them (``permission_codes`` None means not
    known, not "none")."""

    biz_id: str
    account_email: str | None = None
    account_name: str | None = None
    account_portal: PortalType | None = None
    account_status: AccountStatus | None = None
    account_phone: str | None = None
    institution_biz_id: str | None = None
    default_language: str | None = None
    default_timezone: str | None = None
    default_country: str | None = None
    pending_approval: bool | None = None
    mfa_methods: list[MfaMethod] | None = None
    workspace_biz_id: str | None = None
    permission_codes: list[str] | None = None
    roles: list[ProfileRole] | None = None
    workspaces: list[ProfileWorkspace] | None = None


class MfaSetting(Record):
    """One MFA method's setting."""

    mfa_method: MfaMethod
    is_enabled: bool = False
    is_primary: bool = False
    verified_at: Timestamp | None = None


class BackupCodeSummary(Record):
    """How many backup codes remain."""

    remaining_count: int = Field(default=0, ge=0)
    total_generated: int = Field(default=0, ge=0)


#: A backup code as the sandbox makes them (two groups of four unambiguous characters).
BackupCode = Annotated[
    str, sent_as({"type": "string", "pattern": "^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$"})
]


class BackupCodes(BackupCodeSummary):
    """A freshly generated set of backup codes: show them once (kept out of repr)."""

    codes: list[BackupCode] = Field(default_factory=list, repr=False)
    generated_at: Timestamp | None = None


class SessionInfo(Record):
    """An active sign-in session."""

    session_id: str
    client_ip: str | None = None
    user_agent: str | None = None
    login_time: Timestamp | None = None
    last_activity_time: Timestamp | None = None
    is_current: bool = False


class SessionConfig(Record):
    """The account's session settings."""

    account_biz_id: str | None = None
    sso_enabled: bool = False
    max_sessions: int | None = Field(default=None, ge=1)
    password_changed_at: Timestamp | None = None
    last_login_at: Timestamp | None = None
    last_login_ip: str | None = None


class LoginHistoryItem(Record):
    """One sign-in attempt (the result sent as its bare value)."""

    biz_id: str | None = None
    login_time: Timestamp | None = None
    client_ip: str | None = None
    user_agent: str | None = None
    login_result: Annotated[LoginResult | None, sent_as(values_of(enums.LOGIN_RESULT))] = None
    failure_reason: str | None = None


def _ip_entry(raw: Any) -> Any:
    """A whitelist entry: ``{ip, createdAt}``; a bare string, or another key naming the
    address (``address``, ``cidr``, ``value``), is read as the address."""
    if isinstance(raw, str):
        return {"ip": raw}
    if isinstance(raw, dict) and not isinstance(raw.get("ip"), str):
        for key in ("address", "cidr", "value"):
            if isinstance(raw.get(key), str):
                return {**raw, "ip": raw[key]}
    return raw


class IpEntry(Record):
    """One address or CIDR range of the whitelist."""

    ip: str
    created_at: Timestamp | None = None


class IpWhitelist(Record):
    """The IP whitelist."""

    enabled: bool = False
    entries: list[Annotated[IpEntry, BeforeValidator(_ip_entry)]] = Field(default_factory=list)


class Invitation(Record):
    """A workspace invitation."""

    biz_id: str
    workspace_biz_id: str | None = None
    workspace_name: str | None = None
    inviter_biz_id: str | None = None
    inviter_name: str | None = None
    invitee_email: str | None = None
    invitee_account_biz_id: str | None = None
    invitee_account_name: str | None = None
    invitation_status: InvitationStatus | None = None
    message: str | None = None
    expires_at: Timestamp | None = None
    accepted_at: Timestamp | None = None
    cancelled_at: Timestamp | None = None
    cancel_reason: str | None = None
    created_at: Timestamp | None = None
    can_accept: bool | None = None


class Role(Record):
    """A workspace role (``member_count``: the sandbox's, how many members hold it)."""

    biz_id: str
    workspace_biz_id: str | None = None
    role_name: str | None = None
    role_type: RoleType | None = None
    description: str | None = None
    permission_codes: list[str] = Field(default_factory=list)
    member_count: int | None = Field(default=None, ge=0)
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None


class ChannelType(Record):
    """A notification channel type."""

    biz_id: str
    type_code: str | None = None
    type_value: int | None = None
    type_name: str | None = None
    type_description: str | None = None
    type_status: ChannelTypeStatus | None = None
    display_order: int | None = None
    icon_url: str | None = None
    extra_config: dict[str, Any] | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    enabled: bool | None = None


class Channel(Record):
    """A notification channel (fields not stated by the specification; the sandbox's kept)."""

    biz_id: str
    institution_biz_id: str | None = None
    channel_name: str | None = None
    channel_category: ChannelCategory | None = None
    channel_status: ChannelStatus | None = None
    active: bool | None = None
    is_default: bool | None = None
    description: str | None = None
    #: Settings; secrets arrive masked (``********``) and may be sent back masked to keep them.
    config: dict[str, Any] | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None


class MailServerCheck(Record):
    """The answer of an IMAP or SMTP settings check."""

    valid: bool = False
    protocol: str | None = None
    host: str | None = None
    port: int | None = None
    security: str | None = None
    message: str | None = None
    checked_at: Timestamp | None = None


class Portal(Record):
    """An institution portal (type and status sent as their bare values)."""

    id: int | str | None = None
    institution_biz_id: str | None = None
    portal_type: Annotated[PortalType | None, sent_as(values_of(enums.PORTAL_TYPE))] = None
    domain: str | None = None
    portal_status: Annotated[PortalStatus | None, sent_as(values_of(enums.PORTAL_STATUS))] = None
    remark: str | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None


class PasswordInitResult(Record):
    """The answer of first-time password setup (the status as its bare value)."""

    biz_id: str | None = None
    email: str | None = None
    status: Annotated[AccountStatus | None, sent_as(values_of(enums.ACCOUNT_STATUS))] = None


class SuccessMessage(Record):
    """``{success, message}`` answers (password operations)."""

    success: bool = True
    message: str | None = None


class LogoutResult(Record):
    """The answer of logout."""

    success: bool = True
    terminated_sessions: int = Field(default=0, ge=0)


class Result(Record):
    """An answer whose shape the specification does not state: every field is kept."""


class PublicKeyInfo(Record):
    """The Secure Channel's active public key."""

    key_id: str
    public_key: str
    algorithm: str


class ChannelSession(Record):
    """A Secure Channel session (the sealed answer of ``secure_channel.session_create``)."""

    session_id: str = Field(min_length=1)
    expires_in: int = Field(ge=1)


class LoginSession(Record):
    """The answer of ``auth.login_initiate``: the login session and the methods to pick."""

    session_id: str = Field(min_length=1)
    mfa_methods: list[Any] = Field(default_factory=list)
    expires_in: int = 300
    account_status: AccountStatus | None = None
    pending_approval: bool = False


class MfaCodeSent(Record):
    """The answer of ``auth.mfa_send``."""

    sent: bool = True
    cooldown_seconds: int = Field(default=60, ge=0)
    code_expires_in: int = Field(default=300, ge=1)


#: A token as sent: plain text (read into a ``SecretStr``).
_TOKEN: dict[str, Any] = {"type": "string", "minLength": 1}


class RefreshedTokens(Record):
    """The answer of ``auth.token_refresh``: a new pair; secrets are hidden from repr and
    logs."""

    access_token: Annotated[SecretStr, sent_as(_TOKEN)]
    refresh_token: Annotated[SecretStr, sent_as(_TOKEN)]
    expires_in: int = Field(default=3600, ge=1)


class TokenPair(RefreshedTokens):
    """The tokens of a sign-in (``auth.login_complete``), with the account's state; the
    client reads a refresh's answer with it too."""

    account_status: AccountStatus | None = None
    pending_approval: bool = False


__all__ = [
    "Account",
    "AccountStatus",
    "AccountStatusChange",
    "BackupCode",
    "BackupCodeSummary",
    "BackupCodes",
    "Channel",
    "ChannelCategory",
    "ChannelSession",
    "ChannelStatus",
    "ChannelType",
    "ChannelTypeStatus",
    "ConstantItem",
    "CountryItem",
    "EnumItem",
    "Invitation",
    "InvitationStatus",
    "IpEntry",
    "IpWhitelist",
    "LoginHistoryItem",
    "LoginResult",
    "LoginSession",
    "LogoutResult",
    "MailServerCheck",
    "MfaCodeSent",
    "MfaMethod",
    "MfaSetting",
    "PasswordInitResult",
    "PasswordResetSent",
    "Portal",
    "PortalStatus",
    "PortalType",
    "Profile",
    "ProfileRole",
    "ProfileWorkspace",
    "PublicKeyInfo",
    "Record",
    "RefreshedTokens",
    "Result",
    "Role",
    "RoleType",
    "SessionConfig",
    "SessionInfo",
    "SuccessMessage",
    "Timestamp",
    "TimezoneItem",
    "TokenPair",
    "UsStateItem",
    "codes_of",
    "sent_as",
    "shared_item",
    "values_of",
]
