"""One exception hierarchy for every failure the client reports (after openai-python).

Every error carries the server's ``code`` (or a local one), the ``http_status`` (None when no
answer arrived), the ``message`` (the server's localized text when there is one), the
``request_id`` of the exchange and the ``operation_id`` that was called.
"""

from __future__ import annotations

from typing import Any

from portal_admin.protocol.envelope import Envelope
from portal_admin.protocol.errors import Category, category_for


class PortalError(Exception):
    """Base of every error raised by ``portal_admin.client``."""

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        http_status: int | None = None,
        request_id: str | None = None,
        operation_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.http_status = http_status
        self.request_id = request_id
        self.operation_id = operation_id

    def __str__(self) -> str:
        parts = [self.message]
        if self.code:
            parts.append(f"code={self.code}")
        if self.http_status is not None:
            parts.append(f"status={self.http_status}")
        if self.operation_id:
            parts.append(f"operation={self.operation_id}")
        if self.request_id:
            parts.append(f"request_id={self.request_id}")
        return " ".join(parts)


class ConfigurationError(PortalError, ValueError):
    """The options are unusable (for example plain http to a remote host). ``code`` says
    which: ``CLIENT.CONFIG_URL``, ``CLIENT.CONFIG_CA_BUNDLE``, ``CLIENT.CONFIG_PIN`` or
    ``CLIENT.CONFIG_PROXY`` (None for the rest); the message is the English detail."""

    URL = "CLIENT.CONFIG_URL"
    CA_BUNDLE = "CLIENT.CONFIG_CA_BUNDLE"
    PIN = "CLIENT.CONFIG_PIN"
    PROXY = "CLIENT.CONFIG_PROXY"


class APIConnectionError(PortalError):
    """The request could not be sent or no answer arrived."""


class APITimeoutError(APIConnectionError):
    """The request timed out."""


class ProxyError(APIConnectionError):
    """The proxy refused: it asks for credentials (``CLIENT.PROXY_AUTH``, HTTP 407) or would not
    open a connection to the server (``CLIENT.PROXY``). Nothing reached the server."""

    AUTH_CODE = "CLIENT.PROXY_AUTH"
    CODE = "CLIENT.PROXY"


class CertificatePinError(APIConnectionError):
    """The server's certificate is not the one the profile pins; nothing was sent to it."""

    CODE = "CLIENT.TLS_PIN"

    def __init__(self, message: str, *, code: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, code=code or self.CODE, **kwargs)


class MalformedResponseError(PortalError):
    """The answer is not a response envelope (for example an HTML page from a gateway), or its
    data is not what the operation returns."""

    CODE = "CLIENT.MALFORMED_RESPONSE"

    def __init__(self, message: str, *, code: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, code=code or self.CODE, **kwargs)


class ReadOnlyError(PortalError):
    """A read-only client refused a mutating operation; nothing was sent."""


class InvalidIdError(PortalError, ValueError):
    """An id given for a URL path (``accounts.get``'s, ``roles.get``'s) cannot be an id: a
    slash, ``?``, ``%``, a space or control character, ``.``/``..``, empty or longer than 128
    characters (``protocol.operations.ID_PATTERN``). Raised before anything is sent, not even a
    token refresh; ``code`` is ``CLIENT.INVALID_ID``."""

    CODE = "CLIENT.INVALID_ID"

    def __init__(self, message: str, *, code: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, code=code or self.CODE, **kwargs)


class PendingApprovalError(PortalError):
    """Sign-in ended with ``pendingApproval``: the caller must not enter the application."""


class APIStatusError(PortalError):
    """The server answered with an error envelope."""


class AuthenticationError(APIStatusError):
    """Credentials or token missing, wrong, expired or refused."""


class NotSignedInError(AuthenticationError):
    """The operation needs a signed-in client and there is none; nothing was sent."""


class PermissionDeniedError(APIStatusError):
    """The caller lacks the permission, or the gateway refused the access code."""


class NotFoundError(APIStatusError):
    """The resource (or login/refresh session) is unknown."""


class ConflictError(APIStatusError):
    """The change conflicts with the resource's state."""


class RateLimitedError(APIStatusError):
    """Too many requests, or a resend before its cooldown ended."""


class ValidationError(APIStatusError):
    """The request's parameters were refused."""


class ServerError(APIStatusError):
    """The server failed (5xx)."""


class GatewayError(ServerError):
    """A gateway or proxy answered instead of the server: HTTP 502, 503 or 504 with an HTML
    page or anything else that is not an envelope (``CLIENT.GATEWAY``). ``title`` is the page's
    title, made safe to show (empty when there is none); ``html`` says whether it was a page.
    A ServerError: the server behind the gateway may or may not have done the work."""

    CODE = "CLIENT.GATEWAY"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        title: str = "",
        html: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(message, code=code or self.CODE, **kwargs)
        self.title = title
        self.html = html


class SecureChannelError(APIStatusError):
    """The Secure Channel failed: refused by the server, or a response rejected locally."""


class UnsupportedAlgorithmError(SecureChannelError):
    """The server's key-wrapping algorithm is unknown or not allowed; nothing was sent."""


_BY_CATEGORY: dict[Category, type[APIStatusError]] = {
    Category.AUTHENTICATION: AuthenticationError,
    Category.PERMISSION: PermissionDeniedError,
    Category.NOT_FOUND: NotFoundError,
    Category.CONFLICT: ConflictError,
    Category.RATE_LIMITED: RateLimitedError,
    Category.VALIDATION: ValidationError,
    Category.SECURE_CHANNEL: SecureChannelError,
    Category.SERVER: ServerError,
}


def error_class_for(code: str, http_status: int | None) -> type[APIStatusError]:
    """The exception class for a code (string or numeric) and HTTP status."""
    if code.startswith("SECURE_CHANNEL."):
        return SecureChannelError
    return _BY_CATEGORY[category_for(code, http_status)]


def error_from_envelope(
    envelope: Envelope,
    *,
    http_status: int | None,
    request_id: str | None,
    operation_id: str | None,
) -> APIStatusError:
    """The exception an error envelope stands for."""
    cls = error_class_for(envelope.code, http_status)
    return cls(
        envelope.message or envelope.code,
        code=envelope.code,
        http_status=http_status,
        request_id=request_id,
        operation_id=operation_id,
    )
