"""ApiError and the handlers that turn every failure into the response envelope."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from portal_admin.protocol.envelope import build_envelope
from portal_admin.protocol.errors import Code, lookup
from portal_admin.protocol.operations import match

from .clock import to_ms
from .localize import error_message

log = logging.getLogger(__name__)

METHOD_NOT_ALLOWED = "REQUEST.METHOD_NOT_ALLOWED"


class ApiError(Exception):
    """An error answer: raise it anywhere in a route or dependency.

    The HTTP status defaults to the catalogue's; the message to the localized text of the code.
    """

    def __init__(
        self,
        code: str,
        message: str | None = None,
        http_status: int | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(code)
        self.code = code
        self.message = message
        self.headers = headers
        spec = lookup(code)
        self.http_status = http_status or (spec.http_status if spec else 400)

    def __repr__(self) -> str:
        return f"ApiError({self.code!r}, http_status={self.http_status})"


def invalid(message: str | None = None) -> ApiError:
    """A 400 VALIDATION.INVALID_PARAMETER."""
    return ApiError(Code.INVALID_PARAMETER, message)


def error_body(code: str, lang: str, now: float, message: str | None = None) -> dict[str, Any]:
    """The error envelope for ``code``.

    The message is the localized text of the code; an English detail (``message``) replaces it
    only for English callers.
    """
    text = message if message is not None and lang == "en" else error_message(code, lang)
    return build_envelope(None, code=code, message=text, now_ms=to_ms(now), success=False)


def _lang(request: Request) -> str:
    return str(getattr(request.state, "lang", "en"))


def _now(request: Request) -> float:
    state = getattr(request.app.state, "sandbox", None)
    return state.clock.now() if state is not None else 0.0


def error_response(request: Request, exc: ApiError) -> JSONResponse:
    """The plain JSON answer for an ApiError."""
    body = error_body(exc.code, _lang(request), _now(request), exc.message)
    return JSONResponse(body, status_code=exc.http_status, headers=exc.headers)


def allowed_methods(request: Request) -> str | None:
    """The ``Allow`` header for a 405: every method of the routes whose path matches.

    Starlette names the methods of the first matching route only, so a path served by two
    routes (GET and POST ``/security/ip-whitelist``) advertised one of them. Fixed paths win
    over templates: ``/accounts/admin/update`` is the update operation (POST), although the
    template ``/accounts/admin/{userBizId}`` (GET) matches it too. The routes are the area
    routers' own (``app.state.area_routes``, set by ``create_app``).
    """
    fixed: set[str] = set()
    templated: set[str] = set()
    for route in getattr(request.app.state, "area_routes", ()):
        methods = getattr(route, "methods", None)
        if not isinstance(route, Route) or not methods:
            continue
        match, _ = route.matches(request.scope)
        if match is not Match.NONE:
            (templated if route.param_convertors else fixed).update(methods)
    methods = fixed or templated
    return ", ".join(sorted(methods)) if methods else None


def invalid_parameter(where: Sequence[Any]) -> str:
    """The English detail of a validation failure at ``where`` (a pydantic error location)."""
    return f"invalid parameter {'.'.join(str(p) for p in where)[:64]}".strip()


def invalid_code(request: Request) -> str:
    """The code the operation at ``request``'s path answers for an invalid parameter (one
    handler for every route: the operation's own, ``4000`` for portals)."""
    op = match(request.method, request.url.path)
    return op.invalid_code if op is not None else Code.INVALID_PARAMETER


def install_handlers(app: FastAPI) -> None:
    """Register the exception handlers (unexpected exceptions: see the middleware)."""

    async def on_api_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return error_response(request, exc)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        message = invalid_parameter(errors[0].get("loc", ())[1:] if errors else ())
        return error_response(request, ApiError(invalid_code(request), message))

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 404:
            err = ApiError(Code.NOT_FOUND)
        elif exc.status_code == 405:
            err = ApiError(METHOD_NOT_ALLOWED, http_status=405)
        elif exc.status_code >= 500:
            err = ApiError(Code.INTERNAL)
        else:
            err = ApiError(invalid_code(request), http_status=exc.status_code)
        response = error_response(request, err)
        if exc.status_code == 405:
            allow = allowed_methods(request) or (exc.headers or {}).get("Allow")
            if allow:
                response.headers["Allow"] = allow
        return response

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
