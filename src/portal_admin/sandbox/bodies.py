"""Reading JSON request bodies and validating them with the protocol's body models
(``portal_admin.protocol.bodies``): a failure is the operation's 400."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from fastapi import Request
from pydantic import BaseModel, ValidationError

from portal_admin.protocol.errors import Code

from .errors import ApiError, invalid

M = TypeVar("M", bound=BaseModel)

MAX_BODY = 1_000_000


async def json_body(request: Request) -> Any:
    """The decoded JSON body; None when the body is empty. Malformed JSON gives 400."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise invalid("the body is too large")
    if not raw.strip():
        return None
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise invalid("the body is not valid JSON") from exc


def parse(model: type[M], obj: Any, code: str = Code.INVALID_PARAMETER) -> M:
    """Validate ``obj`` (a decoded JSON value) as ``model``; anything wrong gives 400 with
    ``code`` (the operation's: ``VALIDATION.INVALID_PARAMETER``, or ``4000`` for portals)."""
    if not isinstance(obj, dict):
        raise ApiError(code, "the body must be a JSON object")
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        errors = exc.errors()
        where = ".".join(str(p) for p in errors[0]["loc"]) if errors else ""
        raise ApiError(code, f"invalid parameter {where[:64]}".strip()) from exc


async def read(request: Request, model: type[M]) -> M:
    """Read and validate a JSON object body."""
    return parse(model, await json_body(request))
