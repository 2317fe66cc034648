"""Page shapes A and B and both account-query shapes, normalized into one :class:`Page`.

- Shape A: ``{items, pagination: {totalPages, totalRecords, currentPage (1-based), pageSize,
  hasNext, empty, paginated}}``.
- Shape B: ``{content, page: {size, number (0-based), totalElements, totalPages}}``.
- Account query, first form: ``{accounts, totalElements, totalPages, currentPage, pageSize}``;
  second form: ``{content, totalElements, totalPages, page, size}``. Both are zero-based.

:class:`Page` is always zero-based. The builders are used by the sandbox, the parsers by the
client; both live here so that the wire is described once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from .wire import sent

T = TypeVar("T")
U = TypeVar("U")

MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 20

AccountQueryShape = Literal["accounts", "content"]


class MalformedPage(ValueError):
    """The data is none of the known page shapes."""


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a collection, zero-based."""

    items: tuple[T, ...]
    number: int
    size: int
    total_items: int
    total_pages: int

    @property
    def has_next(self) -> bool:
        """True while pages remain after this one."""
        return self.number + 1 < self.total_pages

    @property
    def is_last(self) -> bool:
        """True for the last page or a page beyond it."""
        return not self.has_next

    def map(self, fn: Callable[[T], U]) -> Page[U]:
        """The same page with every item transformed."""
        return Page(
            tuple(fn(i) for i in self.items),
            self.number,
            self.size,
            self.total_items,
            self.total_pages,
        )


def total_pages_for(total: int, size: int) -> int:
    """How many pages of ``size`` hold ``total`` items."""
    return (total + size - 1) // size if size > 0 else 0


def clamp_page_size(size: int) -> int:
    """Page sizes above the maximum are capped without error (section 8)."""
    return min(size, MAX_PAGE_SIZE)


# -- builders (server side) -------------------------------------------------------------------


class _Wire(BaseModel):
    """A page form: the spec's names as aliases; every field sent."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class Pagination(_Wire):
    """Shape A's ``pagination`` (``currentPage`` 1-based)."""

    total_pages: int = Field(ge=0)
    total_records: int = Field(ge=0)
    current_page: int = Field(ge=1)
    page_size: int = Field(ge=1, le=MAX_PAGE_SIZE)
    has_next: bool
    empty: bool
    paginated: bool


class PageA(_Wire, Generic[T]):
    """Shape A: ``{items, pagination}``."""

    items: list[T]
    pagination: Pagination


class AccountsPage(_Wire, Generic[T]):
    """The account query's first form (zero-based)."""

    accounts: list[T] = Field(max_length=MAX_PAGE_SIZE)
    total_elements: int = Field(ge=0)
    total_pages: int = Field(ge=0)
    current_page: int = Field(ge=0)
    page_size: int = Field(ge=1, le=MAX_PAGE_SIZE)


class ContentPage(_Wire, Generic[T]):
    """The account query's second form (zero-based)."""

    content: list[T] = Field(max_length=MAX_PAGE_SIZE)
    total_elements: int = Field(ge=0)
    total_pages: int = Field(ge=0)
    page: int = Field(ge=0)
    size: int = Field(ge=1, le=MAX_PAGE_SIZE)


def shape_a(items: Sequence[Any], *, number: int, size: int, total: int) -> dict[str, Any]:
    """Shape A for a zero-based page ``number``."""
    pages = total_pages_for(total, size)
    pagination = {
        "total_pages": pages,
        "total_records": total,
        "current_page": number + 1,
        "page_size": size,
        "has_next": number + 1 < pages,
        "empty": len(items) == 0,
        "paginated": True,
    }
    return sent(PageA, {"items": list(items), "pagination": sent(Pagination, pagination)})


def shape_b(items: Sequence[Any], *, number: int, size: int, total: int) -> dict[str, Any]:
    """Shape B for a zero-based page ``number`` (no operation of the registry answers it; the
    client reads it from servers that do)."""
    return {
        "content": list(items),
        "page": {
            "size": size,
            "number": number,
            "totalElements": total,
            "totalPages": total_pages_for(total, size),
        },
    }


def account_query(
    items: Sequence[Any], *, number: int, size: int, total: int, shape: AccountQueryShape
) -> dict[str, Any]:
    """One of the two account-query shapes of section 4.4."""
    pages = total_pages_for(total, size)
    if shape == "accounts":
        first = {"current_page": number, "page_size": size}
        return sent(
            AccountsPage,
            {"accounts": list(items), "total_elements": total, "total_pages": pages, **first},
        )
    second = {"page": number, "size": size}
    return sent(
        ContentPage,
        {"content": list(items), "total_elements": total, "total_pages": pages, **second},
    )


def _int(obj: dict[str, Any], *keys: str, default: int = 0) -> int:
    for key in keys:
        value = obj.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return default


def parse_page(data: Any) -> Page[Any]:
    """Normalize any known page shape (A, B, or either account-query form) into a Page."""
    if not isinstance(data, dict):
        raise MalformedPage("page data is not an object")
    if isinstance(data.get("items"), list):
        pag = data.get("pagination")
        pag = pag if isinstance(pag, dict) else {}
        items = data["items"]
        size = _int(pag, "pageSize", default=len(items) or DEFAULT_PAGE_SIZE)
        total = _int(pag, "totalRecords", default=len(items))
        current = _int(pag, "currentPage", default=1)
        pages = _int(pag, "totalPages", default=total_pages_for(total, size))
        return Page(tuple(items), max(current - 1, 0), size, total, pages)
    if isinstance(data.get("accounts"), list):
        items = data["accounts"]
        size = _int(data, "pageSize", "size", default=len(items) or DEFAULT_PAGE_SIZE)
        total = _int(data, "totalElements", default=len(items))
        pages = _int(data, "totalPages", default=total_pages_for(total, size))
        return Page(tuple(items), _int(data, "currentPage", "page"), size, total, pages)
    if isinstance(data.get("content"), list):
        items = data["content"]
        page = data.get("page")
        if isinstance(page, dict):  # shape B
            size = _int(page, "size", default=len(items) or DEFAULT_PAGE_SIZE)
            total = _int(page, "totalElements", default=len(items))
            pages = _int(page, "totalPages", default=total_pages_for(total, size))
            return Page(tuple(items), _int(page, "number"), size, total, pages)
        size = _int(data, "size", "pageSize", default=len(items) or DEFAULT_PAGE_SIZE)
        total = _int(data, "totalElements", default=len(items))
        pages = _int(data, "totalPages", default=total_pages_for(total, size))
        return Page(tuple(items), _int(data, "page", "currentPage"), size, total, pages)
    raise MalformedPage("page data has neither items, accounts nor content")
