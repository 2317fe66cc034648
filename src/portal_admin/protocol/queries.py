"""Query-string parameters: the types and models of what a client puts in a query string and
the sandbox accepts.

A query string carries text only, so these types read text: an integer as its ASCII digits
(surrounding blanks ignored), an enum by its value (or code, where the sandbox takes one), a
time as ISO 8601 or epoch milliseconds, a list as repeated and/or comma-separated values.
Which empty values read as absent is each type's own rule, the one the sandbox has always
applied. A JSON Schema is never stricter than the server (:class:`~.bodies.OrAlso`).

The specification does not show these parameters; they are the sandbox's (docs/sandbox.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from .bodies import DIGITS, OrAlso, caseless, member_of, sort_item
from .enums import INVITATION_STATUS, LOGIN_RESULT, values_of

#: An integer as text: ASCII digits only (``str.isdigit`` also takes "²" and "١").
_INTEGER = re.compile(r"-?[0-9]+")


def integer_text(value: Any, max_length: int = 15) -> int | None:
    """``value`` as an int when it is one (not a bool) or its digits as text, at most
    ``max_length`` characters with the sign once stripped; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if len(text) <= max_length and _INTEGER.fullmatch(text):
            return int(text)
    return None


def _number(max_length: int) -> Callable[[Any], Any]:
    """A query integer: "" (the parameter given empty) reads as absent; anything else must be
    an integer of at most ``max_length`` characters (blanks around it ignored)."""

    def convert(value: Any) -> Any:
        if value is None or value == "":
            return None
        number = integer_text(value, max_length)
        if number is None:
            raise ValueError("must be an integer")
        return number

    return convert


#: A one-based page number (``currentPage`` of shape A); 0 reads as the first page.
OneBasedPage = Annotated[
    Annotated[int, Field(ge=0)] | None, BeforeValidator(_number(15)), OrAlso(DIGITS)
]
#: A page size (sizes above 100 are capped by the server, section 8).
PageSize = Annotated[
    Annotated[int, Field(ge=1)] | None, BeforeValidator(_number(12)), OrAlso(DIGITS)
]

#: Sort items, ``field,asc|desc``; the parameter is repeatable.
_SORTS = "Repeatable: field,asc or field,desc (asc by default)."
#: A sort item of the login history.
HistorySort = Annotated[str, Field(pattern=sort_item("loginTime", "clientIp", "loginResult"))]


def _login_result(value: Any) -> Any:
    """A login result by its value (1, 2, 3) or its code in any case; blank reads as absent."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    number = integer_text(value)
    if number is not None:
        found = LOGIN_RESULT.by_value(number)
    else:
        found = LOGIN_RESULT.by_code(value.upper()) if isinstance(value, str) else None
    if found is None:
        raise ValueError("must be 1, 2, 3, SUCCESS, FAILURE or BLOCKED")
    return found.value


#: A login result filter, answered as its value.
LoginResultFilter = Annotated[
    int | None,
    BeforeValidator(_login_result),
    WithJsonSchema(values_of(LOGIN_RESULT)),
    OrAlso(
        {
            "type": "string",
            "pattern": rf"^(\s*[1-3]?\s*|{'|'.join(map(caseless, LOGIN_RESULT.codes))})$",
            "description": "1, 2, 3, or SUCCESS, FAILURE or BLOCKED in any case.",
        }
    ),
]


def _epoch_ms(*, end: bool) -> Callable[[Any], Any]:
    """A time as epoch milliseconds from ISO 8601 (``Z`` or an offset; naive means UTC) or from
    epoch milliseconds; blank reads as absent. With ``end``, an ISO time without a fraction
    covers its whole second (an inclusive upper bound)."""

    def convert(value: Any) -> Any:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        number = integer_text(value)
        if number is not None:
            if number < 0:
                raise ValueError("must not be negative")
            return number
        if not isinstance(value, str):
            raise ValueError("must be an ISO 8601 time or epoch milliseconds")
        text = value.strip().replace("Z", "+00:00").replace("z", "+00:00")
        try:
            moment = datetime.fromisoformat(text)
        except ValueError as exc:
            raise ValueError("must be an ISO 8601 time or epoch milliseconds") from exc
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        extra = 999 if end and moment.microsecond == 0 else 0
        return int(moment.timestamp() * 1000) + extra

    return convert


_TIME_SCHEMA = WithJsonSchema(
    {
        "anyOf": [
            {"type": "string", "format": "date-time"},
            {"type": "integer", "minimum": 0},
            {"type": "string", "description": "ISO 8601, or epoch milliseconds as digits."},
        ],
        "examples": ["2026-01-01T00:00:00Z", "1767225600000"],
    }
)
#: An inclusive lower bound on a time, as epoch milliseconds.
Since = Annotated[int | None, BeforeValidator(_epoch_ms(end=False)), _TIME_SCHEMA]
#: An inclusive upper bound on a time, as epoch milliseconds (an ISO time without fraction
#: covers its whole second).
Until = Annotated[int | None, BeforeValidator(_epoch_ms(end=True)), _TIME_SCHEMA]


def _comma_separated(value: Any) -> Any:
    """Repeated values and/or comma-separated ones as one list, blanks dropped; None when
    nothing is left."""
    if value is None:
        return None
    items = value if isinstance(value, list) else [value]
    parts: list[Any] = []
    for item in items:
        if isinstance(item, str):
            parts.extend(p.strip() for p in item.split(",") if p.strip())
        else:
            parts.append(item)
    return parts or None


def _status_value(value: Any) -> Any:
    number = integer_text(value)
    if number is None:  # the specification types them as integers: codes are refused
        raise ValueError("must be an integer")
    return number


#: An invitation status by its value (codes are refused: the specification types them as
#: integers).
InvitationStatusValue = Annotated[
    int,
    BeforeValidator(_status_value),
    AfterValidator(member_of(INVITATION_STATUS)),
    WithJsonSchema(values_of(INVITATION_STATUS)),
    OrAlso({"type": "string", "pattern": r"^[0-9,\s-]*$"}),
]
#: Invitation statuses: repeated and/or comma-separated values.
InvitationStatuses = Annotated[
    list[InvitationStatusValue] | None,
    BeforeValidator(_comma_separated),
    Field(description="Repeated and/or comma-separated UserInvitationStatus values."),
]


class QueryModel(BaseModel):
    """Parameters of one operation's query string: the wire names only, unknown parameters
    ignored."""

    model_config = ConfigDict(validate_by_alias=True, validate_by_name=False, extra="ignore")


class LoginHistoryQuery(QueryModel):
    """``security.login_history``: a one-based page, its size, the result, inclusive bounds on
    ``loginTime`` and sort items."""

    page: OneBasedPage = None
    size: PageSize = None
    result: LoginResultFilter = None
    date_from: Since = Field(default=None, alias="from")
    date_to: Until = Field(default=None, alias="to")
    sort: Annotated[list[HistorySort] | None, Field(description=_SORTS)] = None


__all__ = [
    "InvitationStatusValue",
    "InvitationStatuses",
    "LoginHistoryQuery",
    "LoginResultFilter",
    "OneBasedPage",
    "PageSize",
    "QueryModel",
    "Since",
    "Until",
    "integer_text",
]
