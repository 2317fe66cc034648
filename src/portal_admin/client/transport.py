"""One HTTP exchange: headers of section 4.0, events, logging, error mapping.

Bodies are never logged; only the operation id, status, code, request id and duration.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

import httpx

from portal_admin.protocol.envelope import Envelope, MalformedEnvelope, parse_envelope
from portal_admin.protocol.operations import (
    READ_ONLY_ALLOWED,
    SYSTEM,
    Auth,
    InvalidPathParameter,
    Operation,
)

from .errors import (
    APIConnectionError,
    APITimeoutError,
    CertificatePinError,
    InvalidIdError,
    MalformedResponseError,
    PortalError,
    ProxyError,
    ReadOnlyError,
    error_from_envelope,
)
from .events import EventBus, RequestFinished, RequestStarted
from .gateway import gateway_error
from .options import ClientOptions

log = logging.getLogger("portal_admin.client.transport")

Decoder = Callable[[httpx.Response, str], Envelope]


def url_path(operation: Operation, path_params: Mapping[str, str] | None) -> str:
    """The operation's path with ``path_params`` as percent-encoded segments; InvalidIdError
    for a value that cannot be an id (a slash, ``?``, a control character, ...)."""
    try:
        return operation.url_path(**(path_params or {}))
    except InvalidPathParameter as exc:
        raise InvalidIdError(str(exc), operation_id=operation.id) from None


def plain_decoder(operation: Operation) -> Decoder:
    """Parse a plain JSON envelope; anything else is a MalformedResponseError."""

    def decode(response: httpx.Response, request_id: str) -> Envelope:
        try:
            return parse_envelope(response.content)
        except MalformedEnvelope as exc:
            gateway = gateway_error(response, request_id, operation.id)
            if gateway is not None:  # a gateway's 502/503/504 page: named as such
                raise gateway from None
            raise MalformedResponseError(
                f"the server answered something that is not an envelope ({exc})",
                http_status=response.status_code,
                request_id=request_id,
                operation_id=operation.id,
            ) from None

    return decode


class Transport:
    """Sends one request for an operation and returns its parsed envelope."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        options: ClientOptions,
        client_hash: str,
        events: EventBus,
    ) -> None:
        self.http = http
        self.options = options
        self.client_hash = client_hash
        self.events = events
        self.last_request_id: str | None = None

    def allowed(self, operation_id: str) -> bool:
        """False when a read-only client may not send this operation."""
        return not self.options.read_only or operation_id in READ_ONLY_ALLOWED

    def guard(self, operation: Operation) -> None:
        """Raise ReadOnlyError for an operation a read-only client must not send."""
        if not self.allowed(operation.id):
            raise ReadOnlyError(
                f"the client is read-only: {operation.id} is refused",
                code="CLIENT.READ_ONLY",
                operation_id=operation.id,
            )

    def headers(self, operation: Operation, request_id: str, token: str | None) -> dict[str, str]:
        """The headers of section 4.0 for one request."""
        opts = self.options
        headers = {
            **opts.extra_headers,
            "Accept": "application/json",
            "Accept-Language": opts.language,
            "X-LOCALE": opts.language,
            "X-Request-Id": request_id,
            "X-Client-Hash": self.client_hash,
        }
        if operation.path.startswith(SYSTEM + "/") and opts.access_code:
            headers["X-PORTAL-ACCESS-CODE"] = opts.access_code
        if operation.auth in (Auth.BEARER, Auth.OPTIONAL) and opts.workspace_id:
            headers["X-Workspace-Id"] = opts.workspace_id
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        return headers

    async def exchange(
        self,
        operation: Operation,
        *,
        path_params: Mapping[str, str] | None = None,
        params: Any = None,
        json: Any = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
        decode: Decoder | None = None,
    ) -> tuple[Envelope, int, str]:
        """Send the request; return the envelope, HTTP status and request id."""
        self.guard(operation)
        path = url_path(operation, path_params)
        request_id = str(uuid.uuid4())
        self.last_request_id = request_id
        all_headers = self.headers(operation, request_id, token)
        if headers:
            all_headers.update(headers)
        self.events.publish(RequestStarted(operation.id, request_id, operation.method, path))
        LAST_SENT.set((operation.id, request_id))
        started = time.perf_counter()
        status: int | None = None
        code: str | None = None
        try:
            request = self.http.build_request(
                operation.method,
                path,
                params=params,
                json=json,
                content=content,
                headers=all_headers,
            )
            try:
                async with asyncio.timeout(self.options.timeout):
                    response = await self._receive(request, operation, request_id)
            except (httpx.TimeoutException, TimeoutError) as exc:
                raise APITimeoutError(
                    f"the request timed out ({type(exc).__name__})",
                    code="CLIENT.TIMEOUT",
                    request_id=request_id,
                    operation_id=operation.id,
                ) from None
            except httpx.ProxyError as exc:
                raise proxy_error(str(exc), request_id, operation.id) from None
            except CertificatePinError as exc:
                exc.request_id, exc.operation_id = request_id, operation.id
                raise
            except httpx.TransportError as exc:
                raise APIConnectionError(
                    f"the connection failed ({type(exc).__name__})",
                    code="CLIENT.CONNECTION",
                    request_id=request_id,
                    operation_id=operation.id,
                ) from None
            status = response.status_code
            if status == 407:  # a proxy forwarding plain http wants credentials
                raise proxy_error("407 Proxy Authentication Required", request_id, operation.id)
            LAST_ANSWER.set((request_id, status, None))
            envelope = (decode or plain_decoder(operation))(response, request_id)
            LAST_ANSWER.set((request_id, status, envelope.timestamp))
            code = envelope.code
            return envelope, status, request_id
        except asyncio.CancelledError:
            code = CANCELLED
            raise
        except PortalError as exc:  # no usable answer: say why in the event
            code = exc.code
            raise
        finally:
            duration = time.perf_counter() - started
            log.info(
                "%s status=%s code=%s request_id=%s duration_ms=%.1f",
                operation.id,
                status,
                code,
                request_id,
                duration * 1000,
            )
            self.events.publish(RequestFinished(operation.id, request_id, status, code, duration))

    async def _receive(
        self, request: httpx.Request, operation: Operation, request_id: str
    ) -> httpx.Response:
        """Send ``request`` and read its answer, at most ``max_response_bytes`` of it."""
        limit = self.options.max_response_bytes
        response = await self.http.send(request, stream=True)
        try:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > limit:
                raise self._too_large(operation, request_id, response.status_code)
            body = bytearray()
            async for chunk in response.aiter_bytes():  # decoded: a zip bomb counts in full
                body += chunk
                if len(body) > limit:
                    raise self._too_large(operation, request_id, response.status_code)
        finally:
            await response.aclose()
        response._content = bytes(body)  # what httpx's own aread() keeps
        return response

    def _too_large(
        self, operation: Operation, request_id: str, status: int
    ) -> MalformedResponseError:
        return MalformedResponseError(
            f"the answer is larger than {self.options.max_response_bytes} bytes",
            code="CLIENT.RESPONSE_TOO_LARGE",
            http_status=status,
            request_id=request_id,
            operation_id=operation.id,
        )

    async def call(
        self,
        operation: Operation,
        **kwargs: Any,
    ) -> Any:
        """Exchange and return ``data``, raising the mapped error for an error envelope."""
        envelope, status, request_id = await self.exchange(operation, **kwargs)
        return check(envelope, status, request_id, operation)


def proxy_error(answer: str, request_id: str, operation_id: str) -> ProxyError:
    """The ProxyError for a proxy's refusal (``answer``: its status line, e.g. ``407 ...``)."""
    status_text = answer.split(" ", 1)[0]
    status = int(status_text) if status_text.isdigit() else None
    if status == 407:
        return ProxyError(
            "the proxy asks for a user name and password (HTTP 407): give them in HTTPS_PROXY "
            "(http://user:password@host:port) or when the program asks, or ask your IT department",
            code=ProxyError.AUTH_CODE,
            http_status=status,
            request_id=request_id,
            operation_id=operation_id,
        )
    return ProxyError(
        f"the proxy would not connect to the server ({answer or 'no answer'}): it may not allow "
        "this server, or cannot reach it; ask your IT department",
        code=ProxyError.CODE,
        http_status=status,
        request_id=request_id,
        operation_id=operation_id,
    )


#: The request id, HTTP status and envelope time (ms, when the answer had one) of the latest
#: answer received in this task, so that errors raised later while reading its data can name
#: them (awaits in one task share a context).
LAST_ANSWER: ContextVar[tuple[str, int, int | None] | None] = ContextVar(
    "last_answer", default=None
)
#: The operation id and request id of the latest request this task started.
LAST_SENT: ContextVar[tuple[str, str] | None] = ContextVar("last_sent", default=None)

#: The code a RequestFinished event carries for a request abandoned before its answer.
CANCELLED = "CLIENT.CANCELLED"


def check(envelope: Envelope, status: int, request_id: str, operation: Operation) -> Any:
    """``data`` of a successful envelope; the mapped exception otherwise."""
    if not envelope.success or status >= 400:
        raise error_from_envelope(
            envelope, http_status=status, request_id=request_id, operation_id=operation.id
        )
    return envelope.data


class InProcessTransport(httpx.ASGITransport):
    """httpx's ASGI transport, taking turns with the event loop as a network exchange does.

    Without a network nothing in an exchange waits, so the server's work, the answer's
    parsing and whatever the caller does next would run as one unbroken step of the loop (a
    page of 100 accounts: 15-18 ms, and the program's timers and paints wait behind it). The
    request reaches the app on a later turn of the loop, and its answer comes back on another.
    """

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0)
        response = await super().handle_async_request(request)
        await asyncio.sleep(0)
        return response


def sandbox_transport(app: Any) -> httpx.AsyncBaseTransport:
    """An in-process transport serving an ASGI app (the built-in sandbox) without a network."""
    return InProcessTransport(app=app)
