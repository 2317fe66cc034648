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

from .enums import PORTAL_TYPE, EnumListing, values_of

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
Text = Annotated[str, BeforeValidator(_text)]
#: An optional integer field that also takes its digits as a string ("" reads as null).
LenientInt = Annotated[int | None, BeforeValidator(_lenient_int), OrAlso(DIGITS)]
#: Text kept exactly as sent (a remark's own spacing), control characters refused.
RawText = Annotated[str, AfterValidator(_no_controls)]


def member_of(listing: EnumListing) -> Callable[[int], int]:
    """A check that an integer is a value of ``listing`` (either of its listings)."""

    def known(value: int) -> int:
        if listing.by_value(value) is None:
            raise ValueError(f"not a {listing.type_name} value")
        return value

    return known


#: A portal type by its value, from either series (digits as a string too).
PortalTypeValue = Annotated[
    int,
    BeforeValidator(_lenient_int),
    AfterValidator(member_of(PORTAL_TYPE)),
    WithJsonSchema(values_of(PORTAL_TYPE)),
    OrAlso(DIGITS),
]


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


class AccountQuery(Body):
    """``accounts.query``: filters, a zero-based page, and sort items (``field,asc|desc``)."""

    institution_biz_id: str | None = Field(default=None, max_length=ID)
    account_portal: int | None = None
    account_status: int | None = None
    email: str | None = Field(default=None, max_length=EMAIL)
    name: str | None = Field(default=None, max_length=255)
    #: Zero-based; sizes above 100 are capped (section 8).
    page: int | None = Field(default=None, ge=0)
    size: int | None = Field(default=None, ge=1)
    sort: str | list[str] | None = None


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

    invitee_email: Text = Field(min_length=1, max_length=INVITEE_EMAIL)
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


class IpWhitelistSet(Body):
    """``security.ip_whitelist_set``: the whole list (each entry an address or a CIDR range,
    checked by the server)."""

    ips: list[str] = Field(max_length=WHITELIST_ENTRIES)


# -- portals ---------------------------------------------------------------------------------


class PortalCreate(Body):
    """``portals.create`` (its errors are the numeric ``4000``): the type as a value of either
    portal-type series, the domain, an optional remark and institution (the caller's)."""

    portal_type: PortalTypeValue
    domain: Text = Field(min_length=1, max_length=255, pattern=r"^\s*\S+\s*$")
    remark: RawText | None = Field(default=None, max_length=255)
    institution_biz_id: Text | None = Field(default=None, max_length=ID)


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
}
