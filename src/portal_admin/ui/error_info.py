"""What a failure means to a person: a localized message, the error code and the request id.

The client's exceptions are duck-typed (``code``, ``http_status``, ``message``,
``request_id``), so this works with ``portal_admin.client.errors.PortalError`` and its
subclasses without importing the client.
"""

from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from portal_admin.protocol.errors import Category, category_for
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

_CONTEXT = "ErrorInfo"

_CATEGORY_TEXT = {
    Category.AUTHENTICATION: QT_TRANSLATE_NOOP(
        "ErrorInfo", "You are not signed in, or your sign-in has expired."
    ),
    Category.PERMISSION: QT_TRANSLATE_NOOP(
        "ErrorInfo", "Your account does not have permission to do this."
    ),
    Category.NOT_FOUND: QT_TRANSLATE_NOOP("ErrorInfo", "The item no longer exists."),
    Category.CONFLICT: QT_TRANSLATE_NOOP(
        "ErrorInfo", "The change conflicts with the current state on the server."
    ),
    Category.RATE_LIMITED: QT_TRANSLATE_NOOP(
        "ErrorInfo", "Too many requests. Please wait a moment and try again."
    ),
    Category.VALIDATION: QT_TRANSLATE_NOOP("ErrorInfo", "The server did not accept the input."),
    Category.SECURE_CHANNEL: QT_TRANSLATE_NOOP(
        "ErrorInfo", "The encrypted Secure Channel to the server failed."
    ),
    Category.SERVER: QT_TRANSLATE_NOOP("ErrorInfo", "The server could not complete the request."),
}
_NETWORK = QT_TRANSLATE_NOOP("ErrorInfo", "The server could not be reached.")
_TIMEOUT = QT_TRANSLATE_NOOP("ErrorInfo", "The server did not answer in time.")
_LOCAL = QT_TRANSLATE_NOOP("ErrorInfo", "A file or folder on this computer could not be used.")
#: Profile settings the client or the doctor cannot use, by the client's error code.
CONFIG_CODES = {
    "CLIENT.CONFIG_URL": QT_TRANSLATE_NOOP(
        "ErrorInfo",
        "The server address cannot be used: it must be http:// or https:// and a host name.",
    ),
    "CLIENT.CONFIG_CA_BUNDLE": QT_TRANSLATE_NOOP(
        "ErrorInfo", "The CA bundle file cannot be found or read. Check its path in the profile."
    ),
    "CLIENT.CONFIG_PIN": QT_TRANSLATE_NOOP(
        "ErrorInfo",
        "A certificate pin cannot be used: it must be a SHA-256 fingerprint, with an https:// "
        "address. Check the profile's pins.",
    ),
    "CLIENT.CONFIG_PROXY": QT_TRANSLATE_NOOP(
        "ErrorInfo",
        "The proxy address cannot be used: it must be http://host:port. Check the profile's proxy.",
    ),
}
#: Failures with a cause of their own (connections, a refused id), by the client's error code.
_CONNECTION_CODES = {
    "CLIENT.INVALID_ID": QT_TRANSLATE_NOOP(
        "ErrorInfo",
        "This id cannot be used: an id has only letters, digits, '-', '_' and '.'. Nothing was "
        "sent.",
    ),
    "CLIENT.PROXY_AUTH": QT_TRANSLATE_NOOP(
        "ErrorInfo",
        "The proxy asks for a user name and password, which this program does not have. Use "
        "the system proxy setting with them in HTTPS_PROXY, or ask your IT department.",
    ),
    "CLIENT.PROXY": QT_TRANSLATE_NOOP(
        "ErrorInfo", "The proxy refused to connect to the server. Check the profile's proxy."
    ),
    "CLIENT.TLS_PIN": QT_TRANSLATE_NOOP(
        "ErrorInfo",
        "The server's certificate is not the one this profile pins: nothing was sent. Ask your "
        "IT department whether the certificate was renewed.",
    ),
}
#: A gateway or proxy answered instead of the server (the client's ``GatewayError``); %1 is
#: the HTTP status.
_GATEWAY = QT_TRANSLATE_NOOP(
    "ErrorInfo",
    "A gateway or proxy answered instead of the server (HTTP %1): the server behind it is down "
    "or cannot be reached from it. Try again later, or tell the server's administrators.",
)
_GATEWAY_CODE = "CLIENT.GATEWAY"
_UNEXPECTED = QT_TRANSLATE_NOOP("ErrorInfo", "Something unexpected went wrong in the program.")


def _tr(text: str) -> str:
    return QCoreApplication.translate(_CONTEXT, text)


@dataclass(frozen=True, slots=True)
class ErrorInfo:
    """A failure, ready to show."""

    summary: str
    message: str
    code: str | None = None
    http_status: int | None = None
    request_id: str | None = None
    #: True for failures the program did not foresee (a bug): shown with their details.
    unexpected: bool = False
    details: str = ""

    def as_text(self) -> str:
        """Everything in plain text, for the clipboard or a support ticket."""
        lines = [self.summary]
        if self.message and self.message != self.summary:
            lines.append(self.message)
        if self.code:
            error_code = QCoreApplication.translate("ErrorInfo", "Error code")
            lines.append(f"{error_code}: {self.code}")
        if self.http_status:
            lines.append(f"HTTP {self.http_status}")
        if self.request_id:
            request_id = QCoreApplication.translate("ErrorInfo", "Request id")
            lines.append(f"{request_id}: {self.request_id}")
        if self.details:
            lines.append(self.details)
        return "\n".join(lines)


def _is_portal_error(exc: BaseException) -> bool:
    return all(hasattr(exc, name) for name in ("code", "http_status", "message", "request_id"))


#: The client's status-error classes, by name (duck-typed: ui/ reads the client's classes by name).
_CLASS_CATEGORY = {
    "AuthenticationError": Category.AUTHENTICATION,
    "PermissionDeniedError": Category.PERMISSION,
    "NotFoundError": Category.NOT_FOUND,
    "ConflictError": Category.CONFLICT,
    "RateLimitedError": Category.RATE_LIMITED,
    "ValidationError": Category.VALIDATION,
    "ServerError": Category.SERVER,
    "SecureChannelError": Category.SECURE_CHANNEL,
}


def _category(exc: BaseException, code: object, status: object) -> Category:
    """The exception's own class decides; the code and status only when it does not."""
    for cls in type(exc).__mro__:
        if cls.__name__ in _CLASS_CATEGORY:
            return _CLASS_CATEGORY[cls.__name__]
    return category_for(code, status if isinstance(status, int) else None)


def _is_kind(exc: BaseException, *names: str) -> bool:
    return any(cls.__name__ in names for cls in type(exc).__mro__)


def describe_error(exc: BaseException) -> ErrorInfo:
    """Turn any exception into an :class:`ErrorInfo` (never raises)."""
    if _is_portal_error(exc):
        code = getattr(exc, "code", None)
        status = getattr(exc, "http_status", None)
        request_id = getattr(exc, "request_id", None)
        message = str(getattr(exc, "message", "") or "")
        if code == _GATEWAY_CODE:
            summary = fill(_tr(_GATEWAY), status if isinstance(status, int) else "?")
        elif code in _CONNECTION_CODES:
            summary = _tr(_CONNECTION_CODES[str(code)])
        elif code in CONFIG_CODES:
            summary = _tr(CONFIG_CODES[str(code)])
        elif _is_kind(exc, "APITimeoutError", "TimeoutError", "PortalTimeoutError"):
            summary = _tr(_TIMEOUT)
        elif _is_kind(exc, "APIConnectionError", "PortalConnectionError", "ConnectionError"):
            summary = _tr(_NETWORK)
        else:
            summary = _tr(_CATEGORY_TEXT[_category(exc, code, status)])
        return ErrorInfo(
            summary=summary,
            message=message,
            code=str(code) if code not in (None, "") else None,
            http_status=status if isinstance(status, int) else None,
            request_id=str(request_id) if request_id else None,
        )
    if isinstance(exc, TimeoutError):
        return ErrorInfo(summary=_tr(_TIMEOUT), message=str(exc))
    socket = sys.modules.get("socket")  # not imported for the first window; loaded by then
    if isinstance(exc, ConnectionError) or (socket and isinstance(exc, socket.gaierror)):
        return ErrorInfo(summary=_tr(_NETWORK), message=str(exc))
    if isinstance(exc, OSError):  # a local file or system failure, e.g. writing an export
        return ErrorInfo(summary=_tr(_LOCAL), message=str(exc))
    details = "".join(traceback.format_exception(exc)).strip()
    return ErrorInfo(
        summary=_tr(_UNEXPECTED),
        message=f"{type(exc).__name__}: {exc}",
        unexpected=True,
        details=details,
    )


def error_details(
    info: ErrorInfo,
    code: str,
    request_id: str,
    *,
    joiner: str = "\n",
    http_status: bool = False,
) -> list[str]:
    """The lines below a failure's summary: the server's message (when it says more), then the
    error code, the HTTP status (with ``http_status``) and the request id on one line joined
    by ``joiner``; ``code`` and ``request_id`` are translated templates (``%1``).
    """
    lines = []
    if info.message and info.message != info.summary:
        lines.append(info.message)
    details = []
    if info.code:
        details.append(fill(code, info.code))
    if http_status and info.http_status:
        details.append(f"HTTP {info.http_status}")
    if info.request_id:
        details.append(fill(request_id, info.request_id))
    if details:
        lines.append(joiner.join(details))
    return lines
