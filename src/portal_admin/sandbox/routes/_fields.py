"""Hand validation of JSON bodies for the S2 areas (security, invitations, roles, portals,
notifications): typed getters that raise an :class:`ApiError` with a chosen code.

The pydantic helpers of ``sandbox.bodies`` answer ``VALIDATION.INVALID_PARAMETER`` only; the
portal operation answers the numeric ``4000``, and several bodies accept an enum as either its
value or its code, so these areas read their bodies by hand.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import Request

from portal_admin.protocol.bodies import has_controls
from portal_admin.protocol.enums import EnumListing
from portal_admin.protocol.errors import Code
from portal_admin.protocol.pages import DEFAULT_PAGE_SIZE

from ..bodies import json_body
from ..errors import ApiError
from ..paging import Paging, paging

Body = dict[str, Any]

#: An integer as text: ASCII digits only (``str.isdigit`` also takes "²" and "١", which
#: ``int`` refuses or reads), at most 15 characters with the sign.
_INTEGER = re.compile(r"-?[0-9]+")

#: A pragmatic address check: one @, a dotted domain, no spaces; 254 characters at most.
_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")


def is_email(text: str) -> bool:
    """True for a plausible email address."""
    if len(text) > 254 or not _EMAIL.match(text):
        return False
    domain = text.rsplit("@", 1)[1]
    return all(0 < len(label) <= 63 and not label.startswith("-") for label in domain.split("."))


def fail(code: str, message: str) -> ApiError:
    """An ApiError with ``code`` and an English detail."""
    return ApiError(code, message)


async def object_body(
    request: Request, code: str = Code.INVALID_PARAMETER, *, allow_empty: bool = False
) -> Body:
    """The JSON object body. Empty (no body, ``null`` or ``{}``) fails unless ``allow_empty``."""
    try:
        obj = await json_body(request)
    except ApiError as exc:
        raise fail(code, exc.message or "the body is not valid JSON") from exc
    if obj is None:
        obj = {}
    if not isinstance(obj, dict):
        raise fail(code, "the body must be a JSON object")
    if not obj and not allow_empty:
        raise fail(code, "the body is empty")
    return obj


def get_str(
    body: Body,
    name: str,
    *,
    required: bool = False,
    max_len: int = 255,
    code: str = Code.INVALID_PARAMETER,
    strip: bool = True,
) -> str | None:
    """A string field; missing or null gives None (or fails when ``required``)."""
    value = body.get(name)
    if value is None:
        if required:
            raise fail(code, f"{name} is required")
        return None
    if not isinstance(value, str):
        raise fail(code, f"{name} must be a string")
    text = value.strip() if strip else value
    if required and not text:
        raise fail(code, f"{name} is required")
    if len(text) > max_len:
        raise fail(code, f"{name} must be at most {max_len} characters")
    if has_controls(text):
        raise fail(code, f"{name} contains control characters")
    return text


def get_int(
    body: Body,
    name: str,
    *,
    required: bool = False,
    low: int | None = None,
    high: int | None = None,
    code: str = Code.INVALID_PARAMETER,
) -> int | None:
    """An integer field (a JSON integer or a numeric string)."""
    value = body.get(name)
    if value is None or value == "":
        if required:
            raise fail(code, f"{name} is required")
        return None
    number = as_int(value)
    if number is None:
        raise fail(code, f"{name} must be an integer")
    if (low is not None and number < low) or (high is not None and number > high):
        raise fail(code, f"{name} is out of range")
    return number


def as_int(value: Any) -> int | None:
    """``value`` as an int when it is a JSON integer or a short numeric string, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if len(text) <= 15 and _INTEGER.fullmatch(text):
            return int(text)
    return None


def get_bool(body: Body, name: str, default: bool = False) -> bool:
    """A boolean field (JSON true/false, or the strings "true"/"false")."""
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise fail(Code.INVALID_PARAMETER, f"{name} must be a boolean")


def enum_code(listing: EnumListing, value: Any, name: str) -> str | None:
    """The code of an enum given by value (either listing) or by code; None for null."""
    if value is None or value == "":
        return None
    number = as_int(value)
    if number is not None:
        found = listing.by_value(number)
    elif isinstance(value, str):
        found = listing.by_code(value.strip().upper())
    else:
        found = None
    if found is None:
        raise fail(Code.INVALID_PARAMETER, f"{name} is not a known value")
    return found.code


def get_id(body: Body, name: str, code: str = Code.INVALID_PARAMETER) -> str:
    """A required business id (a non-empty string of at most 64 characters)."""
    text = get_str(body, name, required=True, max_len=64, code=code)
    assert text is not None
    return text


def one_based_paging(page: Any, size: Any, default_size: int = DEFAULT_PAGE_SIZE) -> Paging:
    """Paging for shape-A answers, whose ``currentPage`` is 1-based: ``page`` 1 is the first
    page (0 is read as 1 too); negative values, size 0 and non-integers give 400."""
    number = None if page is None or page == "" else as_int(page)
    if page not in (None, "") and number is None:
        raise fail(Code.INVALID_PARAMETER, "page must be an integer")
    if number is not None and number < 0:
        raise fail(Code.INVALID_PARAMETER, "page must not be negative")
    return paging(max((number or 1) - 1, 0), size, default_size=default_size)
