"""Routes declared from the protocol: one decorator per operation of the registry.

``@route(router, "roles.get", Role)`` registers the function at the operation's method and
path, under its id and area, with ``Ok[Role]`` as its documented answer. Request bodies are
parameters typed with the protocol's models (``body: Annotated[RoleDelete, Body()]``), so
FastAPI validates them and one handler (``errors.install_handlers``) answers a failure with
the operation's code. The handlers build their answers themselves (``caller.ok``): the
response model documents them, and the OpenAPI tests hold them to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from portal_admin.protocol.envelope import Ok
from portal_admin.protocol.operations import OPERATIONS

F = TypeVar("F", bound=Callable[..., Any])


def declare(
    router: APIRouter, method: str, path: str, op_id: str, tag: str, data: Any = None
) -> Callable[[F], F]:
    """Register the decorated handler at ``method`` ``path`` under ``op_id`` and ``tag``, its
    success answer carrying ``data`` (a model, a list of one, or None)."""
    return router.api_route(
        path,
        methods=[method],
        operation_id=op_id,
        tags=[tag],
        response_model=Ok[data],
        response_class=JSONResponse,
    )


def route(router: APIRouter, op_id: str, data: Any = None) -> Callable[[F], F]:
    """Register the decorated handler as the route of operation ``op_id`` (:func:`declare`)."""
    op = OPERATIONS[op_id]
    return declare(router, op.method, op.path, op.id, op.area, data)
