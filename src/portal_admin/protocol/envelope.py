"""The response envelope of section 2.1: building it, and parsing it tolerantly.

Some answers omit ``version``, ``timestamp`` and ``success``; the code may be a string or a
number; success text is ``SUCCESS`` or ``Success``. Parsing accepts all of that and infers
``success`` from the code when it is missing. Anything that is not an envelope at all raises
:class:`MalformedEnvelope`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from .errors import SUCCESS_CODE, normalize_code

ENVELOPE_VERSION = "2.0.0"

T = TypeVar("T")


class Ok(BaseModel, Generic[T]):
    """The success envelope around ``data`` of type ``T``: what :func:`build_envelope` makes
    (the model documents it; the sandbox's OpenAPI document is generated from it)."""

    model_config = ConfigDict(extra="forbid")

    version: Literal["2.0.0"]
    timestamp: int = Field(ge=0)
    success: Literal[True]
    code: Literal["2000"]
    message: str
    data: T


class Failed(BaseModel):
    """The error envelope (section 7): ``success`` false, a code, ``data`` null."""

    model_config = ConfigDict(extra="forbid")

    version: Literal["2.0.0"]
    timestamp: int = Field(ge=0)
    success: Literal[False]
    code: str = Field(min_length=1)
    message: str
    data: None


class MalformedEnvelope(ValueError):
    """The body is not a response envelope (not JSON, not an object, or no code)."""


@dataclass(frozen=True, slots=True)
class Envelope:
    """A parsed response envelope."""

    code: str
    message: str
    data: Any
    success: bool
    version: str | None = None
    timestamp: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the envelope reports success."""
        return self.success


def build_envelope(
    data: Any = None,
    *,
    code: str = SUCCESS_CODE,
    message: str | None = None,
    now_ms: int,
    success: bool | None = None,
) -> dict[str, Any]:
    """The envelope as a JSON-ready dict. Errors carry ``data: null``."""
    ok = code == SUCCESS_CODE if success is None else success
    return {
        "version": ENVELOPE_VERSION,
        "timestamp": now_ms,
        "success": ok,
        "code": code,
        "message": message if message is not None else ("SUCCESS" if ok else code),
        "data": data if ok else None,
    }


def _as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text.startswith("-") else text
        if digits.isascii() and digits.isdigit():  # not "²" or "٣", which int() refuses
            return int(text)
    return None


def parse_envelope(body: bytes | str | dict[str, Any]) -> Envelope:
    """Parse an envelope from raw bytes, text or an already decoded object."""
    obj: Any = body
    if isinstance(body, bytes | str):
        try:
            obj = json.loads(body)
        except RecursionError:  # nested deeper than the interpreter's stack allows
            raise MalformedEnvelope("the body is JSON nested too deeply") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise MalformedEnvelope("the body is not JSON") from exc
    if not isinstance(obj, dict):
        raise MalformedEnvelope("the body is not a JSON object")
    if "code" not in obj or obj["code"] is None or isinstance(obj["code"], dict | list):
        raise MalformedEnvelope("the envelope has no code")
    code = normalize_code(obj["code"])
    if not code:
        raise MalformedEnvelope("the envelope has an empty code")
    success = _as_bool(obj.get("success"))
    if success is None:
        success = code == SUCCESS_CODE
    message = obj.get("message")
    version = obj.get("version")
    known = {"version", "timestamp", "success", "code", "message", "data"}
    return Envelope(
        code=code,
        message=message if isinstance(message, str) else "",
        data=obj.get("data"),
        success=success,
        version=version if isinstance(version, str) else None,
        timestamp=_as_int(obj.get("timestamp")),
        extra={k: v for k, v in obj.items() if k not in known},
    )
