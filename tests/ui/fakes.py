"""Fakes shared by the UI tests: a paged collection and a portal-like error."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from portal_admin.protocol.pages import Page, total_pages_for


@dataclass(frozen=True, slots=True)
class Person:
    """A row in the fake collection."""

    id: str
    name: str
    email: str
    age: int


def people(count: int) -> list[Person]:
    """``count`` people with predictable fields."""
    return [
        Person(f"id-{i:05d}", f"Person {i:05d}", f"p{i}@example.com", 20 + i % 50)
        for i in range(count)
    ]


@dataclass
class FakeCollection:
    """A server-side collection: pages, sorting by name/age, optional delay and failures."""

    items: list[Person] = field(default_factory=lambda: people(10_000))
    delay: float = 0.0
    fail_pages: set[int] = field(default_factory=set)
    calls: list[tuple[int, int, list[tuple[str, str]]]] = field(default_factory=list)
    gate: asyncio.Event | None = None

    async def fetch(self, page: int, size: int, sort: list[tuple[str, str]]) -> Page[Person]:
        self.calls.append((page, size, list(sort)))
        if self.gate is not None:
            await self.gate.wait()
        if self.delay:
            await asyncio.sleep(self.delay)
        if page in self.fail_pages:
            raise FakePortalError("SYS.INTERNAL", 500, "boom", "req-123")
        items = self.items
        for key, direction in reversed(sort):
            items = sorted(items, key=lambda p, k=key: getattr(p, k), reverse=direction == "desc")
        chunk = items[page * size : (page + 1) * size]
        return Page(tuple(chunk), page, size, len(items), total_pages_for(len(items), size))


class FakePortalError(Exception):
    """Duck-types the client's PortalError."""

    def __init__(self, code: str, http_status: int, message: str, request_id: str) -> None:
        super().__init__(message)
        self.code = code
        self.http_status = http_status
        self.message = message
        self.request_id = request_id
