"""The bound on request bodies, and validation of a decoded body (a sealed body's plaintext)
with a protocol model: a failure is the operation's 400. Plain JSON bodies are validated by
FastAPI from the routes' parameters (``routes/_route.py``)."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from portal_admin.protocol.errors import Code

from .errors import ApiError, invalid_parameter

M = TypeVar("M", bound=BaseModel)

MAX_BODY = 1_000_000


def parse(model: type[M], obj: Any, code: str = Code.INVALID_PARAMETER) -> M:
    """Validate ``obj`` (a decoded JSON value) as ``model``; anything wrong gives 400 with
    ``code`` (the operation's: ``VALIDATION.INVALID_PARAMETER``, or ``4000`` for portals)."""
    if not isinstance(obj, dict):
        raise ApiError(code, "the body must be a JSON object")
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        errors = exc.errors()
        raise ApiError(code, invalid_parameter(errors[0]["loc"] if errors else ())) from exc
