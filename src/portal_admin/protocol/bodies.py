"""Request bodies, one pydantic model each: what the client sends and the sandbox accepts.

Attributes are snake_case; the wire names of ``../shared/spec/system-portal-api.md`` are
their aliases (``model_dump(by_alias=True)`` on the client, ``model_validate`` of the decoded
JSON in the sandbox). The limits are the spec's where it states them and the sandbox's
recorded choices where it is silent (docs/sandbox.md). Values take their exact JSON types
(``strict``): a number sent as a string is refused, as the spec's examples never do it.

``Lenient`` bodies ignore unknown fields (the spec shows extra fields in some examples);
``Strict`` ones refuse them (sealed bodies and updates, where a misspelt field would silently
change nothing).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    WithJsonSchema,
)
from pydantic.alias_generators import to_camel
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from .enums import (
    ACCOUNT_STATUS,
    CHANNEL_STATUS,
    CHANNEL_TYPE_STATUS,
    PORTAL_TYPE,
    EnumListing,
    values_of,
)
from .wire import json_schema_of

ID = 64
EMAIL = 320
SECRET = 1024
#: Invitations: the address, the message and a cancellation's reason (sandbox choices), and the
#: expiry in days (1 to 30, 7 when not given).
INVITEE_EMAIL = 254
INVITATION_MESSAGE = 500
CANCEL_REASON = 500
EXPIRATION_DAYS = (1, 30)
DEFAULT_EXPIRATION_DAYS = 7

#: An integer as text: ASCII digits only (``str.isdigit`` also takes "²" and "١").
_INTEGER = re.compile(r"-?[0-9]{1,14}")


#: A pragmatic address check: one @, a dotted domain, no spaces.
_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")


def is_email(text: str) -> bool:
    """True for a plausible email address (at most 254 characters)."""
    if len(text) > INVITEE_EMAIL or not _EMAIL.match(text):
        return False
    domain = text.rsplit("@", 1)[1]
    return all(0 < len(label) <= 63 and not label.startswith("-") for label in domain.split("."))


def _email(value: str) -> str:
    if not is_email(value):
        raise ValueError("not an email address")
    return value


def has_controls(text: str) -> bool:
    """True when ``text`` holds a control character other than tab and line breaks."""
    return any(ord(ch) < 32 and ch not in "\t\n\r" for ch in text)


def _no_controls(value: str) -> str:
    if has_controls(value):
        raise ValueError("control characters are not allowed")
    return value


def _text(value: Any) -> Any:
    """Text as typed: surrounding blanks removed; control characters (but tab and line
    breaks) refused."""
    return _no_controls(value.strip()) if isinstance(value, str) else value


def _lenient_int(value: Any) -> Any:
    """A JSON integer, a whole float or a short numeric string as an int; "" as null."""
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        if _INTEGER.fullmatch(text):
            return int(text)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    return value


#: JSON Schema of text without control characters other than tab and line breaks
#: (:func:`has_controls`), in a word of its own so that a field's pattern can stand beside it.
NO_CONTROLS: dict[str, Any] = {"not": {"pattern": "[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]"}}


class Described:
    """JSON Schema words added to a field's own schema (its constraints kept), for a check
    its validator makes in code."""

    def __init__(self, **words: Any) -> None:
        self.words = words

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        own = handler(schema)
        if own.keys() & self.words.keys():  # both say it: each must hold
            return {**own, "allOf": [*own.get("allOf", []), self.words]}
        return {**own, **self.words}


class OrAlso:
    """JSON Schema of a field whose validator also takes other forms: the field's own schema
    (its constraints kept), or any of ``alternatives``. The document must never be stricter
    than the server, since a body it refuses has to be refused."""

    def __init__(self, *alternatives: dict[str, Any]) -> None:
        self.alternatives = alternatives

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"anyOf": [handler(schema), *self.alternatives]}


#: Digits as text, as :data:`LenientInt` reads them (blank reads as null).
DIGITS: dict[str, Any] = {"type": "string", "pattern": r"^\s*(-?[0-9]{1,14})?\s*$"}

#: A string field as typed by a person (stripped, no control characters).
Text = Annotated[str, BeforeValidator(_text), Described(**NO_CONTROLS)]
#: An email address as typed (stripped; the server's pragmatic check, :func:`is_email`).
Email = Annotated[Text, AfterValidator(_email), Described(format="email")]
#: An optional integer field that also takes its digits as a string ("" reads as null).
LenientInt = Annotated[int | None, BeforeValidator(_lenient_int), OrAlso(DIGITS)]
#: Text kept exactly as sent (a remark's own spacing), control characters refused.
RawText = Annotated[str, AfterValidator(_no_controls), Described(**NO_CONTROLS)]


def member_of(listing: EnumListing) -> Callable[[int], int]:
    """A check that an integer is a value of ``listing`` (either of its listings)."""

    def known(value: int) -> int:
        if listing.by_value(value) is None:
            raise ValueError(f"not a {listing.type_name} value")
        return value

    return known


#: An account's portal type and status by their values, from either listing.
PortalValue = Annotated[
    int, AfterValidator(member_of(PORTAL_TYPE)), WithJsonSchema(values_of(PORTAL_TYPE))
]
AccountStatusValue = Annotated[
    int, AfterValidator(member_of(ACCOUNT_STATUS)), WithJsonSchema(values_of(ACCOUNT_STATUS))
]


#: A portal type by its value, from either series (digits as a string too).
PortalTypeValue = Annotated[
    int,
    BeforeValidator(_lenient_int),
    AfterValidator(member_of(PORTAL_TYPE)),
    WithJsonSchema(values_of(PORTAL_TYPE)),
    OrAlso(DIGITS),
]


def example(**body: Any) -> ConfigDict:
    """A model setting giving one valid body (wire names) as the JSON Schema's example: the
    OpenAPI document shows it, and schemathesis sends it in its examples phase."""
    return ConfigDict(json_schema_extra={"examples": [body]})


class Body(BaseModel):
    """A request body: spec names as aliases, exact JSON types."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_alias=True,
        validate_by_name=False,  # the wire's names only, as the OpenAPI document says
        strict=True,
        extra="ignore",
    )

    @classmethod
    def build(cls, *, keep_none: bool = False, **values: Any) -> dict[str, Any]:
        """The JSON body of ``values`` (attribute names) under the spec's names; None values
        are left out unless ``keep_none``. Not validated here: the server judges the values
        (and answers its own error code), as it would for any other client."""
        if not keep_none:
            values = {k: v for k, v in values.items() if v is not None}
        unknown = values.keys() - cls.model_fields.keys()
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
        body = cls.model_construct(**values)
        return body.model_dump(by_alias=True, exclude_unset=True, warnings=False)


class Strict(Body):
    """A body that refuses unknown fields."""

    model_config = ConfigDict(extra="forbid")


# -- accounts --------------------------------------------------------------------------------


def sort_item(*fields: str) -> str:
    """The pattern of a sort item, ``field`` or ``field,asc|desc`` (direction in any case;
    blank: ignored), of one of ``fields``."""
    names = "|".join(fields)
    return rf"^\s*(({names})\s*(,\s*([aA][sS][cC]|[dD][eE][sS][cC])?\s*)?)?$"


#: The Account fields a query sorts by (sandbox choice; the spec does not list them).
ACCOUNT_SORTS = (
    "accountEmail",
    "accountName",
    "createdAt",
    "updatedAt",
    "bizId",
    "accountStatus",
    "accountPortal",
)
AccountSort = Annotated[str, Field(pattern=sort_item(*ACCOUNT_SORTS))]


class AccountQuery(Body):
    """``accounts.query``: filters, a zero-based page, and sort items (``field,asc|desc``)."""

    model_config = example(
        accountStatus=35010101, name="an", page=0, size=20, sort="accountName,asc"
    )

    institution_biz_id: str | None = Field(default=None, max_length=ID)
    account_portal: PortalValue | None = None
    account_status: AccountStatusValue | None = None
    email: str | None = Field(default=None, max_length=EMAIL)
    name: str | None = Field(default=None, max_length=255)
    #: Zero-based; sizes above 100 are capped (section 8).
    page: int | None = Field(default=None, ge=0, le=10_000_000)
    size: int | None = Field(default=None, ge=1)
    sort: AccountSort | list[AccountSort] | None = None


class AccountStatusChange(Body):
    """``accounts.status``: ACTIVATE, SUSPEND or DEACTIVATE, with an optional reason."""

    user_biz_id: str = Field(min_length=1, max_length=ID)
    action: str = Field(min_length=1, max_length=32)
    reason: str | None = Field(default=None, max_length=500)


class AccountRef(Body):
    """``accounts.password_reset``: the account."""

    user_biz_id: str = Field(min_length=1, max_length=ID)


class AccountUpdate(Strict):
    """``accounts.update``: the fields sent are changed (``accountRemark`` may be null)."""

    user_biz_id: str = Field(min_length=1, max_length=ID)
    account_name: str | None = Field(default=None, min_length=1, max_length=100)
    account_phone: str | None = Field(default=None, max_length=32)
    account_remark: str | None = Field(default=None, max_length=255)
    default_language: str | None = Field(default=None, min_length=2, max_length=16)
    default_timezone: str | None = Field(default=None, min_length=1, max_length=64)
    default_country: str | None = Field(default=None, min_length=2, max_length=3)


# -- sign-in ---------------------------------------------------------------------------------


class LoginInitiate(Body):
    """``auth.login_initiate``."""

    # The sandbox's published demo administrator (sandbox-contract.md).
    model_config = example(email="admin@sandbox.test", password="Sandbox-Admin-2026!")

    email: str = Field(min_length=1, max_length=EMAIL)
    password: str = Field(min_length=1, max_length=SECRET)


class MfaSend(Body):
    """``auth.mfa_send``: the login session and the method's numeric value."""

    session_id: str = Field(min_length=1, max_length=256)
    method: int


class LoginComplete(Body):
    """``auth.login_complete``."""

    session_id: str = Field(min_length=1, max_length=256)
    method: int
    code: str = Field(min_length=1, max_length=64)


class TokenRefresh(Strict):
    """``auth.token_refresh`` (sealed)."""

    refresh_token: str = Field(min_length=1, max_length=512)


# -- passwords -------------------------------------------------------------------------------


class PasswordForgot(Body):
    """``auth.password_forgot``."""

    email: str = Field(min_length=3, max_length=EMAIL)
    challenge_token: str = Field(min_length=1, max_length=4096)


class PasswordReset(Strict):
    """``auth.password_reset`` (sealed)."""

    token: str = Field(min_length=1, max_length=512)
    new_password: str = Field(min_length=1, max_length=SECRET)


class PasswordChange(Strict):
    """``auth.password_change`` (sealed)."""

    current_password: str = Field(min_length=1, max_length=SECRET)
    new_password: str = Field(min_length=1, max_length=SECRET)


class PasswordInit(Strict):
    """``auth.password_init`` (sealed)."""

    session_id: str = Field(min_length=1, max_length=512)
    password: str = Field(min_length=1, max_length=SECRET)


# -- invitations -----------------------------------------------------------------------------


class InvitationCreate(Body):
    """``invitations.create``: the address, an optional message and expiry in days."""

    model_config = example(
        inviteeEmail="new.colleague@example.com", message="Welcome to the team!", expirationDays=7
    )

    invitee_email: Email = Field(max_length=INVITEE_EMAIL)
    message: Text | None = Field(default=None, max_length=INVITATION_MESSAGE)
    expiration_days: LenientInt = Field(default=None, ge=EXPIRATION_DAYS[0], le=EXPIRATION_DAYS[1])


class InvitationCancel(Body):
    """``invitations.cancel``: a pending invitation and an optional reason."""

    invitation_biz_id: Text = Field(min_length=1, max_length=ID)
    reason: Text | None = Field(default=None, max_length=CANCEL_REASON)


# -- roles -----------------------------------------------------------------------------------


class RoleDelete(Body):
    """``roles.delete``: the role, and its workspace (the caller's when not given). The
    sandbox also takes both from the query string, as some gateways send a DELETE's, so
    each is optional here: the role must come from one or the other."""

    role_id: Text | None = Field(default=None, min_length=1, max_length=ID)
    workspace_id: Text | None = Field(default=None, max_length=ID)


# -- security --------------------------------------------------------------------------------

#: Entries an IP whitelist holds at most (a sandbox choice; the spec is silent).
WHITELIST_ENTRIES = 100


#: A whitelist entry as sent: an IPv4 or IPv6 address, or a CIDR network without host bits
#: (the server checks which; the schema says what it can).
IpText = Annotated[
    str,
    Field(max_length=64),
    Described(
        anyOf=[
            {"format": "ipv4"},
            {"format": "ipv6"},
            {"pattern": r"^\s*[0-9.]+/[0-9]{1,2}\s*$"},
            {"pattern": r"^\s*[0-9A-Fa-f:.]+/[0-9]{1,3}\s*$"},
        ],
        description="An IPv4 or IPv6 address, or a CIDR network without host bits.",
    ),
]


class IpWhitelistSet(Body):
    """``security.ip_whitelist_set``: the whole list (each entry an address or a CIDR range,
    checked by the server)."""

    model_config = example(ips=["203.0.113.0/24", "198.51.100.23", "2001:db8::/32"])

    ips: list[IpText] = Field(max_length=WHITELIST_ENTRIES)


# -- portals ---------------------------------------------------------------------------------


class PortalCreate(Body):
    """``portals.create`` (its errors are the numeric ``4000``): the type as a value of either
    portal-type series, the domain, an optional remark and institution (the caller's)."""

    model_config = example(
        portalType=10010102, domain="tenant-demo.sandbox.test", remark="Demo portal"
    )

    portal_type: PortalTypeValue
    domain: Text = Field(min_length=1, max_length=255, pattern=r"^\s*\S+\s*$")
    remark: RawText | None = Field(default=None, max_length=255)
    institution_biz_id: Text | None = Field(default=None, max_length=ID)


# -- notifications ---------------------------------------------------------------------------

#: Channel-type and channel names, descriptions, settings (sandbox choices).
NAME = 100
DESCRIPTION = 500
CONFIG = 8_000
#: Channel-type values have eight digits; display orders go to 9999.
TYPE_VALUES = (10_000_000, 99_999_999)
DISPLAY_ORDERS = (0, 9_999)
#: A page number of the shape-A queries (1-based; 0 reads as 1), at most this.
MAX_PAGE = 10_000_001
SECURITY_MODES = ("TLS", "STARTTLS", "NONE")

_TYPE_CODE = r"^\s*[A-Za-z][A-Za-z0-9_]{1,31}\s*$"
_URL = r"^\s*[hH][tT][tT][pP][sS]?://[^\s/$.?#][^\s]*\s*$"


def caseless(word: str) -> str:
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in word)


def words(*choices: str) -> dict[str, Any]:
    """JSON Schema of text that is one of ``choices`` in any case, blanks around allowed (or
    blank: read as absent)."""
    alternatives = "|".join(caseless(word) for word in choices)
    return {"type": "string", "pattern": rf"^\s*({alternatives})?\s*$"}


def _lenient_bool(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return value


#: A flag that also takes "true" or "false" as text (any case).
LenientBool = Annotated[bool | None, BeforeValidator(_lenient_bool), OrAlso(words("true", "false"))]


def value_or_code(listing: EnumListing) -> Any:
    """An optional enum given by its value (either listing; digits as text too) or its code
    (any case); read as its code. Blank reads as absent."""

    def to_code(value: Any) -> Any:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        number = _lenient_int(value)
        if isinstance(number, int) and not isinstance(number, bool):
            found = listing.by_value(number)
        elif isinstance(value, str):
            found = listing.by_code(value.strip().upper())
        else:
            return value  # refused by the type below
        if found is None:
            raise ValueError(f"not a {listing.type_name}")
        return found.code

    every = {*listing.items, *listing.alternate}
    spelled = words(*(m.code for m in every), *(str(m.value) for m in every))
    return Annotated[
        str | None,
        BeforeValidator(to_code),
        WithJsonSchema({"anyOf": [values_of(listing), spelled, {"type": "null"}]}),
    ]


def _member_value(listing: EnumListing) -> Callable[[int | None], int | None]:
    check = member_of(listing)
    return lambda value: None if value is None else check(value)


def _bounded_json(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is not None and len(json.dumps(value)) > CONFIG:
        raise ValueError(f"at most {CONFIG} characters of JSON")
    return value


#: An object of at most 8000 characters of JSON.
Settings = Annotated[dict[str, Any], AfterValidator(_bounded_json)]
#: A channel type by its code (any case) or its value; which ones exist, the server knows.
Category = Annotated[
    int | str,
    BeforeValidator(lambda v: _lenient_int(v) if isinstance(v, str) and v.strip() else v),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": TYPE_VALUES[0], "maximum": TYPE_VALUES[1]},
                {"type": "string", "pattern": r"^\s*([A-Za-z][A-Za-z0-9_]{1,31}|[0-9]{1,14})\s*$"},
            ],
            "description": "A channel type's code (any case) or value: EMAIL 80010101, SMS "
            "80010102, WEBHOOK 80010103, IN_APP 80010104, or a custom type.",
        }
    ),
]
_BIZ_ID = Field(min_length=1, max_length=ID)


#: An icon's http(s) URL as typed; blank reads as none.
IconUrl = Annotated[
    str,
    Field(max_length=500, pattern=rf"{_URL}|^\s*$"),
    BeforeValidator(_text),
    Described(**NO_CONTROLS),
]


class ById(Body):
    """The notification operations that name one record: ``{bizId}``."""

    biz_id: Text = _BIZ_ID


class _ShapeAQuery(Body):
    """A shape-A query's page (1-based; 0 reads as 1) and size (above 100 reads as 100)."""

    page: LenientInt = Field(default=None, ge=0, le=MAX_PAGE)
    size: LenientInt = Field(default=None, ge=1)


class ChannelTypeQuery(_ShapeAQuery):
    """``notifications.channel_types_query``: every filter optional."""

    model_config = example(enabledOnly=True, page=1, size=20)

    biz_id: Text | None = Field(default=None, max_length=ID)
    type_code: Text | None = Field(default=None, max_length=32)
    #: "integer or null" (section 4.7): a value of either listing (digits as text too).
    type_status: Annotated[
        LenientInt,
        AfterValidator(_member_value(CHANNEL_TYPE_STATUS)),
        WithJsonSchema(
            {
                "anyOf": [
                    values_of(CHANNEL_TYPE_STATUS),
                    {
                        "type": "string",
                        "enum": [str(v) for v in values_of(CHANNEL_TYPE_STATUS)["enum"]],
                    },
                    {"type": "null"},
                ]
            }
        ),
    ] = None
    enabled_only: LenientBool = None


class ChannelTypeCreate(Body):
    """``notifications.channel_types_create``: the value and order default to the next free."""

    model_config = example(
        typeCode="PUSH",
        typeName="Push",
        typeDescription="Mobile push notifications",
        iconUrl="https://static.sandbox.test/icons/push.svg",
    )

    type_code: Text = Field(max_length=32, pattern=_TYPE_CODE)
    type_name: Text = Field(min_length=1, max_length=NAME)
    type_description: Text | None = Field(default=None, max_length=DESCRIPTION)
    type_value: LenientInt = Field(default=None, ge=TYPE_VALUES[0], le=TYPE_VALUES[1])
    display_order: LenientInt = Field(default=None, ge=DISPLAY_ORDERS[0], le=DISPLAY_ORDERS[1])
    type_status: value_or_code(CHANNEL_TYPE_STATUS) = None  # type: ignore[valid-type]
    icon_url: IconUrl | None = None
    extra_config: Settings | None = None


class ChannelTypeUpdate(Body):
    """``notifications.channel_types_update``: the fields sent change (a name and an order
    cannot be null); the code and value may be sent but not changed."""

    biz_id: Text = _BIZ_ID
    type_code: Text | None = Field(default=None, max_length=32)
    type_value: LenientInt = None
    type_name: Text | None = Field(default=None, min_length=1, max_length=NAME)
    type_description: Text | None = Field(default=None, max_length=DESCRIPTION)
    display_order: LenientInt = Field(default=None, ge=DISPLAY_ORDERS[0], le=DISPLAY_ORDERS[1])
    icon_url: IconUrl | None = None
    extra_config: Settings | None = None


class ChannelQuery(_ShapeAQuery):
    """``notifications.channels_query``: every filter optional."""

    model_config = example(channelCategory="EMAIL", activeOnly=True)

    biz_id: Text | None = Field(default=None, max_length=ID)
    institution_biz_id: Text | None = Field(default=None, max_length=ID)
    channel_category: Category | None = None
    channel_status: value_or_code(CHANNEL_STATUS) = None  # type: ignore[valid-type]
    active_only: LenientBool = None


# -- notification settings (the ``config`` of a channel, and the mail-server checks) ----------


def _security(value: Any) -> Any:
    if value is None or (isinstance(value, str) and not value.strip()):
        return "STARTTLS"
    if isinstance(value, str) and value.strip().upper() in SECURITY_MODES:
        return value.strip().upper()
    raise ValueError(f"security must be one of {', '.join(SECURITY_MODES)}")


#: A mail server's host name (no blanks inside, no slash).
_HOST = r"^\s*[^\s/]+\s*$"
#: A mail server's host name as typed (constraints first, so that an optional one keeps its
#: pattern in the schema).
HostName = Annotated[
    str,
    Field(min_length=1, max_length=253, pattern=_HOST),
    BeforeValidator(_text),
    Described(**NO_CONTROLS),
]
#: A TCP port (digits as text too).
Port = Annotated[int, Field(ge=1, le=65535), BeforeValidator(_lenient_int), OrAlso(DIGITS)]
#: TLS, STARTTLS or NONE (any case); STARTTLS when null or blank.
Security = Annotated[
    str,
    BeforeValidator(_security),
    WithJsonSchema({"anyOf": [words(*SECURITY_MODES), {"type": "null"}]}),
]


class ChannelSettings(Body):
    """Settings of a channel's category: stripped text, unknown keys kept."""

    model_config = ConfigDict(extra="allow")


class MailServer(ChannelSettings):
    """IMAP settings, and the base of SMTP's."""

    host: HostName
    port: Port
    security: Security = "STARTTLS"
    username: Text | None = Field(default=None, max_length=254)
    password: RawText | None = Field(default=None, max_length=256)


class SmtpServer(MailServer):
    """SMTP settings: a server and the sender."""

    from_address: Email = Field(max_length=254)
    from_name: Text | None = Field(default=None, max_length=NAME)


class EmailSettings(SmtpServer):
    """An EMAIL channel: SMTP, and optionally IMAP."""

    imap: MailServer | None = None


class SmsSettings(ChannelSettings):
    """An SMS channel."""

    provider: Text = Field(min_length=1, max_length=64)
    api_key: RawText = Field(min_length=1, max_length=256)
    sender_id: Text | None = Field(default=None, max_length=32)


class WebhookSettings(ChannelSettings):
    """A WEBHOOK channel."""

    url: Text = Field(max_length=2000, pattern=_URL)
    secret: Text | None = Field(default=None, max_length=256)
    headers: dict[str, str] | None = None


#: The settings model of each built-in category (other categories take any object).
CHANNEL_SETTINGS: dict[str, type[ChannelSettings]] = {
    "EMAIL": EmailSettings,
    "SMS": SmsSettings,
    "WEBHOOK": WebhookSettings,
}


def _channel_config() -> dict[str, Any]:
    """The schema of a channel's settings: the built-in categories' models, or any object."""
    schemas = [json_schema_of(model) for model in CHANNEL_SETTINGS.values()]
    return {
        "anyOf": [*schemas, {"type": "object"}],
        "description": "The settings of the channel's category (EMAIL, SMS, WEBHOOK; any object "
        "for other categories); at most 8000 characters of JSON. A secret sent as ******** "
        "keeps the stored one.",
    }


#: A channel's settings: checked against its category's model once the server knows the
#: category (custom categories take any object).
ChannelConfig = Annotated[Settings, WithJsonSchema(_channel_config())]


_SMTP_EXAMPLE: dict[str, Any] = {
    "host": "smtp.example.com",
    "port": 587,
    "security": "STARTTLS",
    "username": "notifications@example.com",
    "password": "app-password",
    "fromAddress": "no-reply@example.com",
    "fromName": "System Portal",
}


class ChannelCreate(Body):
    """``notifications.channels_create``: ``config`` is checked against the category's
    settings model (:data:`CHANNEL_SETTINGS`) once the server knows the category."""

    model_config = example(
        channelName="Relay mail",
        channelCategory="EMAIL",
        config=_SMTP_EXAMPLE,
        description="A second mail relay",
    )

    channel_name: Text = Field(min_length=1, max_length=NAME)
    channel_category: Category
    config: ChannelConfig = Field(default_factory=dict)
    institution_biz_id: Text | None = Field(default=None, max_length=ID)
    is_default: LenientBool = None
    channel_status: value_or_code(CHANNEL_STATUS) = None  # type: ignore[valid-type]
    description: Text | None = Field(default=None, max_length=DESCRIPTION)


class ChannelUpdate(Body):
    """``notifications.channels_update``: the fields sent change; ``config`` replaces the
    settings whole (masked secrets keep their stored values)."""

    biz_id: Text = _BIZ_ID
    channel_category: Category | None = None
    channel_name: Text | None = Field(default=None, min_length=1, max_length=NAME)
    description: Text | None = Field(default=None, max_length=DESCRIPTION)
    config: ChannelConfig | None = None
    is_default: LenientBool = None


def _needs(*fields: str) -> dict[str, Any]:
    """Schema words: the settings' required fields, or a channel that has them."""
    return {"anyOf": [{"required": list(fields)}, {"required": ["channelBizId"]}]}


class ImapCheck(Body):
    """``notifications.validate_imap``: the settings to check (:class:`MailServer`), or
    ``channelBizId`` of an EMAIL channel whose stored settings fill in what the body leaves
    out or masks. The merged settings are checked once the server has them."""

    model_config = ConfigDict(extra="allow", json_schema_extra=_needs("host", "port"))

    channel_biz_id: Text | None = Field(default=None, max_length=ID)
    host: HostName | None = None
    port: Port | None = None
    security: Security | None = None
    username: Text | None = Field(default=None, max_length=254)
    password: RawText | None = Field(default=None, max_length=256)


class SmtpCheck(ImapCheck):
    """``notifications.validate_smtp``: as :class:`ImapCheck`, with the sender
    (:class:`SmtpServer`)."""

    model_config = ConfigDict(
        json_schema_extra={
            **_needs("host", "port", "fromAddress"),
            "examples": [_SMTP_EXAMPLE],
        }
    )

    from_address: Email | None = Field(default=None, max_length=254)
    from_name: Text | None = Field(default=None, max_length=NAME)


#: The body model of each operation described here.
BODIES: dict[str, type[Body]] = {
    "accounts.query": AccountQuery,
    "accounts.status": AccountStatusChange,
    "accounts.password_reset": AccountRef,
    "accounts.update": AccountUpdate,
    "auth.login_initiate": LoginInitiate,
    "auth.mfa_send": MfaSend,
    "auth.login_complete": LoginComplete,
    "auth.token_refresh": TokenRefresh,
    "auth.password_forgot": PasswordForgot,
    "auth.password_reset": PasswordReset,
    "auth.password_change": PasswordChange,
    "auth.password_init": PasswordInit,
    "invitations.create": InvitationCreate,
    "invitations.cancel": InvitationCancel,
    "roles.delete": RoleDelete,
    "security.ip_whitelist_set": IpWhitelistSet,
    "portals.create": PortalCreate,
    "notifications.channel_types_query": ChannelTypeQuery,
    "notifications.channel_types_create": ChannelTypeCreate,
    "notifications.channel_types_update": ChannelTypeUpdate,
    "notifications.channel_types_enable": ById,
    "notifications.channel_types_disable": ById,
    "notifications.channel_types_delete": ById,
    "notifications.channels_query": ChannelQuery,
    "notifications.channels_create": ChannelCreate,
    "notifications.channels_update": ChannelUpdate,
    "notifications.channels_activate": ById,
    "notifications.channels_deactivate": ById,
    "notifications.channels_delete": ById,
    "notifications.validate_smtp": SmtpCheck,
    "notifications.validate_imap": ImapCheck,
}
