"""What every area shares: the invoker, and the operation-id tag on each method."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeVar

from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticValidationError

from portal_admin.protocol.enums import EnumListing
from portal_admin.protocol.operations import OPERATIONS
from portal_admin.protocol.pages import Page, parse_page

from ..errors import MalformedResponseError
from ..invoker import Invoker
from ..records import EnumItem, Record
from ..transport import LAST_ANSWER

F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R", bound=Record)

OPERATION_ATTR = "__portal_operation__"

EnumArg = str | int | EnumItem | None


def operation(operation_id: str) -> Callable[[F], F]:
    """Tag a method with the operation id it calls."""
    if operation_id not in OPERATIONS:
        raise KeyError(operation_id)

    def tag(fn: F) -> F:
        setattr(fn, OPERATION_ATTR, operation_id)
        return fn

    return tag


def operation_id(method: Callable[..., Any]) -> str:
    """The operation id a client method calls (``KeyError`` when it calls none)."""
    found = getattr(method, OPERATION_ATTR, None)
    if not isinstance(found, str):
        raise KeyError(getattr(method, "__qualname__", repr(method)))
    return found


def enum_value(listing: EnumListing, value: EnumArg) -> int | None:
    """The number to send for a code, number or EnumItem (codes take the served listing)."""
    if value is None:
        return None
    if isinstance(value, EnumItem):
        if value.value is not None:
            return value.value
        value = value.code
    if isinstance(value, int):
        return value
    if value.strip().isascii() and value.strip().isdigit():
        return int(value)
    return listing.value_of(value.strip().upper())


def drop_none(**fields: Any) -> dict[str, Any]:
    """The fields whose value is not None."""
    return {k: v for k, v in fields.items() if v is not None}


def malformed(message: str, operation_id: str | None) -> MalformedResponseError:
    """The error for an answer whose data is not what the operation returns."""
    answer = LAST_ANSWER.get()
    return MalformedResponseError(
        message,
        operation_id=operation_id,
        request_id=answer[0] if answer else None,
        http_status=answer[1] if answer else None,
    )


def _validate(model: type[R], data: Any, operation_id: str | None) -> R:
    try:
        return model.model_validate(data)
    except PydanticValidationError as exc:
        raise malformed(
            f"unexpected {model.__name__} data ({exc.error_count()} problems)", operation_id
        ) from None


#: One validator per record type for lists of it: a page is validated in one call.
_LISTS: dict[type[Any], TypeAdapter[Any]] = {}


def _validate_all(model: type[R], items: Sequence[Any], operation_id: str | None) -> list[R]:
    adapter = _LISTS.get(model)
    if adapter is None:
        adapter = _LISTS[model] = TypeAdapter(list[model])  # type: ignore[valid-type]
    try:
        return list(adapter.validate_python(items))
    except PydanticValidationError as exc:
        raise malformed(
            f"unexpected {model.__name__} data ({exc.error_count()} problems)", operation_id
        ) from None


def as_list(data: Any, model: type[R], operation_id: str) -> list[R]:
    """A list of records; a non-list answer is malformed."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise malformed("expected a list", operation_id)
    return _validate_all(model, data, operation_id)


def as_record(data: Any, model: type[R], operation_id: str | None = None) -> R:
    """One record (an absent answer becomes an empty record where the model allows it)."""
    return _validate(model, data if data is not None else {}, operation_id)


def as_page(data: Any, model: type[R], operation_id: str) -> Page[R]:
    """A page of records in any known shape."""
    try:
        page = parse_page(data)
    except ValueError as exc:
        raise malformed(str(exc), operation_id) from None
    items = tuple(_validate_all(model, page.items, operation_id))
    return Page(items, page.number, page.size, page.total_items, page.total_pages)


async def iterate_pages(
    fetch: Callable[[int], Awaitable[Page[R]]], *, start: int = 0
) -> AsyncIterator[R]:
    """Every item of every page, fetching one page at a time."""
    number = start
    while True:
        page = await fetch(number)
        for item in page.items:
            yield item
        if not page.has_next or not page.items:
            return
        number += 1


class Area:
    """A group of operations; holds the invoker."""

    def __init__(self, invoker: Invoker) -> None:
        self._invoker = invoker

    async def _call(self, operation_id: str, **kwargs: Any) -> Any:
        return await self._invoker.call(operation_id, **kwargs)
