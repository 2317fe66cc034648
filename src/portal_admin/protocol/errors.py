"""The error catalogue of section 7, plus the Secure Channel codes of the wire profile.

Codes are strings on the wire; the numeric forms (4000, 4010, 4040, 5000) arrive as strings or
as integers, so :func:`lookup` accepts both. Where the specification gives no HTTP status
("-"), the status chosen here is recorded in ``docs/protocol.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Category(StrEnum):
    """What an error means to a caller; the client maps each to an exception class."""

    AUTHENTICATION = "authentication"
    PERMISSION = "permission"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    RATE_LIMITED = "rate_limited"
    VALIDATION = "validation"
    SECURE_CHANNEL = "secure_channel"
    SERVER = "server"


@dataclass(frozen=True, slots=True)
class ErrorSpec:
    """One catalogued error code."""

    code: str
    http_status: int
    category: Category
    meaning: str
    #: True where the specification gives the HTTP status; False where the project chose it.
    status_stated: bool = True


SUCCESS_CODE = "2000"

_C = Category
_CATALOGUE: tuple[ErrorSpec, ...] = (
    ErrorSpec("AUTH.INVALID_CREDENTIALS", 401, _C.AUTHENTICATION, "wrong email or password"),
    ErrorSpec("AUTH.SESSION_NOT_FOUND", 404, _C.NOT_FOUND, "login or refresh session unknown"),
    ErrorSpec("AUTH.MFA_SEND_COOLDOWN", 429, _C.RATE_LIMITED, "resend before cooldown ends", False),
    ErrorSpec("AUTH.MFA_CODE_INVALID", 400, _C.VALIDATION, "wrong MFA code", False),
    ErrorSpec(
        "AUTH.PASSWORD_RESET_TOKEN_INVALID",
        400,
        _C.VALIDATION,
        "reset token expired, reused or wrong",
        False,
    ),
    ErrorSpec(
        "AUTH.CURRENT_PASSWORD_INCORRECT",
        400,
        _C.VALIDATION,
        "current password wrong in change",
        False,
    ),
    ErrorSpec(
        "AUTH.REFRESH_TOKEN_INVALID",
        401,
        _C.AUTHENTICATION,
        "refresh token invalid or expired",
        False,
    ),
    ErrorSpec("ACCESS.TOKEN_MISSING", 401, _C.AUTHENTICATION, "no bearer token"),
    ErrorSpec(
        "ACCESS.UNAUTHORIZED", 401, _C.AUTHENTICATION, "profile call without stored token", False
    ),
    ErrorSpec("ACCESS.PERMISSION_DENIED", 403, _C.PERMISSION, "access denied"),
    ErrorSpec("VALIDATION.INVALID_PARAMETER", 400, _C.VALIDATION, "invalid parameters"),
    ErrorSpec(
        "REQUEST.RATE_LIMITED", 429, _C.RATE_LIMITED, "retry inside the rate-limit window", False
    ),
    ErrorSpec("RESOURCE.NOT_FOUND", 404, _C.NOT_FOUND, "unknown resource"),
    ErrorSpec("WORKSPACE.OWNER_ROLE_PROTECTED", 409, _C.CONFLICT, "deleting the OWNER role"),
    ErrorSpec("WORKSPACE.ROLE_IN_USE", 409, _C.CONFLICT, "deleting a role that has members"),
    ErrorSpec("4000", 400, _C.VALIDATION, "validation error (numeric form)", False),
    ErrorSpec("4010", 401, _C.AUTHENTICATION, "invalid or expired token (numeric form)"),
    ErrorSpec("4040", 404, _C.NOT_FOUND, "not found (numeric form)"),
    ErrorSpec("5000", 500, _C.SERVER, "internal server error"),
    # Secure Channel v2 (secure-channel-profile.md).
    ErrorSpec(
        "SECURE_CHANNEL.SESSION_INVALID",
        401,
        _C.SECURE_CHANNEL,
        "session unknown, expired, evicted, closed or bound to another account",
    ),
    ErrorSpec("SECURE_CHANNEL.KEY_UNKNOWN", 400, _C.SECURE_CHANNEL, "keyId is not the active key"),
    ErrorSpec(
        "SECURE_CHANNEL.DECRYPTION_FAILED",
        400,
        _C.SECURE_CHANNEL,
        "wrong magic, version or type; RSA unwrap or GCM authentication failed",
    ),
    ErrorSpec(
        "SECURE_CHANNEL.REPLAY_DETECTED",
        400,
        _C.SECURE_CHANNEL,
        "an IV already used in this session",
    ),
)

CATALOGUE: dict[str, ErrorSpec] = {spec.code: spec for spec in _CATALOGUE}


class Code(StrEnum):
    """Named constants for every catalogued code."""

    INVALID_CREDENTIALS = "AUTH.INVALID_CREDENTIALS"
    SESSION_NOT_FOUND = "AUTH.SESSION_NOT_FOUND"
    MFA_SEND_COOLDOWN = "AUTH.MFA_SEND_COOLDOWN"
    MFA_CODE_INVALID = "AUTH.MFA_CODE_INVALID"
    PASSWORD_RESET_TOKEN_INVALID = "AUTH.PASSWORD_RESET_TOKEN_INVALID"
    CURRENT_PASSWORD_INCORRECT = "AUTH.CURRENT_PASSWORD_INCORRECT"
    REFRESH_TOKEN_INVALID = "AUTH.REFRESH_TOKEN_INVALID"
    TOKEN_MISSING = "ACCESS.TOKEN_MISSING"
    UNAUTHORIZED = "ACCESS.UNAUTHORIZED"
    PERMISSION_DENIED = "ACCESS.PERMISSION_DENIED"
    INVALID_PARAMETER = "VALIDATION.INVALID_PARAMETER"
    RATE_LIMITED = "REQUEST.RATE_LIMITED"
    NOT_FOUND = "RESOURCE.NOT_FOUND"
    OWNER_ROLE_PROTECTED = "WORKSPACE.OWNER_ROLE_PROTECTED"
    ROLE_IN_USE = "WORKSPACE.ROLE_IN_USE"
    VALIDATION_NUMERIC = "4000"
    TOKEN_INVALID = "4010"
    NOT_FOUND_NUMERIC = "4040"
    INTERNAL = "5000"
    SC_SESSION_INVALID = "SECURE_CHANNEL.SESSION_INVALID"
    SC_KEY_UNKNOWN = "SECURE_CHANNEL.KEY_UNKNOWN"
    SC_DECRYPTION_FAILED = "SECURE_CHANNEL.DECRYPTION_FAILED"
    SC_REPLAY_DETECTED = "SECURE_CHANNEL.REPLAY_DETECTED"


def normalize_code(code: object) -> str:
    """The code as a string: ``4010`` and ``"4010"`` are the same code."""
    if isinstance(code, bool):
        return str(code)
    if isinstance(code, int):
        return str(code)
    if isinstance(code, float) and code.is_integer():
        return str(int(code))
    return str(code).strip() if code is not None else ""


def lookup(code: object) -> ErrorSpec | None:
    """The catalogued error for ``code`` (string or numeric), or None when unknown."""
    return CATALOGUE.get(normalize_code(code))


def category_for(code: object, http_status: int | None = None) -> Category:
    """The category of ``code``; unknown codes fall back on the HTTP status."""
    spec = lookup(code)
    if spec is not None:
        return spec.category
    return category_for_status(http_status)


def category_for_status(http_status: int | None) -> Category:
    """The category an HTTP status implies when the code itself is not catalogued."""
    if http_status in (401,):
        return Category.AUTHENTICATION
    if http_status == 403:
        return Category.PERMISSION
    if http_status == 404:
        return Category.NOT_FOUND
    if http_status == 409:
        return Category.CONFLICT
    if http_status == 429:
        return Category.RATE_LIMITED
    if http_status is not None and 400 <= http_status < 500:
        return Category.VALIDATION
    return Category.SERVER
