"""The System Portal API client: asyncio + httpx, typed records, no Qt.

See ``docs/client.md``.
"""

from __future__ import annotations

import inspect

from .areas import operation_id
from .client import PortalClient
from .errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    CertificatePinError,
    ConfigurationError,
    ConflictError,
    GatewayError,
    InvalidIdError,
    MalformedResponseError,
    NotFoundError,
    NotSignedInError,
    PendingApprovalError,
    PermissionDeniedError,
    PortalError,
    ProxyError,
    RateLimitedError,
    ReadOnlyError,
    SecureChannelError,
    ServerError,
    UnsupportedAlgorithmError,
    ValidationError,
)
from .events import (
    EventBus,
    KeyringUnavailable,
    RequestFinished,
    RequestStarted,
    SecureChannelChanged,
    SignedInChanged,
    TokenRefreshed,
)
from .fingerprint import installation_fingerprint
from .keyring_store import KeyringTokenStore, MemoryTokenStore, TokenStore
from .options import ClientOptions, RetryPolicy, TLSSettings
from .signin import CodeSent, LoginChallenge, SignedIn
from .transport import sandbox_transport

#: The areas of a client, by attribute name.
AREAS: tuple[str, ...] = (
    "auth",
    "security",
    "accounts",
    "constants",
    "invitations",
    "roles",
    "notifications",
    "portals",
    "secure_channel",
)


def _method_operations() -> dict[str, str]:
    from . import areas

    classes = {
        "auth": areas.AuthArea,
        "security": areas.SecurityArea,
        "accounts": areas.AccountsArea,
        "constants": areas.ConstantsArea,
        "invitations": areas.InvitationsArea,
        "roles": areas.RolesArea,
        "notifications": areas.NotificationsArea,
        "portals": areas.PortalsArea,
        "secure_channel": areas.SecureChannelArea,
    }
    found: dict[str, str] = {}
    for area, cls in classes.items():
        for name, member in inspect.getmembers(cls, callable):
            op = getattr(member, "__portal_operation__", None)
            if isinstance(op, str):
                found[f"{area}.{name}"] = op
    return found


#: ``"accounts.change_status"`` -> ``"accounts.status"``, for every client method.
METHOD_OPERATIONS: dict[str, str] = _method_operations()

__all__ = [
    "AREAS",
    "METHOD_OPERATIONS",
    "APIConnectionError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "CertificatePinError",
    "ClientOptions",
    "CodeSent",
    "ConfigurationError",
    "ConflictError",
    "EventBus",
    "GatewayError",
    "InvalidIdError",
    "KeyringTokenStore",
    "KeyringUnavailable",
    "LoginChallenge",
    "MalformedResponseError",
    "MemoryTokenStore",
    "NotFoundError",
    "NotSignedInError",
    "PendingApprovalError",
    "PermissionDeniedError",
    "PortalClient",
    "PortalError",
    "ProxyError",
    "RateLimitedError",
    "ReadOnlyError",
    "RequestFinished",
    "RequestStarted",
    "RetryPolicy",
    "SecureChannelChanged",
    "SecureChannelError",
    "ServerError",
    "SignedIn",
    "SignedInChanged",
    "TLSSettings",
    "TokenRefreshed",
    "TokenStore",
    "UnsupportedAlgorithmError",
    "ValidationError",
    "installation_fingerprint",
    "operation_id",
    "sandbox_transport",
]
