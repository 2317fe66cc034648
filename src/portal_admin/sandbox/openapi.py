"""The sandbox's OpenAPI description: what every operation takes and what it answers.

The routes read their JSON bodies themselves (``bodies.py``, ``routes/_fields.py``), so
FastAPI alone would describe the paths and nothing else. :func:`describe` starts from FastAPI's
description and fills in, for every operation of ``protocol.operations`` (and the
sandbox-only endpoints):

- the request body (JSON Schema: names, types, required fields, length limits, formats,
  enums in the forms the sandbox accepts: a value of either listing, or the code, where the
  hand-read bodies take both);
- the query, path and header parameters the operation reads;
- the security it needs (portal access code, bearer token);
- every answer it can give: the success envelope of section 2.1 with ``data`` typed per
  operation, and the error envelope (``success: false``, ``data: null``, the codes the
  operation can answer) per HTTP status;
- for the Secure Channel operations, the sealed frame ``{v: 2, p}`` of
  ``secure-channel-profile.md`` on the wire, and what the frame carries under the media type
  extension ``x-sealed-plaintext``.

``SandboxApp.openapi()`` calls :func:`describe` once and caches the result.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any

from fastapi.openapi.utils import get_openapi

from portal_admin import __version__
from portal_admin.protocol import secure_channel as sc
from portal_admin.protocol.enums import (
    ACCOUNT_ACTIONS,
    ACCOUNT_STATUS,
    CHANNEL_STATUS,
    CHANNEL_TYPE_STATUS,
    INVITATION_STATUS,
    LOGIN_RESULT,
    MFA_METHOD,
    PORTAL_STATUS,
    PORTAL_TYPE,
    ROLE_TYPE,
    EnumListing,
)
from portal_admin.protocol.envelope import ENVELOPE_VERSION
from portal_admin.protocol.errors import SUCCESS_CODE, Code
from portal_admin.protocol.operations import OPERATIONS, Auth, Channel, Operation, match
from portal_admin.protocol.pages import MAX_PAGE_SIZE, AccountQueryShape

if TYPE_CHECKING:
    from fastapi import FastAPI

Schema = dict[str, Any]

JSON = "application/json"
#: Sealed answers (type 129) carry this Content-Type (the profile's).
SEALED_JSON = sc.CONTENT_TYPE
#: Extension of a media type object: the schema of what a sealed frame carries.
PLAINTEXT_KEY = "x-sealed-plaintext"

#: Registry operations that take no body (the specification says "body null"; the sandbox
#: ignores any body sent).
BODYLESS: frozenset[str] = frozenset(
    {
        "auth.logout",
        "security.ip_whitelist_enable",
        "security.ip_whitelist_disable",
        "security.backup_codes_generate",
        "security.otp_revoke",
    }
)

# -- building blocks ------------------------------------------------------------------------------

#: Text the hand-read bodies accept: no control characters other than tab, CR and LF.
_TEXT = r"^[^\x00-\x08\x0B\x0C\x0E-\x1F]*$"
#: The same, with at least one character that is not white space (required fields).
_NONBLANK = r"^[^\x00-\x08\x0B\x0C\x0E-\x1F]*[^\s\x00-\x1F][^\x00-\x08\x0B\x0C\x0E-\x1F]*$"
#: A numeric string, as the hand-read bodies accept for integers (ASCII digits, at most 15
#: characters with the sign); the empty string reads as absent.
_NUMERIC = r"^(\s*(-[0-9]{1,14}|[0-9]{1,15})\s*)?$"
_TIME: Schema = {"type": "string", "format": "date-time"}
_TIME_OR_NULL: Schema = {"type": ["string", "null"], "format": "date-time"}
_BIZ_ID: Schema = {"type": "string", "minLength": 1, "maxLength": 64}


def ref(name: str) -> Schema:
    """A reference to a component schema."""
    return {"$ref": f"#/components/schemas/{name}"}


def obj(
    properties: dict[str, Schema],
    required: tuple[str, ...] | list[str] = (),
    *,
    extra: bool = False,
    **more: Any,
) -> Schema:
    """An object schema (``extra``: whether properties beyond these are allowed)."""
    result: Schema = {"type": "object", "properties": properties}
    if required:
        result["required"] = list(required)
    if not extra:
        result["additionalProperties"] = False
    result.update(more)
    return result


def record(properties: dict[str, Schema], **more: Any) -> Schema:
    """An object schema whose properties are all required and the only ones allowed."""
    return obj(properties, list(properties), **more)


def nullable(schema: Schema) -> Schema:
    """``schema`` or null."""
    kind = schema.get("type")
    if isinstance(kind, str) and "$ref" not in schema and "enum" not in schema:
        return {**schema, "type": [kind, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: Schema, **more: Any) -> Schema:
    """An array schema."""
    return {"type": "array", "items": items, **more}


def text(max_len: int, *, min_len: int = 0, required: bool = False, **more: Any) -> Schema:
    """A string field of a hand-read body: stripped, at most ``max_len`` characters, no
    control characters; a required one must not be blank."""
    schema: Schema = {
        "type": "string",
        "maxLength": max_len,
        "pattern": _NONBLANK if required else _TEXT,
    }
    if min_len or required:
        schema["minLength"] = max(min_len, 1)
    schema.update(more)
    return schema


def strict_text(max_len: int, *, min_len: int = 1) -> Schema:
    """A string field of a pydantic body (``bodies.py``): its length as sent."""
    return {"type": "string", "minLength": min_len, "maxLength": max_len}


def integer(low: int | None = None, high: int | None = None) -> Schema:
    """A JSON integer within bounds."""
    schema: Schema = {"type": "integer"}
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high
    return schema


def lenient_integer(low: int | None = None, high: int | None = None) -> Schema:
    """An integer field of a hand-read body: a JSON integer, or a numeric string."""
    return {"anyOf": [integer(low, high), {"type": "string", "pattern": _NUMERIC}]}


def lenient_boolean() -> Schema:
    """A boolean field of a hand-read body: true/false, or the strings "true"/"false" (case and
    surrounding white space ignored)."""
    return {"anyOf": [{"type": "boolean"}, {"type": "string", "pattern": one_of("true", "false")}]}


def caseless(word: str) -> str:
    """A pattern matching ``word`` in any case."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in word)


def one_of(*words: str, empty: bool = False) -> str:
    """A pattern matching any of ``words``, case-insensitive, white space around allowed (how
    the hand-read bodies compare codes); with ``empty``, the empty string too (read as absent)."""
    alternatives = "|".join(caseless(word) for word in words)
    return rf"^(\s*({alternatives})\s*){'?' if empty else ''}$"


def values_of(listing: EnumListing) -> list[int]:
    """Every value of a listing, served and alternate, without repeats."""
    return sorted({item.value for item in (*listing.items, *listing.alternate)})


def codes_of(listing: EnumListing) -> list[str]:
    """Every code of a listing, served and alternate, without repeats."""
    return list(dict.fromkeys(item.code for item in (*listing.items, *listing.alternate)))


def value_enum(listing: EnumListing) -> Schema:
    """An enum given by its numeric value (either listing) as a JSON integer."""
    return {"type": "integer", "enum": values_of(listing)}


def value_or_code(listing: EnumListing) -> Schema:
    """An optional enum of a hand-read body: its value (either listing; a JSON integer or a
    numeric string) or its code (case-insensitive); "" reads as absent."""
    words = [*codes_of(listing), *map(str, values_of(listing))]
    pattern = one_of(*words, empty=True)
    return {"anyOf": [value_enum(listing), {"type": "string", "pattern": pattern}]}


def sort_field(*fields: str) -> Schema:
    """A sort value, ``field`` or ``field,asc|desc`` (direction case-insensitive)."""
    return {
        "type": "string",
        "pattern": rf"^\s*(({'|'.join(fields)})\s*(,\s*([aA][sS][cC]|[dD][eE][sS][cC])?\s*)?)?$",
        "description": "field or field,asc|desc (blank: ignored)",
    }


def header(name: str, schema: Schema, *, required: bool = False, description: str = "") -> Schema:
    """A header parameter."""
    param: Schema = {"name": name, "in": "header", "required": required, "schema": schema}
    if description:
        param["description"] = description
    return param


def query(name: str, schema: Schema, description: str = "", *, explode: bool = True) -> Schema:
    """An optional query parameter."""
    param: Schema = {"name": name, "in": "query", "required": False, "schema": schema}
    if schema.get("type") == "array":
        param["style"] = "form"
        param["explode"] = explode
    if description:
        param["description"] = description
    return param


def path_param(name: str, description: str) -> Schema:
    """A path parameter."""
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "string", "minLength": 1},
    }


# -- component schemas: records ----------------------------------------------------------------

ENUM_ITEM_PROPERTIES: dict[str, Schema] = {
    "code": {"type": "string", "minLength": 1},
    "value": {"type": "integer"},
    "label": {"type": "string"},
    "description": {"type": "string"},
}
_ITEM_REQUIRED = ("code", "value", "label", "description")


def _item_with(**extra: Schema) -> Schema:
    return obj({**ENUM_ITEM_PROPERTIES, **extra}, (*_ITEM_REQUIRED, *extra))


_PAGINATION_A = record(
    {
        "totalPages": integer(0),
        "totalRecords": integer(0),
        "currentPage": integer(1),
        "pageSize": integer(1, MAX_PAGE_SIZE),
        "hasNext": {"type": "boolean"},
        "empty": {"type": "boolean"},
        "paginated": {"type": "boolean"},
    }
)

_MFA_SETTING = record(
    {
        "mfaMethod": ref("EnumItem"),
        "isEnabled": {"type": "boolean"},
        "isPrimary": {"type": "boolean"},
        "verifiedAt": _TIME_OR_NULL,
    }
)

_MASKED_SETTINGS: Schema = {
    "type": "object",
    "description": "The channel's settings; every secret (password, secret, apiKey, token, "
    "accessToken, privateKey, clientSecret, at any depth) reads ********.",
}

RECORDS: dict[str, Schema] = {
    "EnumItem": obj(ENUM_ITEM_PROPERTIES, _ITEM_REQUIRED),
    "CountryItem": _item_with(
        alpha2Code={"type": "string", "pattern": "^[A-Z]{2}$"},
        alpha3Code={"type": "string", "pattern": "^[A-Z]{3}$"},
        numericCode=integer(0, 999),
        phoneCode={"type": "string", "pattern": r"^(\+[0-9][0-9 -]*)?$"},
    ),
    "TimezoneItem": _item_with(
        zoneIdCode={"type": "string", "minLength": 1},
        utcOffset={"type": "string", "pattern": r"^UTC[+-][0-9]{1,2}(:[0-9]{2})?$"},
    ),
    "UsStateItem": _item_with(isoCode={"type": "string", "pattern": "^US-[A-Z]{2}$"}),
    "PaginationA": _PAGINATION_A,
    "Account": record(
        {
            "bizId": {"type": "string"},
            "institutionBizId": {"type": "string"},
            "accountEmail": {"type": "string"},
            "accountPhone": {"type": "string"},
            "accountName": {"type": "string"},
            "accountRemark": {"type": ["string", "null"]},
            "accountPortal": ref("EnumItem"),
            "accountStatus": ref("EnumItem"),
            "createdAt": _TIME,
            "updatedAt": _TIME,
            "defaultLanguage": {"type": "string"},
            "defaultTimezone": {"type": "string"},
            "defaultCountry": {"type": "string"},
        }
    ),
    "Profile": record(
        {
            "bizId": {"type": "string"},
            "accountEmail": {"type": "string"},
            "accountName": {"type": "string"},
            "accountPortal": ref("EnumItem"),
            "accountStatus": ref("EnumItem"),
            "accountPhone": {"type": "string"},
            "institutionBizId": {"type": "string"},
            "defaultLanguage": {"type": "string"},
            "defaultTimezone": {"type": "string"},
            "defaultCountry": {"type": "string"},
            "pendingApproval": {"type": "boolean"},
            "mfaMethods": array(ref("EnumItem")),
            "workspaceBizId": {"type": ["string", "null"]},
            "permissionCodes": array({"type": "string"}),
            "roles": array(
                record(
                    {
                        "bizId": {"type": "string"},
                        "roleName": {"type": "string"},
                        "roleType": {"type": "string", "enum": list(ROLE_TYPE.codes)},
                        "workspaceBizId": {"type": "string"},
                    },
                )
            ),
            "workspaces": array(
                record(
                    {
                        "bizId": {"type": "string"},
                        "name": {"type": "string"},
                        "isPrimary": {"type": "boolean"},
                        "permissionCodes": array({"type": "string"}),
                    },
                )
            ),
        }
    ),
    "MfaSetting": _MFA_SETTING,
    "Session": record(
        {
            "sessionId": {"type": "string"},
            "clientIp": {"type": "string"},
            "userAgent": {"type": "string"},
            "loginTime": _TIME,
            "lastActivityTime": _TIME,
            "isCurrent": {"type": "boolean"},
        }
    ),
    "SessionConfig": record(
        {
            "accountBizId": {"type": "string"},
            "ssoEnabled": {"type": "boolean"},
            "maxSessions": integer(1),
            "passwordChangedAt": _TIME_OR_NULL,
            "lastLoginAt": _TIME_OR_NULL,
            "lastLoginIp": {"type": ["string", "null"]},
        }
    ),
    "LoginHistoryItem": record(
        {
            "bizId": {"type": "string"},
            "loginTime": _TIME,
            "clientIp": {"type": "string"},
            "userAgent": {"type": "string"},
            "loginResult": value_enum(LOGIN_RESULT),
            "failureReason": {"type": ["string", "null"]},
        }
    ),
    "IpWhitelist": record(
        {
            "enabled": {"type": "boolean"},
            "entries": array(
                record({"ip": {"type": "string"}, "createdAt": _TIME}),
                maxItems=100,
            ),
        }
    ),
    "Invitation": record(
        {
            "bizId": {"type": "string"},
            "workspaceBizId": {"type": "string"},
            "workspaceName": {"type": "string"},
            "inviterBizId": {"type": "string"},
            "inviterName": {"type": "string"},
            "inviteeEmail": {"type": "string"},
            "inviteeAccountBizId": {"type": ["string", "null"]},
            "inviteeAccountName": {"type": ["string", "null"]},
            "invitationStatus": ref("EnumItem"),
            "message": {"type": ["string", "null"]},
            "expiresAt": _TIME,
            "acceptedAt": _TIME_OR_NULL,
            "cancelledAt": _TIME_OR_NULL,
            "cancelReason": {"type": ["string", "null"]},
            "createdAt": _TIME,
            "canAccept": {"type": "boolean"},
        }
    ),
    "Role": record(
        {
            "bizId": {"type": "string"},
            "workspaceBizId": {"type": "string"},
            "roleName": {"type": "string"},
            "roleType": ref("EnumItem"),
            "description": {"type": "string"},
            "permissionCodes": array({"type": "string"}),
            "memberCount": integer(0),
            "createdAt": _TIME,
            "updatedAt": _TIME,
        }
    ),
    "Portal": record(
        {
            "id": integer(1),
            "institutionBizId": {"type": "string"},
            "portalType": value_enum(PORTAL_TYPE),
            "domain": {"type": "string", "minLength": 1, "maxLength": 255},
            "portalStatus": value_enum(PORTAL_STATUS),
            "remark": {"type": ["string", "null"], "maxLength": 255},
            "createdAt": _TIME,
            "updatedAt": _TIME,
        }
    ),
    "ChannelType": record(
        {
            "bizId": {"type": "string"},
            "typeCode": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]{1,31}$"},
            "typeValue": integer(10_000_000, 99_999_999),
            "typeName": {"type": "string"},
            "typeDescription": {"type": "string"},
            "typeStatus": ref("EnumItem"),
            "displayOrder": integer(0),
            "iconUrl": {"type": ["string", "null"]},
            "extraConfig": {"type": ["object", "null"]},
            "createdAt": _TIME,
            "updatedAt": _TIME,
            "enabled": {"type": "boolean"},
        }
    ),
    "Channel": record(
        {
            "bizId": {"type": "string"},
            "institutionBizId": {"type": "string"},
            "channelName": {"type": "string"},
            "channelCategory": ref("EnumItem"),
            "channelStatus": ref("EnumItem"),
            "active": {"type": "boolean"},
            "isDefault": {"type": "boolean"},
            "description": {"type": ["string", "null"]},
            "config": _MASKED_SETTINGS,
            "createdAt": _TIME,
            "updatedAt": _TIME,
        }
    ),
    "MailServerCheck": record(
        {
            "valid": {"type": "boolean"},
            "protocol": {"type": "string", "enum": ["SMTP", "IMAP"]},
            "host": {"type": "string"},
            "port": integer(1, 65535),
            "security": {"type": "string", "enum": ["TLS", "STARTTLS", "NONE"]},
            "message": {"type": "string"},
            "checkedAt": _TIME,
        }
    ),
    "Mail": record(
        {
            "id": integer(1),
            "to": {"type": "string"},
            "subject": {"type": "string"},
            "body": {"type": "string"},
            "code": {"type": ["string", "null"]},
            "token": {"type": ["string", "null"]},
            "sessionId": {"type": ["string", "null"]},
            "sentAt": _TIME,
        }
    ),
    "SealedBody": record(
        {
            "v": {"const": sc.VERSION, "type": "integer"},
            "p": {
                "type": "string",
                "minLength": 1,
                "pattern": "^[A-Za-z0-9_-]+={0,2}$",
                "description": "URL-safe base64 (padding optional) of the binary envelope: "
                "magic SC, version 2, type (1 key exchange, 2 session data, 129 response), "
                "then for type 1 the keyId and the two RSA-wrapped AES keys, then a 12-byte "
                "IV and the AES-256-GCM ciphertext with its 16-byte tag.",
            },
        },
        description="A Secure Channel v2 frame on HTTP (secure-channel-profile.md).",
    ),
}

# -- component schemas: request settings -------------------------------------------------------

_HOST = {"type": "string", "minLength": 1, "maxLength": 253, "pattern": r"^\s*[^\s/\x00-\x1F]+\s*$"}
_SECURITY_MODE = {
    "type": "string",
    "pattern": one_of("TLS", "STARTTLS", "NONE"),
    "description": "TLS, STARTTLS or NONE (case-insensitive); default STARTTLS.",
}
_MAIL_SERVER: dict[str, Schema] = {
    "host": _HOST,
    "port": lenient_integer(1, 65535),
    "security": nullable(_SECURITY_MODE),
    "username": nullable(text(254)),
    "password": nullable(text(256, description="******** keeps the stored secret.")),
}
_SENDER: dict[str, Schema] = {
    "fromAddress": {"type": "string", "format": "email", "maxLength": 254},
    "fromName": nullable(text(100)),
}

SETTINGS: dict[str, Schema] = {
    "ImapSettings": obj(_MAIL_SERVER, ("host", "port"), extra=True),
    "EmailSettings": obj(
        {**_MAIL_SERVER, **_SENDER, "imap": nullable(ref("ImapSettings"))},
        ("host", "port", "fromAddress"),
        extra=True,
        description="Settings of an EMAIL channel (SMTP, and optionally IMAP).",
    ),
    "SmsSettings": obj(
        {
            "provider": text(64, required=True),
            "apiKey": text(256, required=True),
            "senderId": nullable(text(32)),
        },
        ("provider", "apiKey"),
        extra=True,
        description="Settings of an SMS channel.",
    ),
    "WebhookSettings": obj(
        {
            "url": {
                "type": "string",
                "maxLength": 2000,
                "pattern": r"^\s*[hH][tT][tT][pP][sS]?://[^\s/$.?#][^\s]*\s*$",
            },
            "secret": nullable(text(256)),
            "headers": nullable({"type": "object", "additionalProperties": {"type": "string"}}),
        },
        ("url",),
        extra=True,
        description="Settings of a WEBHOOK channel.",
    ),
}

# -- request bodies --------------------------------------------------------------------------

_PAGE_A = lenient_integer(0, 10_000_001)
_SIZE = lenient_integer(1)
_PASSWORD = strict_text(1024)
_NEW_PASSWORD: Schema = {
    "type": "string",
    "minLength": 8,
    "maxLength": 128,
    "pattern": r"\S",
    "description": "8 to 128 characters, not only white space.",
}
_ACCOUNT_SORT = sort_field(
    "accountEmail",
    "accountName",
    "createdAt",
    "updatedAt",
    "bizId",
    "accountStatus",
    "accountPortal",
)
_ID_BODY = record({"bizId": _BIZ_ID}, extra=True)
_CHANNEL_CONFIG: Schema = {
    "anyOf": [
        ref("EmailSettings"),
        ref("SmsSettings"),
        ref("WebhookSettings"),
        {"type": "object"},
    ],
    "description": "The settings of the channel's category (any object for other "
    "categories); at most 8000 characters of JSON. A secret sent as ******** keeps the "
    "stored one.",
}
#: A channel type by its code or value: the built-in ones (EMAIL 80010101, SMS 80010102, WEBHOOK
#: 80010103, IN_APP 80010104) or custom types created with channel-types/create.
_CATEGORY: Schema = {
    "anyOf": [
        integer(10_000_000, 99_999_999),
        {"type": "string", "pattern": r"^\s*([A-Za-z][A-Za-z0-9_]{1,31}|[0-9]{8})\s*$"},
    ],
    "description": "A channel type's code (case-insensitive) or value: EMAIL 80010101, SMS "
    "80010102, WEBHOOK 80010103, IN_APP 80010104, or a custom type.",
}
_TYPE_CODE = {"type": "string", "pattern": r"^\s*[A-Za-z][A-Za-z0-9_]{1,31}\s*$"}
_ICON_URL = nullable(
    {
        "type": "string",
        "maxLength": 500,
        "pattern": r"^\s*([hH][tT][tT][pP][sS]?://[^\s/$.?#][^\s]*)?\s*$",
    }
)
_EXTRA_CONFIG = nullable(
    {"type": "object", "description": "Any object of at most 8000 characters of JSON."}
)


def _mail_check(sender: bool) -> Schema:
    fields = {**_MAIL_SERVER, **(_SENDER if sender else {}), "channelBizId": nullable(_BIZ_ID)}
    needed = ["host", "port", *(["fromAddress"] if sender else [])]
    return obj(
        fields,
        extra=True,
        anyOf=[{"required": needed}, {"required": ["channelBizId"]}],
        description="The settings to check, or channelBizId of an EMAIL channel whose stored "
        "settings fill in what the body leaves out or masks.",
    )


#: Plain JSON request bodies: operation id -> (schema, required).
REQUEST_BODIES: dict[str, tuple[Schema, bool]] = {
    "auth.login_initiate": (
        record(
            {"email": strict_text(320), "password": _PASSWORD},
            extra=True,
        ),
        True,
    ),
    "auth.mfa_send": (
        record(
            {"sessionId": strict_text(256), "method": value_enum(MFA_METHOD)},
            extra=True,
        ),
        True,
    ),
    "auth.login_complete": (
        record(
            {
                "sessionId": strict_text(256),
                "method": value_enum(MFA_METHOD),
                "code": {
                    **strict_text(64),
                    "description": "The emailed or authenticator code (6 digits), or an "
                    "unused backup code.",
                },
            },
            extra=True,
        ),
        True,
    ),
    "auth.password_forgot": (
        record(
            {
                "email": {"type": "string", "format": "email", "minLength": 3, "maxLength": 320},
                "challengeToken": {**strict_text(4096), "pattern": r"\S"},
            },
            extra=True,
        ),
        True,
    ),
    "security.ip_whitelist_set": (
        record(
            {
                "ips": array(
                    {
                        "type": "string",
                        "maxLength": 64,
                        "anyOf": [
                            {"format": "ipv4"},
                            {"format": "ipv6"},
                            {"pattern": r"^\s*[0-9.]+/[0-9]{1,2}\s*$"},
                            {"pattern": r"^\s*[0-9A-Fa-f:.]+/[0-9]{1,3}\s*$"},
                        ],
                        "description": "An IPv4 or IPv6 address, or a CIDR network without "
                        "host bits.",
                    },
                    maxItems=100,
                )
            },
            extra=True,
            description="Replaces the whole list ([] clears it).",
        ),
        True,
    ),
    "accounts.query": (
        obj(
            {
                "institutionBizId": nullable(strict_text(64, min_len=0)),
                "accountPortal": nullable(value_enum(PORTAL_TYPE)),
                "accountStatus": nullable(value_enum(ACCOUNT_STATUS)),
                "email": nullable(
                    {
                        **strict_text(320, min_len=0),
                        "description": "Case-insensitive prefix of the address.",
                    }
                ),
                "name": nullable(
                    {
                        **strict_text(255, min_len=0),
                        "description": "Case- and accent-insensitive prefix of a word of the "
                        "name (one word) or of the whole name (several words).",
                    }
                ),
                "page": nullable(integer(0, 10_000_000)),
                "size": nullable(
                    {**integer(1), "description": "Default 20; above 100 reads as 100."}
                ),
                "sort": nullable({"anyOf": [_ACCOUNT_SORT, array(_ACCOUNT_SORT)]}),
            },
            extra=True,
            description="Every filter is optional; empty strings mean no filter.",
        ),
        False,
    ),
    "accounts.status": (
        obj(
            {
                "userBizId": strict_text(64),
                "action": {
                    "type": "string",
                    "enum": list(ACCOUNT_ACTIONS),
                    "description": "Case-insensitive.",
                },
                "reason": nullable(strict_text(500, min_len=0)),
            },
            ("userBizId", "action"),
            extra=True,
        ),
        True,
    ),
    "accounts.password_reset": (
        record({"userBizId": strict_text(64)}, extra=True),
        True,
    ),
    "accounts.update": (
        obj(
            {
                "userBizId": strict_text(64),
                "accountName": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 100,
                    "pattern": r"\S",
                },
                "accountPhone": strict_text(32, min_len=0),
                "accountRemark": nullable(strict_text(255, min_len=0)),
                "defaultLanguage": strict_text(16, min_len=2),
                "defaultTimezone": strict_text(64),
                "defaultCountry": strict_text(3, min_len=2),
            },
            ("userBizId",),
            description="Only the fields sent change; accountRemark null clears the remark.",
        ),
        True,
    ),
    "invitations.create": (
        obj(
            {
                "inviteeEmail": {"type": "string", "format": "email", "maxLength": 254},
                "message": nullable(text(500)),
                "expirationDays": nullable({**lenient_integer(1, 30), "description": "Default 7."}),
            },
            ("inviteeEmail",),
            extra=True,
        ),
        True,
    ),
    "invitations.cancel": (
        obj(
            {"invitationBizId": text(64, required=True), "reason": nullable(text(500))},
            ("invitationBizId",),
            extra=True,
        ),
        True,
    ),
    "roles.delete": (
        obj(
            {"workspaceId": nullable(text(64)), "roleId": nullable(text(64))},
            extra=True,
            description="roleId is required, here or in the query string (the body wins); "
            "workspaceId defaults to the caller's workspace.",
        ),
        False,
    ),
    "portals.create": (
        obj(
            {
                "portalType": {
                    "anyOf": [value_enum(PORTAL_TYPE), {"type": "string", "pattern": _NUMERIC}],
                    "description": "A value of either portal-type listing (a numeric string "
                    "too); codes are refused.",
                },
                "domain": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 255,
                    "pattern": r"^\s*[^\s\x00-\x1F]+\s*$",
                },
                "remark": nullable({"type": "string", "maxLength": 255, "pattern": _TEXT}),
                "institutionBizId": nullable(text(64)),
            },
            ("portalType", "domain"),
            extra=True,
            description="institutionBizId defaults to the caller's institution.",
        ),
        True,
    ),
    "notifications.channel_types_query": (
        obj(
            {
                "bizId": nullable(text(64)),
                "typeCode": nullable(text(32)),
                "typeStatus": nullable(
                    {
                        "anyOf": [
                            value_enum(CHANNEL_TYPE_STATUS),
                            {
                                "type": "string",
                                "enum": list(map(str, values_of(CHANNEL_TYPE_STATUS))),
                            },
                        ]
                    }
                ),
                "enabledOnly": nullable(lenient_boolean()),
                "page": nullable({**_PAGE_A, "description": "1-based (0 reads as 1)."}),
                "size": nullable(_SIZE),
            },
            extra=True,
            description="Every filter is optional.",
        ),
        False,
    ),
    "notifications.channel_types_create": (
        obj(
            {
                "typeCode": {**_TYPE_CODE, "description": "Upper-cased; unique."},
                "typeName": text(100, required=True),
                "typeValue": nullable(lenient_integer(10_000_000, 99_999_999)),
                "typeDescription": nullable(text(500)),
                "displayOrder": nullable(lenient_integer(0, 9999)),
                "iconUrl": _ICON_URL,
                "extraConfig": _EXTRA_CONFIG,
                "typeStatus": nullable(value_or_code(CHANNEL_TYPE_STATUS)),
            },
            ("typeCode", "typeName"),
            extra=True,
        ),
        True,
    ),
    "notifications.channel_types_update": (
        obj(
            {
                "bizId": _BIZ_ID,
                "typeName": text(100, required=True),
                "typeDescription": nullable(text(500)),
                "displayOrder": lenient_integer(0, 9999),
                "iconUrl": _ICON_URL,
                "extraConfig": _EXTRA_CONFIG,
            },
            ("bizId",),
            extra=True,
            description="typeCode and typeValue cannot change (sent, they must be the "
            "current ones).",
        ),
        True,
    ),
    "notifications.channel_types_enable": (_ID_BODY, True),
    "notifications.channel_types_disable": (_ID_BODY, True),
    "notifications.channel_types_delete": (_ID_BODY, True),
    "notifications.channels_query": (
        obj(
            {
                "bizId": nullable(text(64)),
                "institutionBizId": nullable(text(64)),
                "channelCategory": nullable({"anyOf": [_CATEGORY, {"const": ""}]}),
                "channelStatus": nullable(value_or_code(CHANNEL_STATUS)),
                "activeOnly": nullable(lenient_boolean()),
                "page": nullable({**_PAGE_A, "description": "1-based (0 reads as 1)."}),
                "size": nullable(_SIZE),
            },
            extra=True,
            description="Every filter is optional. channelCategory: a channel type's code or "
            "value (custom types too).",
        ),
        False,
    ),
    "notifications.channels_create": (
        obj(
            {
                "channelName": text(100, required=True),
                "channelCategory": _CATEGORY,
                "config": _CHANNEL_CONFIG,
                "institutionBizId": nullable(text(64)),
                "isDefault": nullable(lenient_boolean()),
                "channelStatus": nullable(value_or_code(CHANNEL_STATUS)),
                "description": nullable(text(500)),
            },
            ("channelName", "channelCategory", "config"),
            extra=True,
            description="The channel type must be enabled; channelCategory: a channel type's "
            "code or value (custom types too).",
        ),
        True,
    ),
    "notifications.channels_update": (
        obj(
            {
                "bizId": _BIZ_ID,
                "channelName": text(100, required=True),
                "description": nullable(text(500)),
                "config": _CHANNEL_CONFIG,
                "isDefault": nullable(lenient_boolean()),
            },
            ("bizId",),
            extra=True,
            description="config replaces the settings whole; the category cannot change.",
        ),
        True,
    ),
    "notifications.channels_activate": (_ID_BODY, True),
    "notifications.channels_deactivate": (_ID_BODY, True),
    "notifications.channels_delete": (_ID_BODY, True),
    "notifications.validate_smtp": (_mail_check(sender=True), True),
    "notifications.validate_imap": (_mail_check(sender=False), True),
}

_SMTP_EXAMPLE = {
    "host": "smtp.example.com",
    "port": 587,
    "security": "STARTTLS",
    "username": "notifications@example.com",
    "password": "app-password",
    "fromAddress": "no-reply@example.com",
    "fromName": "System Portal",
}

#: A valid request body per operation, where one needs no id of existing data (the examples
#: phase of schemathesis sends them; the others name records by id).
REQUEST_EXAMPLES: dict[str, Any] = {
    # The sandbox's published demo administrator (sandbox-contract.md).
    "auth.login_initiate": {"email": "admin@sandbox.test", "password": "Sandbox-Admin-2026!"},
    "security.ip_whitelist_set": {"ips": ["203.0.113.0/24", "198.51.100.23", "2001:db8::/32"]},
    "accounts.query": {
        "accountStatus": 35010101,
        "name": "an",
        "page": 0,
        "size": 20,
        "sort": "accountName,asc",
    },
    "invitations.create": {
        "inviteeEmail": "new.colleague@example.com",
        "message": "Welcome to the team!",
        "expirationDays": 7,
    },
    "portals.create": {
        "portalType": 10010102,
        "domain": "tenant-demo.sandbox.test",
        "remark": "Demo portal",
    },
    "notifications.channel_types_query": {"enabledOnly": True, "page": 1, "size": 20},
    "notifications.channel_types_create": {
        "typeCode": "PUSH",
        "typeName": "Push",
        "typeDescription": "Mobile push notifications",
        "iconUrl": "https://static.sandbox.test/icons/push.svg",
    },
    "notifications.channels_query": {"channelCategory": "EMAIL", "activeOnly": True},
    "notifications.channels_create": {
        "channelName": "Relay mail",
        "channelCategory": "EMAIL",
        "config": _SMTP_EXAMPLE,
        "description": "A second mail relay",
    },
    "notifications.validate_smtp": _SMTP_EXAMPLE,
    "notifications.validate_imap": {
        "host": "imap.example.com",
        "port": 993,
        "security": "TLS",
        "username": "notifications@example.com",
        "password": "app-password",
    },
}

#: What the sealed request of a Secure Channel operation carries (its plaintext).
SEALED_REQUESTS: dict[str, Schema] = {
    "auth.token_refresh": record({"refreshToken": strict_text(512)}),
    "auth.password_reset": record({"token": strict_text(512), "newPassword": _NEW_PASSWORD}),
    "auth.password_change": record(
        {"currentPassword": _PASSWORD, "newPassword": _NEW_PASSWORD},
    ),
    "auth.password_init": record({"sessionId": strict_text(512), "password": _NEW_PASSWORD}),
    "secure_channel.session_create": {"description": "Any JSON ({} expected)."},
    "secure_channel.session_close": {"description": "Any JSON ({} expected)."},
}

# -- success data ------------------------------------------------------------------------------

_SUCCESS_MESSAGE = record({"success": {"const": True}, "message": {"type": "string"}})
_TOKEN_PAIR: dict[str, Schema] = {
    "accessToken": {"type": "string", "minLength": 1},
    "refreshToken": {"type": "string", "minLength": 1},
    "expiresIn": integer(1),
}
_SIGN_IN_STATE: dict[str, Schema] = {
    "accountStatus": nullable(ref("EnumItem")),
    "pendingApproval": {"type": "boolean"},
}


def _page_a(item: Schema) -> Schema:
    return record({"items": array(item), "pagination": ref("PaginationA")})


def _account_page(shape: AccountQueryShape) -> Schema:
    if shape == "accounts":
        return record(
            {
                "accounts": array(ref("Account"), maxItems=MAX_PAGE_SIZE),
                "totalElements": integer(0),
                "totalPages": integer(0),
                "currentPage": integer(0),
                "pageSize": integer(1, MAX_PAGE_SIZE),
            }
        )
    return record(
        {
            "content": array(ref("Account"), maxItems=MAX_PAGE_SIZE),
            "totalElements": integer(0),
            "totalPages": integer(0),
            "page": integer(0),
            "size": integer(1, MAX_PAGE_SIZE),
        }
    )


_NULL: Schema = {"type": "null"}

#: ``data`` of the success envelope, per operation (the account query is added per app).
SUCCESS_DATA: dict[str, Schema] = {
    "auth.login_initiate": obj(
        {
            "sessionId": {"type": "string", "minLength": 1},
            "mfaMethods": array(ref("EnumItem"), minItems=1),
            "expiresIn": integer(1),
            **_SIGN_IN_STATE,
        },
        ("sessionId", "mfaMethods", "expiresIn", "accountStatus", "pendingApproval"),
    ),
    "auth.mfa_send": record(
        {
            "sent": {"type": "boolean"},
            "cooldownSeconds": integer(0),
            "codeExpiresIn": integer(1),
        }
    ),
    "auth.login_complete": obj(
        {**_TOKEN_PAIR, **_SIGN_IN_STATE},
        ("accessToken", "refreshToken", "expiresIn", "accountStatus", "pendingApproval"),
    ),
    "auth.logout": record(
        {"success": {"type": "boolean"}, "terminatedSessions": integer(0)},
    ),
    "auth.token_refresh": obj(_TOKEN_PAIR, ("accessToken", "refreshToken", "expiresIn")),
    "auth.password_forgot": _SUCCESS_MESSAGE,
    "auth.password_reset": _SUCCESS_MESSAGE,
    "auth.password_change": _SUCCESS_MESSAGE,
    "auth.password_init": record(
        {
            "bizId": {"type": "string"},
            "email": {"type": "string"},
            "status": {"type": "integer", "enum": values_of(ACCOUNT_STATUS)},
        }
    ),
    "auth.profile": ref("Profile"),
    "secure_channel.public_key": record(
        {
            "keyId": {"type": "string", "minLength": 1, "maxLength": 255},
            "publicKey": {"type": "string", "pattern": "^[A-Za-z0-9+/]+={0,2}$"},
            "algorithm": {"type": "string", "enum": list(sc.ALGORITHMS)},
        }
    ),
    "secure_channel.session_create": record(
        {"sessionId": {"type": "string", "minLength": 1}, "expiresIn": integer(1)},
    ),
    "secure_channel.session_close": _NULL,
    "security.ip_whitelist_get": ref("IpWhitelist"),
    "security.ip_whitelist_set": ref("IpWhitelist"),
    "security.ip_whitelist_enable": ref("IpWhitelist"),
    "security.ip_whitelist_disable": ref("IpWhitelist"),
    "security.mfa_list": array(ref("MfaSetting")),
    "security.backup_codes_summary": record(
        {"remainingCount": integer(0), "totalGenerated": integer(0)},
    ),
    "security.backup_codes_generate": record(
        {
            "codes": array(
                {"type": "string", "pattern": "^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$"},
                minItems=1,
            ),
            "remainingCount": integer(0),
            "totalGenerated": integer(0),
            "generatedAt": _TIME,
        }
    ),
    "security.otp_revoke": array(ref("MfaSetting")),
    "security.sessions": array(ref("Session")),
    "security.sessions_config": ref("SessionConfig"),
    "security.login_history": _page_a(ref("LoginHistoryItem")),
    "accounts.get": ref("Account"),
    "accounts.status": record(
        {
            "userBizId": {"type": "string"},
            "email": {"type": "string"},
            "displayName": {"type": "string"},
            "status": {"type": "string", "enum": codes_of(ACCOUNT_STATUS)},
        }
    ),
    "accounts.password_reset": record(
        {"userBizId": {"type": "string"}, "email": {"type": "string"}, "sent": {"const": True}},
    ),
    "accounts.update": ref("Account"),
    "invitations.list": array(ref("Invitation")),
    "invitations.create": ref("Invitation"),
    "invitations.cancel": ref("Invitation"),
    "invitations.own": array(ref("Invitation")),
    "roles.list": array(ref("Role")),
    "roles.get": ref("Role"),
    "roles.delete": _NULL,
    "portals.create": ref("Portal"),
    "notifications.channel_types_query": _page_a(ref("ChannelType")),
    **{
        f"notifications.channel_types_{verb}": ref("ChannelType")
        for verb in ("create", "update", "enable", "disable")
    },
    "notifications.channel_types_delete": _NULL,
    "notifications.channels_query": _page_a(ref("Channel")),
    **{
        f"notifications.channels_{verb}": ref("Channel")
        for verb in ("create", "update", "activate", "deactivate")
    },
    "notifications.channels_delete": _NULL,
    "notifications.validate_smtp": ref("MailServerCheck"),
    "notifications.validate_imap": ref("MailServerCheck"),
}


def _constant_item(op_id: str) -> Schema:
    name = op_id.split(".", 1)[1]
    return {
        "countries": ref("CountryItem"),
        "timezones": ref("TimezoneItem"),
        "us_states": ref("UsStateItem"),
    }.get(name, ref("EnumItem"))


# -- errors ------------------------------------------------------------------------------------

C = Code
_NO_TOKEN = (C.TOKEN_MISSING, C.TOKEN_INVALID)
#: HTTP status -> the error codes an operation answers with it.
Errors = dict[int, tuple[str, ...]]


def _merge(*parts: Errors) -> Errors:
    result: dict[int, list[str]] = {}
    for part in parts:
        for status, codes in part.items():
            bucket = result.setdefault(status, [])
            bucket.extend(c for c in codes if c not in bucket)
    return {status: tuple(codes) for status, codes in sorted(result.items())}


#: Errors of the operations beyond the common ones (access code, client hash, token,
#: workspace and permission, body), by HTTP status.
SPECIFIC_ERRORS: dict[str, Errors] = {
    "auth.login_initiate": {401: (C.INVALID_CREDENTIALS,), 429: (C.RATE_LIMITED,)},
    "auth.mfa_send": {404: (C.SESSION_NOT_FOUND,), 429: (C.MFA_SEND_COOLDOWN,)},
    "auth.login_complete": {400: (C.MFA_CODE_INVALID,), 404: (C.SESSION_NOT_FOUND,)},
    "auth.password_forgot": {401: (C.SC_SESSION_INVALID,), 429: (C.RATE_LIMITED,)},
    "secure_channel.session_create": {400: (C.SC_KEY_UNKNOWN, C.SC_DECRYPTION_FAILED)},
    "accounts.get": {404: (C.NOT_FOUND,)},
    "accounts.status": {404: (C.NOT_FOUND,), 429: (C.RATE_LIMITED,)},
    "accounts.password_reset": {404: (C.NOT_FOUND,), 429: (C.RATE_LIMITED,)},
    "accounts.update": {404: (C.NOT_FOUND,), 429: (C.RATE_LIMITED,)},
    "invitations.create": {429: (C.RATE_LIMITED,)},
    "invitations.cancel": {429: (C.RATE_LIMITED,)},
    "roles.get": {404: (C.NOT_FOUND,)},
    "roles.delete": {
        404: (C.NOT_FOUND,),
        409: (C.OWNER_ROLE_PROTECTED, C.ROLE_IN_USE),
    },
    "portals.create": {404: (C.NOT_FOUND_NUMERIC,)},
    "sandbox.totp": {404: (C.NOT_FOUND,)},
    "sandbox.clock_advance": {404: (C.NOT_FOUND,)},
    "sandbox.rotate_key": {404: (C.NOT_FOUND,)},
}

#: Errors of the sealed operations found before the body is opened (plain JSON).
_CHANNEL_PLAIN: Errors = {
    400: (C.INVALID_PARAMETER, C.SC_DECRYPTION_FAILED, C.SC_REPLAY_DETECTED),
    401: (C.SC_SESSION_INVALID,),
}
#: Errors the sealed operations answer sealed (after the body is opened), by HTTP status.
SEALED_ERRORS: dict[str, Errors] = {
    "auth.token_refresh": {
        400: (C.INVALID_PARAMETER,),
        401: (C.REFRESH_TOKEN_INVALID,),
        404: (C.SESSION_NOT_FOUND,),
        429: (C.RATE_LIMITED,),
    },
    "auth.password_reset": {400: (C.INVALID_PARAMETER, C.PASSWORD_RESET_TOKEN_INVALID)},
    "auth.password_change": {
        400: (C.INVALID_PARAMETER, C.CURRENT_PASSWORD_INCORRECT),
        401: _NO_TOKEN,
    },
    "auth.password_init": {400: (C.INVALID_PARAMETER,)},
    "secure_channel.session_close": {},
}

#: Operations whose validation errors answer the numeric code 4000 (portals, section 4.8).
_NUMERIC_VALIDATION = frozenset({"portals.create"})


def plain_errors(op: Operation) -> Errors:
    """The plain JSON error answers of ``op``, by HTTP status."""
    parts: list[Errors] = []
    if op.path.startswith("/web/v1/system/"):
        parts.append({403: (C.PERMISSION_DENIED,)})
    if op.auth is Auth.PRE_LOGIN:
        parts.append({400: (C.INVALID_PARAMETER,)})
    if op.channel in (Channel.ENCRYPTED, Channel.SESSION) and op.method == "POST":
        parts.append(_CHANNEL_PLAIN if op.id != "secure_channel.session_create" else {})
        parts.append({400: (C.INVALID_PARAMETER, C.SC_DECRYPTION_FAILED)})
    if op.channel is Channel.HEADERS:
        parts.append({400: (C.INVALID_PARAMETER,)})
    if op.id == "auth.profile":
        parts.append({401: (C.UNAUTHORIZED, C.TOKEN_INVALID)})
    elif op.auth in (Auth.BEARER, Auth.OPTIONAL) and op.channel is not Channel.ENCRYPTED:
        parts.append({401: _NO_TOKEN})
    if _workspace_scoped(op):
        parts.append({403: (C.PERMISSION_DENIED,)})
    if op.id in REQUEST_BODIES or op.id in QUERY_PARAMETERS:
        code = C.VALIDATION_NUMERIC if op.id in _NUMERIC_VALIDATION else C.INVALID_PARAMETER
        parts.append({400: (code,)})
    parts.append(SPECIFIC_ERRORS.get(op.id, {}))
    return _merge(*parts)


def _workspace_scoped(op: Operation) -> bool:
    """True for the operations that read X-Workspace-Id (``deps.require``)."""
    if op.auth is not Auth.BEARER or op.channel is not Channel.NONE:
        return False
    if op.id in ("auth.profile", "invitations.own"):
        return False
    return not (op.area == "security" and not op.mutating)


# -- parameters --------------------------------------------------------------------------------

_LANGUAGE = header(
    "Accept-Language",
    {"type": "string"},
    description="en, zh, zh-Hant, ja or vi (q-values and regions tolerated; default en); "
    "localizes labels and messages.",
)
_REQUEST_ID = header(
    "X-Request-Id",
    {"type": "string"},
    description="Echoed back; a fresh UUID is answered instead when absent or not printable "
    "ASCII of at most 128 characters.",
)
_CLIENT_HASH = header(
    "X-Client-Hash",
    {"type": "string", "minLength": 1, "pattern": r"\S"},
    required=True,
    description="Client fingerprint (pre-login calls).",
)
_WORKSPACE = header(
    "X-Workspace-Id",
    {"type": "string"},
    description="A workspace the caller is an ACTIVE member of (default: the primary one).",
)
_SC_VERSION = header("X-SC-Version", {"type": "string", "enum": [sc.HEADER_VERSION]}, required=True)
_SC_SESSION = header(
    "X-SC-Session-Id",
    {"type": "string", "minLength": 1, "maxLength": 256, "pattern": r"\S"},
    required=True,
    description="A live Secure Channel session.",
)
_CHALLENGE = header(
    "X-Challenge-Token",
    {"type": "string", "minLength": 1, "maxLength": 4096, "pattern": r"\S"},
    required=True,
    description="Bot-challenge token (any non-empty one passes, except sandbox-challenge-fail).",
)
_PAGE_QUERY = query(
    "page", {"type": "integer", "minimum": 0, "maximum": 10_000_001}, "1-based (0 reads as 1)."
)
_SIZE_QUERY = query(
    "size", {"type": "integer", "minimum": 1}, "Default 20; above 100 reads as 100."
)
_HISTORY_SORT = sort_field("loginTime", "clientIp", "loginResult")
_MOMENT = {
    "type": "string",
    "description": "ISO 8601 (naive means UTC) or epoch milliseconds; blank: no bound.",
    "examples": ["2026-01-01T00:00:00Z", "1767225600000"],
}

#: Query parameters, per operation.
QUERY_PARAMETERS: dict[str, list[Schema]] = {
    "security.login_history": [
        _PAGE_QUERY,
        _SIZE_QUERY,
        query(
            "result",
            {
                "type": "string",
                "pattern": rf"^(\s*[1-3]?\s*|{'|'.join(map(caseless, LOGIN_RESULT.codes))})$",
            },
            "Login result: value (1, 2, 3) or code (SUCCESS, FAILURE, BLOCKED; any case).",
        ),
        query("from", _MOMENT, "Earliest loginTime (inclusive)."),
        query("to", _MOMENT, "Latest loginTime (inclusive; an ISO time covers its second)."),
        query("sort", array(_HISTORY_SORT), "field or field,asc|desc; repeatable."),
    ],
    "invitations.own": [
        query(
            "statuses",
            array(value_enum(INVITATION_STATUS)),
            "Invitation status values; repeated or comma-separated. Without it, all.",
        )
    ],
    "accounts.query": [query("sort", array(_ACCOUNT_SORT), "Repeatable; body sorts follow.")],
    "roles.delete": [
        query("workspaceId", {"type": "string", "maxLength": 64}),
        query("roleId", {"type": "string", "maxLength": 64}),
    ],
    "notifications.channel_types_query": [_PAGE_QUERY, _SIZE_QUERY],
    "notifications.channels_query": [_PAGE_QUERY, _SIZE_QUERY],
}

PATH_PARAMETERS: dict[str, list[Schema]] = {
    "accounts.get": [path_param("userBizId", "The account's bizId.")],
    "roles.get": [path_param("roleBizId", "The role's bizId (of the caller's workspace).")],
}


def header_parameters(op: Operation) -> list[Schema]:
    """The headers ``op`` reads, beyond Authorization and the portal access code."""
    params = [_LANGUAGE, _REQUEST_ID]
    if op.auth is Auth.PRE_LOGIN:
        params.append(_CLIENT_HASH)
    if _workspace_scoped(op):
        params.append(_WORKSPACE)
    if op.channel is Channel.HEADERS:
        params += [_SC_VERSION, _SC_SESSION, _CHALLENGE]
    elif op.channel in (Channel.ENCRYPTED, Channel.SESSION) and op.method == "POST":
        params.append(_SC_VERSION)
        if op.id != "secure_channel.session_create":
            params.append(_SC_SESSION)
    return params


# -- the sandbox-only endpoints ----------------------------------------------------------------

#: (method, path) -> id, data, query parameters, body (schema, required) of the endpoints
#: outside /web/v1.
TOOLS: dict[tuple[str, str], tuple[str, Schema, list[Schema], tuple[Schema, bool] | None]] = {
    ("GET", "/sandbox/mailbox"): (
        "sandbox.mailbox",
        array(ref("Mail"), maxItems=200),
        [
            {
                **query("to", {"type": "string", "minLength": 1}, "The address."),
                "required": True,
                "example": "admin@sandbox.test",
            }
        ],
        None,
    ),
    ("GET", "/sandbox/totp"): (
        "sandbox.totp",
        record(
            {
                "secret": {"type": "string", "pattern": "^[A-Z2-7]+=*$"},
                "code": {"type": "string", "pattern": "^[0-9]{6}$"},
            }
        ),
        [
            {
                **query("email", {"type": "string", "minLength": 1}, "The account."),
                "required": True,
                "example": "admin@sandbox.test",
            }
        ],
        None,
    ),
    ("POST", "/sandbox/clock/advance"): (
        "sandbox.clock_advance",
        record({"now": _TIME}),
        [],
        (
            record(
                {"seconds": {"type": "number", "minimum": 0, "maximum": 10 * 365 * 86400}},
                extra=True,
            ),
            True,
        ),
    ),
    ("POST", "/sandbox/secure-channel/rotate-key"): (
        "sandbox.rotate_key",
        record({"keyId": {"type": "string", "minLength": 1}}),
        [],
        None,
    ),
}

# -- envelopes and answers ---------------------------------------------------------------------

_X_REQUEST_ID = {
    "X-Request-Id": {
        "description": "The request's id (echoed, or made up).",
        "required": True,
        "schema": {"type": "string", "minLength": 1, "maxLength": 128},
    }
}


def success_envelope(data: Schema, *, message: str = "SUCCESS") -> Schema:
    """The success envelope of section 2.1 around ``data``."""
    return record(
        {
            "version": {"const": ENVELOPE_VERSION},
            "timestamp": {"type": "integer", "minimum": 0},
            "success": {"const": True},
            "code": {"const": SUCCESS_CODE},
            "message": {"type": "string", "enum": [message]},
            "data": data,
        }
    )


def error_envelope(codes: tuple[str, ...] | None = None) -> Schema:
    """The error envelope (section 7) with one of ``codes`` (any code when None)."""
    code: Schema = {"type": "string", "minLength": 1, "not": {"const": SUCCESS_CODE}}
    if codes is not None:
        code = {"type": "string", "enum": list(codes)}
    return record(
        {
            "version": {"const": ENVELOPE_VERSION},
            "timestamp": {"type": "integer", "minimum": 0},
            "success": {"const": False},
            "code": code,
            "message": {"type": "string"},
            "data": {"type": "null"},
        }
    )


_REASONS = {
    400: "Invalid request",
    401: "Not signed in, or the token or session is invalid",
    403: "Access code or permission missing",
    404: "Not found",
    409: "Conflict",
    429: "Too many requests",
}


def _answer(description: str, content: dict[str, Schema]) -> Schema:
    return {"description": description, "headers": copy.deepcopy(_X_REQUEST_ID), "content": content}


def _sealed_content(plaintext: Schema | None) -> dict[str, Schema]:
    media: Schema = {"schema": ref("SealedBody")}
    if plaintext is not None:
        media[PLAINTEXT_KEY] = plaintext
    return {SEALED_JSON: media}


def responses(op_id: str, data: Schema, plain: Errors, sealed: Errors | None) -> dict[str, Schema]:
    """Every answer of an operation, by HTTP status."""
    result: dict[str, Schema] = {}
    if sealed is None:
        result["200"] = _answer("Success", {JSON: {"schema": success_envelope(data)}})
    else:
        result["200"] = _answer(
            "Success: a sealed (type 129) success envelope",
            _sealed_content(success_envelope(data)),
        )
    statuses = sorted(set(plain) | set(sealed or {}))
    for status in statuses:
        reason = _REASONS.get(status, "Error")
        plain_codes, sealed_codes = plain.get(status), (sealed or {}).get(status)
        if sealed_codes is None:
            assert plain_codes is not None
            result[str(status)] = _answer(
                f"{reason}: {', '.join(plain_codes)}",
                {JSON: {"schema": error_envelope(plain_codes)}},
            )
            continue
        schemas: list[Schema] = [ref("SealedBody")]
        if plain_codes:
            schemas.append(error_envelope(plain_codes))
        described = ", ".join((*(plain_codes or ()), *(f"{c} (sealed)" for c in sealed_codes)))
        media: Schema = {"schema": {"anyOf": schemas} if len(schemas) > 1 else schemas[0]}
        media[PLAINTEXT_KEY] = error_envelope(sealed_codes)
        result[str(status)] = _answer(f"{reason}: {described}", {JSON: media})
    return result


# -- links: where the ids an operation takes come from -------------------------------------------


def _by_body(target: str, **fields: str) -> Schema:
    """A link filling body fields of ``target`` from the answer (runtime expressions)."""
    return {
        "operationId": target,
        "requestBody": {k: f"$response.body#/data/{v}" for k, v in fields.items()},
    }


def _by_parameter(target: str, name: str, pointer: str) -> Schema:
    return {"operationId": target, "parameters": {name: f"$response.body#/data/{pointer}"}}


def links(shape: AccountQueryShape) -> dict[str, dict[str, Schema]]:
    """OpenAPI links of the success answers, by operation: the record an answer names, and the
    operations that take its id (schemathesis follows them in its stateful phase)."""
    types = "notifications.channel_types_"
    channels = "notifications.channels_"
    account = f"{'accounts' if shape == 'accounts' else 'content'}/0/bizId"
    by_type = {
        verb.capitalize(): _by_body(types + verb, bizId="bizId")
        for verb in ("update", "enable", "disable", "delete")
    }
    by_channel = {
        verb.capitalize(): _by_body(channels + verb, bizId="bizId")
        for verb in ("update", "activate", "deactivate", "delete")
    }
    return {
        types + "create": {
            **by_type,
            "CreateChannel": _by_body(channels + "create", channelCategory="typeCode"),
        },
        types + "query": {
            verb.capitalize(): _by_body(types + verb, bizId="items/0/bizId")
            for verb in ("update", "enable", "disable", "delete")
        },
        channels + "create": by_channel,
        channels + "query": {
            verb.capitalize(): _by_body(channels + verb, bizId="items/0/bizId")
            for verb in ("update", "activate", "deactivate", "delete")
        },
        "invitations.create": {"Cancel": _by_body("invitations.cancel", invitationBizId="bizId")},
        "auth.login_initiate": {
            "SendCode": _by_body("auth.mfa_send", sessionId="sessionId"),
            "Complete": _by_body("auth.login_complete", sessionId="sessionId"),
        },
        "invitations.list": {"Cancel": _by_body("invitations.cancel", invitationBizId="0/bizId")},
        "accounts.query": {
            "Get": _by_parameter("accounts.get", "userBizId", account),
            "Update": _by_body("accounts.update", userBizId=account),
            "Status": _by_body("accounts.status", userBizId=account),
            "PasswordReset": _by_body("accounts.password_reset", userBizId=account),
        },
        "roles.list": {
            "Get": _by_parameter("roles.get", "roleBizId", "0/bizId"),
            "Delete": _by_body("roles.delete", roleId="2/bizId"),
        },
    }


LINKS: dict[str, dict[str, dict[str, Schema]]] = {
    shape: links(shape) for shape in ("accounts", "content")
}

# -- the description ---------------------------------------------------------------------------

SECURITY_SCHEMES: dict[str, Schema] = {
    "portalAccessCode": {
        "type": "apiKey",
        "in": "header",
        "name": "X-PORTAL-ACCESS-CODE",
        "description": "Portal access code: every /web/v1/system/ call (403 "
        "ACCESS.PERMISSION_DENIED without it).",
    },
    "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
        "description": "Access token from login/complete or token/refresh.",
    },
}


def security_of(op: Operation) -> list[dict[str, list[str]]]:
    """The security requirement of ``op``."""
    needs: dict[str, list[str]] = {}
    if op.path.startswith("/web/v1/system/"):
        needs["portalAccessCode"] = []
    if op.auth in (Auth.BEARER, Auth.OPTIONAL) and op.channel is not Channel.ENCRYPTED:
        needs["bearerAuth"] = []
    return [needs] if needs else []


def request_body(op_id: str, sealed: bool) -> Schema | None:
    """The request body object of an operation, or None."""
    if sealed:
        plaintext = SEALED_REQUESTS[op_id]
        kind = 1 if op_id == "secure_channel.session_create" else 2
        return {
            "required": True,
            "description": f"A sealed type-{kind} frame; Content-Type {SEALED_JSON}.",
            "content": {JSON: {"schema": ref("SealedBody"), PLAINTEXT_KEY: plaintext}},
        }
    if op_id not in REQUEST_BODIES:
        return None
    schema, required = REQUEST_BODIES[op_id]
    # An optional body may also be JSON null: the sandbox reads null, {} and no body alike.
    media: Schema = {"schema": schema if required else nullable(schema)}
    if op_id in REQUEST_EXAMPLES:
        media["example"] = copy.deepcopy(REQUEST_EXAMPLES[op_id])
    return {"required": required, "content": {JSON: media}}


def data_schema(op_id: str, shape: AccountQueryShape) -> Schema:
    """``data`` of the success envelope of an operation."""
    if op_id == "accounts.query":
        return _account_page(shape)
    if op_id.startswith("constants."):
        return array(_constant_item(op_id), minItems=1)
    return SUCCESS_DATA[op_id]


def _describe_operation(target: Schema, op: Operation, shape: AccountQueryShape) -> None:
    sealed = op.channel in (Channel.ENCRYPTED, Channel.SESSION) and op.method == "POST"
    target["operationId"] = op.id
    target["tags"] = [op.area]
    target["parameters"] = [
        *PATH_PARAMETERS.get(op.id, []),
        *QUERY_PARAMETERS.get(op.id, []),
        *header_parameters(op),
    ]
    body = request_body(op.id, sealed)
    if body is not None:
        target["requestBody"] = body
    else:
        target.pop("requestBody", None)
    target["security"] = security_of(op)
    target["responses"] = responses(
        op.id,
        data_schema(op.id, shape),
        plain_errors(op),
        SEALED_ERRORS.get(op.id, {}) if sealed else None,
    )
    if op.id in LINKS[shape]:
        target["responses"]["200"]["links"] = copy.deepcopy(LINKS[shape][op.id])
    if sealed:
        target["x-secure-channel"] = "sealed"
    if op.auth is Auth.PUBLIC:
        target["description"] = (target.get("description") or "") + " Public: no token."
    if op.id in BODYLESS:
        target["description"] = (target.get("description") or "") + " Takes no body."


def _describe_tool(target: Schema, method: str, path: str) -> None:
    op_id, data, params, body = TOOLS[(method, path)]
    target["operationId"] = op_id
    target["tags"] = ["sandbox"]
    target["parameters"] = [*params, _LANGUAGE, _REQUEST_ID]
    if body is not None:
        target["requestBody"] = {"required": body[1], "content": {JSON: {"schema": body[0]}}}
    target["security"] = []
    errors = _merge(
        {400: (C.INVALID_PARAMETER,)} if params or body else {}, SPECIFIC_ERRORS.get(op_id, {})
    )
    target["responses"] = responses(op_id, data, errors, None)


def describe(app: FastAPI, shape: AccountQueryShape = "accounts") -> Schema:
    """The OpenAPI description of the sandbox ``app`` (``shape``: the account-query shape it
    serves). Routes that are neither a registry operation nor a sandbox tool keep FastAPI's
    description."""
    spec = get_openapi(
        title="System Portal sandbox",
        version=__version__,
        description=(
            "The project's own implementation of the System Portal API (system-portal-api.md) "
            "and of Secure Channel v2 (secure-channel-profile.md). Every JSON answer is the "
            "envelope {version, timestamp, success, code, message, data}; errors carry "
            "success false and data null. Sealed bodies are {v: 2, p}; what they carry is "
            f"under {PLAINTEXT_KEY}."
        ),
        routes=app.routes,
    )
    for path, item in spec.get("paths", {}).items():
        for method, target in item.items():
            op = match(method, path)
            if op is not None and op.path == path:
                _describe_operation(target, op, shape)
            elif (method.upper(), path) in TOOLS:
                _describe_tool(target, method.upper(), path)
    spec["components"] = {
        "schemas": {**copy.deepcopy(RECORDS), **copy.deepcopy(SETTINGS)},
        "securitySchemes": copy.deepcopy(SECURITY_SCHEMES),
    }
    spec["tags"] = [{"name": area} for area in dict.fromkeys(op.area for op in OPERATIONS.values())]
    return spec


__all__ = [
    "BODYLESS",
    "PLAINTEXT_KEY",
    "REQUEST_BODIES",
    "SEALED_REQUESTS",
    "SUCCESS_DATA",
    "describe",
]
