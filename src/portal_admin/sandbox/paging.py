"""Page and sort parameters (section 8): validation and SQL."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from portal_admin.protocol.pages import DEFAULT_PAGE_SIZE, clamp_page_size

from .errors import invalid

MAX_PAGE = 10_000_000
#: ASCII digits only: ``str.isdigit`` also takes "²", which ``int`` refuses.
_INTEGER = re.compile(r"-?[0-9]+")


@dataclass(frozen=True, slots=True)
class Paging:
    """A zero-based page number and a page size (already capped at 100)."""

    number: int
    size: int

    @property
    def offset(self) -> int:
        """Rows to skip."""
        return self.number * self.size


def _as_int(value: Any, name: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise invalid(f"{name} must be an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if len(text) <= 12 and _INTEGER.fullmatch(text):
            return int(text)
    raise invalid(f"{name} must be an integer")


def paging(page: Any = None, size: Any = None, *, default_size: int = DEFAULT_PAGE_SIZE) -> Paging:
    """Validate raw page and size (ints or numeric strings; None for the defaults).

    Negative values, a size of 0 and non-integers give 400 VALIDATION.INVALID_PARAMETER;
    sizes above 100 are capped.
    """
    number = _as_int(page, "page")
    count = _as_int(size, "size")
    number = 0 if number is None else number
    count = default_size if count is None else count
    if number < 0 or number > MAX_PAGE:
        raise invalid("page must be zero or more")
    if count < 1:
        raise invalid("size must be 1 or more")
    return Paging(number, clamp_page_size(count))


def order_by(
    sorts: Sequence[str],
    allowed: Mapping[str, str],
    *,
    default: str,
    tiebreak: str | None = None,
) -> str:
    """An ``ORDER BY`` clause from ``field,direction`` values.

    ``allowed`` maps wire field names to trusted SQL expressions; any other field, or a
    direction other than asc/desc, gives 400. ``default`` is an ``ORDER BY`` body used when no
    sort is given; ``tiebreak`` (a column) is appended in the last clause's direction.
    """
    parts: list[str] = []
    direction = "ASC"
    for raw in sorts:
        text = raw.strip()
        if not text:
            continue
        field, _, rest = text.partition(",")
        field = field.strip()
        direction_text = rest.strip().lower() or "asc"
        if field not in allowed:
            raise invalid(f"cannot sort by {field[:64]!r}")
        if direction_text not in ("asc", "desc"):
            raise invalid(f"the sort direction {direction_text[:16]!r} is neither asc nor desc")
        direction = direction_text.upper()
        parts.append(f"{allowed[field]} {direction}")
    if not parts:
        return "ORDER BY " + default
    if tiebreak is not None:
        parts.append(f"{tiebreak} {direction}")
    return "ORDER BY " + ", ".join(parts)


def one_based_paging(
    page: int | None, size: int | None, default_size: int = DEFAULT_PAGE_SIZE
) -> Paging:
    """Paging for shape-A answers, whose ``currentPage`` is 1-based: ``page`` 1 is the first
    page (0 is read as 1 too); negative values and size 0 give 400."""
    if page is not None and page < 0:
        raise invalid("page must not be negative")
    return paging(max((page or 1) - 1, 0), size, default_size=default_size)
