"""The 67 operations the specification states, described once.

Each operation has a stable id (``area.name``), its HTTP method and path, whether it changes
anything on the server (the read-only allowlist is built from this, not from HTTP methods:
several queries are POSTs), whether it needs a bearer token, and how it uses the Secure
Channel. Paths with ``{name}`` placeholders take a path parameter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import quote

from .enums import CONSTANT_PATHS
from .errors import Code

SYSTEM = "/web/v1/system"
SECURE_CHANNEL = "/web/v1/secure-channel"

#: What an id in a URL path may be: 1 to 128 ASCII letters, digits, ``-``, ``_`` and ``.``,
#: starting with a letter or digit. The specification calls ids opaque strings (``bizId``) and
#: shows none; the sandbox's are a prefix and 16 hex digits (``ACC7F3A...``), and UUIDs, numbers
#: and prefixed ids fit too. Slashes, ``?``, ``#``, ``%``, spaces, control characters, ``.`` and
#: ``..`` never do: such a value would change which path or query the request goes to.
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


class InvalidPathParameter(ValueError):
    """A path parameter that cannot be an id (see :data:`ID_PATTERN`), or one missing."""

    def __init__(self, name: str, value: object) -> None:
        shown = (
            repr(value[:40] + ("..." if len(value) > 40 else ""))
            if isinstance(value, str)
            else type(value).__name__
        )
        super().__init__(f"{name} {shown} is not an id (1 to 128 letters, digits, '-', '_', '.')")
        self.name = name
        self.value = value


def is_id(value: object) -> bool:
    """True when ``value`` can go into a URL path as an id (:data:`ID_PATTERN`)."""
    return isinstance(value, str) and ID_PATTERN.fullmatch(value) is not None


class Auth(StrEnum):
    """What an operation needs to be called."""

    PUBLIC = "public"  # constants: no token, no client hash requirement
    PRE_LOGIN = "pre_login"  # X-Client-Hash required, no token
    OPTIONAL = "optional"  # logout: a token when there is one
    BEARER = "bearer"


class Channel(StrEnum):
    """How an operation uses the Secure Channel."""

    NONE = "none"
    ENCRYPTED = "encrypted"  # type-2 body, type-129 answer
    HEADERS = "headers"  # plain body with X-SC-Session-Id and X-SC-Version (forgot)
    SESSION = "session"  # the channel's own session operations


@dataclass(frozen=True, slots=True)
class Operation:
    """One stated operation."""

    id: str
    method: str
    path: str
    mutating: bool
    auth: Auth
    channel: Channel = Channel.NONE
    #: The permission code the caller's role must hold in the workspace (None: none needed).
    permission: str | None = None

    @property
    def invalid_code(self) -> str:
        """The code of its 400 for an invalid parameter: the numeric ``4000`` for the portals
        area (section 4.8), ``VALIDATION.INVALID_PARAMETER`` elsewhere."""
        return Code.VALIDATION_NUMERIC if self.area == "portals" else Code.INVALID_PARAMETER

    @property
    def area(self) -> str:
        """The group it belongs to (auth, security, accounts, ...)."""
        return self.id.split(".", 1)[0]

    @property
    def placeholders(self) -> tuple[str, ...]:
        """The names of its path parameters (``userBizId``, ...), in order."""
        return tuple(re.findall(r"\{(\w+)\}", self.path))

    def url_path(self, **params: str) -> str:
        """The path with its placeholders filled, each as one percent-encoded segment.

        Raises :class:`InvalidPathParameter` for a value that is not an id (:func:`is_id`) or a
        placeholder without a value; parameters the path does not name are refused too.
        """
        names = self.placeholders
        for name in names:
            if not is_id(params.get(name)):
                raise InvalidPathParameter(name, params.get(name))
        for name in params:
            if name not in names:
                raise InvalidPathParameter(name, params[name])
        return self.path.format(**{name: quote(params[name], safe="") for name in names})

    @property
    def pattern(self) -> re.Pattern[str]:
        """A regex matching concrete paths of this operation."""
        return re.compile("^" + re.sub(r"\\\{\w+\\\}", r"[^/]+", re.escape(self.path)) + "$")


def _op(
    op_id: str,
    method: str,
    path: str,
    *,
    mutating: bool,
    auth: Auth = Auth.BEARER,
    channel: Channel = Channel.NONE,
) -> Operation:
    base = SECURE_CHANNEL if op_id.startswith("secure_channel.") else SYSTEM
    return Operation(op_id, method, base + path, mutating, auth, channel, PERMISSIONS.get(op_id))


R, W = False, True  # read, write


class Perm(StrEnum):
    """Permission codes. Section 5.5 states the first three; the others are the project's."""

    USER_READ = "workspace:user:read"
    USER_WRITE = "workspace:user:write"
    ROLE_READ = "workspace:role:read"
    ROLE_WRITE = "workspace:role:write"
    INVITATION_READ = "workspace:invitation:read"
    INVITATION_WRITE = "workspace:invitation:write"
    NOTIFICATION_READ = "notification:channel:read"
    NOTIFICATION_WRITE = "notification:channel:write"
    PORTAL_WRITE = "institution:portal:write"
    SECURITY_WRITE = "account:security:write"


#: The permission each operation requires; operations not named need none beyond a token.
PERMISSIONS: dict[str, str] = {
    "accounts.query": Perm.USER_READ,
    "accounts.get": Perm.USER_READ,
    "accounts.status": Perm.USER_WRITE,
    "accounts.update": Perm.USER_WRITE,
    "accounts.password_reset": Perm.USER_WRITE,
    "roles.list": Perm.ROLE_READ,
    "roles.get": Perm.ROLE_READ,
    "roles.delete": Perm.ROLE_WRITE,
    "invitations.list": Perm.INVITATION_READ,
    "invitations.create": Perm.INVITATION_WRITE,
    "invitations.cancel": Perm.INVITATION_WRITE,
    "notifications.channel_types_query": Perm.NOTIFICATION_READ,
    "notifications.channels_query": Perm.NOTIFICATION_READ,
    "notifications.validate_imap": Perm.NOTIFICATION_WRITE,
    "notifications.validate_smtp": Perm.NOTIFICATION_WRITE,
    **{
        f"notifications.{kind}_{verb}": Perm.NOTIFICATION_WRITE
        for kind, verbs in (
            ("channel_types", ("create", "delete", "disable", "enable", "update")),
            ("channels", ("activate", "create", "deactivate", "delete", "update")),
        )
        for verb in verbs
    },
    "portals.create": Perm.PORTAL_WRITE,
    "security.ip_whitelist_set": Perm.SECURITY_WRITE,
    "security.ip_whitelist_enable": Perm.SECURITY_WRITE,
    "security.ip_whitelist_disable": Perm.SECURITY_WRITE,
    "security.backup_codes_generate": Perm.SECURITY_WRITE,
    "security.otp_revoke": Perm.SECURITY_WRITE,
}

#: What the seeded roles hold: OWNER everything, the auditor's role the reads only.
ALL_PERMISSIONS: tuple[str, ...] = tuple(p.value for p in Perm)
READ_PERMISSIONS: tuple[str, ...] = (
    Perm.USER_READ,
    Perm.ROLE_READ,
    Perm.INVITATION_READ,
    Perm.NOTIFICATION_READ,
)

_OPERATIONS: list[Operation] = [
    # 4.1 authentication
    _op("auth.login_initiate", "POST", "/auth/login/initiate", mutating=R, auth=Auth.PRE_LOGIN),
    _op("auth.mfa_send", "POST", "/auth/login/mfa/send", mutating=R, auth=Auth.PRE_LOGIN),
    _op("auth.login_complete", "POST", "/auth/login/complete", mutating=R, auth=Auth.PRE_LOGIN),
    _op("auth.logout", "POST", "/auth/logout", mutating=R, auth=Auth.OPTIONAL),
    _op(
        "auth.token_refresh",
        "POST",
        "/auth/token/refresh",
        mutating=R,
        auth=Auth.PRE_LOGIN,
        channel=Channel.ENCRYPTED,
    ),
    _op(
        "auth.password_forgot",
        "POST",
        "/auth/password/forgot",
        mutating=W,
        auth=Auth.PRE_LOGIN,
        channel=Channel.HEADERS,
    ),
    _op(
        "auth.password_reset",
        "POST",
        "/auth/password/reset",
        mutating=W,
        auth=Auth.PRE_LOGIN,
        channel=Channel.ENCRYPTED,
    ),
    _op(
        "auth.password_change",
        "POST",
        "/auth/password/change",
        mutating=W,
        channel=Channel.ENCRYPTED,
    ),
    _op(
        "auth.password_init",
        "POST",
        "/auth/password/init",
        mutating=W,
        auth=Auth.PRE_LOGIN,
        channel=Channel.ENCRYPTED,
    ),
    _op("auth.profile", "GET", "/profile", mutating=R),
    # 4.2 secure channel
    _op(
        "secure_channel.public_key",
        "GET",
        "/public-key",
        mutating=R,
        auth=Auth.PRE_LOGIN,
        channel=Channel.SESSION,
    ),
    _op(
        "secure_channel.session_create",
        "POST",
        "/session",
        mutating=R,
        auth=Auth.PRE_LOGIN,
        channel=Channel.SESSION,
    ),
    _op(
        "secure_channel.session_close",
        "POST",
        "/session/close",
        mutating=R,
        auth=Auth.PRE_LOGIN,
        channel=Channel.SESSION,
    ),
    # 4.3 security
    _op("security.ip_whitelist_get", "GET", "/security/ip-whitelist", mutating=R),
    _op("security.ip_whitelist_set", "POST", "/security/ip-whitelist", mutating=W),
    _op("security.ip_whitelist_enable", "POST", "/security/ip-whitelist/enable", mutating=W),
    _op("security.ip_whitelist_disable", "POST", "/security/ip-whitelist/disable", mutating=W),
    _op("security.mfa_list", "GET", "/security/mfa", mutating=R),
    _op("security.backup_codes_summary", "GET", "/security/mfa/backup-codes", mutating=R),
    _op(
        "security.backup_codes_generate",
        "POST",
        "/security/mfa/backup-codes/generate",
        mutating=W,
    ),
    _op("security.otp_revoke", "POST", "/security/mfa/otp/revoke", mutating=W),
    _op("security.sessions", "GET", "/security/sessions", mutating=R),
    _op("security.sessions_config", "GET", "/security/sessions/config", mutating=R),
    _op("security.login_history", "GET", "/security/sessions/history", mutating=R),
    # 4.4 accounts
    _op("accounts.query", "POST", "/accounts/admin/query", mutating=R),
    _op("accounts.get", "GET", "/accounts/admin/{userBizId}", mutating=R),
    _op("accounts.password_reset", "POST", "/accounts/admin/password/reset", mutating=W),
    _op("accounts.status", "POST", "/accounts/admin/status", mutating=W),
    _op("accounts.update", "POST", "/accounts/admin/update", mutating=W),
    # 4.6 invitations
    _op("invitations.list", "GET", "/invitations", mutating=R),
    _op("invitations.create", "POST", "/invitations", mutating=W),
    _op("invitations.cancel", "POST", "/invitations/cancel", mutating=W),
    _op("invitations.own", "GET", "/profile/invitations", mutating=R),
    # 4.7 notifications
    _op(
        "notifications.channel_types_query",
        "POST",
        "/notifications/channel-types/query",
        mutating=R,
    ),
]
for _verb in ("create", "delete", "disable", "enable", "update"):
    _OPERATIONS.append(
        _op(
            f"notifications.channel_types_{_verb}",
            "POST",
            f"/notifications/channel-types/{_verb}",
            mutating=W,
        )
    )
_OPERATIONS.append(
    _op("notifications.channels_query", "POST", "/notifications/channels/query", mutating=R)
)
for _verb in ("activate", "create", "deactivate", "delete", "update"):
    _OPERATIONS.append(
        _op(
            f"notifications.channels_{_verb}",
            "POST",
            f"/notifications/channels/{_verb}",
            mutating=W,
        )
    )
# Validation changes nothing, but a read-only client must never make the server contact a mail
# server on its behalf, and validation exists only beside a save: classed as a write.
for _proto in ("imap", "smtp"):
    _OPERATIONS.append(
        _op(
            f"notifications.validate_{_proto}",
            "POST",
            f"/notifications/email/validate/{_proto}",
            mutating=W,
        )
    )
_OPERATIONS += [
    # 4.8 roles and portals
    _op("roles.list", "GET", "/roles", mutating=R),
    _op("roles.get", "GET", "/roles/{roleBizId}", mutating=R),
    _op("roles.delete", "POST", "/roles/delete", mutating=W),
    _op("portals.create", "POST", "/institutions/portals", mutating=W),
]
# 4.5 constants: public reads
for _path in CONSTANT_PATHS:
    _OPERATIONS.append(
        _op(
            "constants." + _path.replace("-", "_"),
            "GET",
            f"/constants/{_path}",
            mutating=R,
            auth=Auth.PUBLIC,
        )
    )

OPERATIONS: dict[str, Operation] = {op.id: op for op in _OPERATIONS}

#: Operations a read-only client may send (an allowlist of operations, not of methods).
READ_ONLY_ALLOWED: frozenset[str] = frozenset(op.id for op in _OPERATIONS if not op.mutating)


def match(method: str, path: str) -> Operation | None:
    """The stated operation a request is for, or None."""
    method = method.upper()
    exact = [op for op in _OPERATIONS if op.method == method and op.path == path]
    if exact:
        return exact[0]
    for op in _OPERATIONS:
        if op.method == method and "{" in op.path and op.pattern.match(path):
            return op
    return None
