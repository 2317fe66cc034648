"""Request ids, language, the header rules of the contract, and the last-resort 500."""

from __future__ import annotations

import hmac
import logging
import uuid
from typing import TYPE_CHECKING

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from portal_admin.protocol.errors import Code
from portal_admin.protocol.operations import SECURE_CHANNEL, SYSTEM

from .bodies import MAX_BODY
from .errors import ApiError, error_body
from .localize import language

if TYPE_CHECKING:
    from .state import SandboxState

log = logging.getLogger(__name__)

REQUEST_ID = "X-Request-Id"
MAX_REQUEST_ID = 128

#: Paths (prefixes end with "/") that need X-Client-Hash: the pre-login calls.
_PRE_LOGIN_PREFIXES = (f"{SYSTEM}/auth/login/", f"{SECURE_CHANNEL}/")
_PRE_LOGIN_PATHS = frozenset(
    f"{SYSTEM}/auth/{p}"
    for p in ("password/forgot", "password/reset", "password/init", "token/refresh")
)


def is_pre_login(path: str) -> bool:
    """True for the calls that must carry X-Client-Hash."""
    return path in _PRE_LOGIN_PATHS or path.startswith(_PRE_LOGIN_PREFIXES)


def _request_id(headers: Headers) -> str:
    given = (headers.get("x-request-id") or "").strip()
    if given and len(given) <= MAX_REQUEST_ID and given.isprintable() and given.isascii():
        return given
    return str(uuid.uuid4())


class BodyTooLarge(Exception):
    """The request body went past :data:`MAX_BODY`."""


def _bounded(receive: Receive) -> Receive:
    """``receive`` that stops a request body at :data:`MAX_BODY` bytes, whatever its
    Content-Length says (a chunked body has none)."""
    received = 0

    async def bounded() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > MAX_BODY:
                raise BodyTooLarge
        return message

    return bounded


class SandboxMiddleware:
    """Pure ASGI middleware wrapped around every route."""

    def __init__(self, app: ASGIApp, state: SandboxState) -> None:
        self.app = app
        self.state = state

    def _check_headers(self, path: str, headers: Headers) -> ApiError | None:
        if path == SYSTEM or path.startswith(SYSTEM + "/"):
            code = headers.get("x-portal-access-code")
            expected = self.state.config.portal_access_code
            if code is None or not hmac.compare_digest(
                code.encode("utf-8", "surrogateescape"), expected.encode("utf-8")
            ):
                return ApiError(Code.PERMISSION_DENIED)
        if is_pre_login(path) and not (headers.get("x-client-hash") or "").strip():
            return ApiError(Code.INVALID_PARAMETER, "X-Client-Hash header is required")
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        request_id = _request_id(headers)
        lang = language(headers.get("accept-language") or headers.get("x-locale"))
        scope.setdefault("state", {})
        scope["state"]["request_id"] = request_id
        scope["state"]["lang"] = lang
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                MutableHeaders(scope=message)[REQUEST_ID] = request_id
            await send(message)

        refused = self._check_headers(scope["path"], headers)
        if refused is not None:
            await self._answer(refused, lang, scope, receive, send_with_id)
            return
        try:
            await self.app(scope, _bounded(receive), send_with_id)
        except BodyTooLarge:
            if not started:
                error = ApiError(Code.INVALID_PARAMETER, "the body is too large")
                await self._answer(error, lang, scope, receive, send_with_id)
        except RecursionError:
            # Only absurdly nested input gets here (JSON decoding): the caller's fault.
            if not started:
                error = ApiError(Code.INVALID_PARAMETER)
                await self._answer(error, lang, scope, receive, send_with_id)
        except Exception as exc:
            log.error(
                "unexpected %s on %s %s", type(exc).__name__, scope.get("method"), scope["path"]
            )
            log.debug("details", exc_info=True)
            if not started:
                await self._answer(ApiError(Code.INTERNAL), lang, scope, receive, send_with_id)

    async def _answer(
        self, error: ApiError, lang: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        body = error_body(error.code, lang, self.state.clock.now(), error.message)
        await JSONResponse(body, status_code=error.http_status)(scope, receive, send)
