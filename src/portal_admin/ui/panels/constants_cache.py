"""The constants lists, fetched once per (language, list) and shared by every picker and panel.

Panels obtain the program's cache from ``PanelContext.extras["constants"]``::

    cache = context.extras["constants"]
    statuses = await cache.items("user-invitation-statuses")
    cache.label("user-invitation-statuses", "PENDING")   # from what is cached, no I/O

On a language switch the owner calls ``set_language(code)`` (after the client speaks the new
language); the cache forgets everything and emits ``cleared`` so views refetch.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from portal_admin.client.records import ConstantItem, EnumItem
from portal_admin.protocol.enums import CONSTANT_PATHS
from portal_admin.protocol.labels import is_untranslated_key
from portal_admin.ui.enum_labels import shown

log = logging.getLogger(__name__)

#: Every public list, by its constants path ("countries", "user-account-statuses", ...).
LIST_NAMES: tuple[str, ...] = CONSTANT_PATHS

ClientSource = Any  # a PortalClient, or a callable returning the current one


def method_name(list_name: str) -> str:
    """The ``client.constants`` method for a list path ("us-states" -> "us_states")."""
    if list_name not in LIST_NAMES:
        raise KeyError(f"unknown constants list: {list_name!r}")
    return list_name.replace("-", "_")


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a finished fetch's failure as seen (its waiters, if any, got it already)."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("constants fetch failed: %s", type(task.exception()).__name__)


class ConstantsCache(QObject):
    """Constants lists cached per (language, list); concurrent requests share one fetch."""

    #: Emitted with the new language after the cache was emptied (views should refetch).
    cleared = Signal(str)
    #: Emitted with the list name when a list has been fetched into the cache.
    loaded = Signal(str)

    def __init__(
        self, client: ClientSource, language: str = "en", parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._client_source = client
        self._language = language
        self._items: dict[tuple[str, str], list[ConstantItem]] = {}
        self._pending: dict[tuple[str, str], asyncio.Task[list[ConstantItem]]] = {}
        self._generation = 0
        #: How many fetches were sent (tests and diagnostics).
        self.fetch_count = 0

    @property
    def language(self) -> str:
        """The language whose labels are cached."""
        return self._language

    def _client(self) -> Any:
        source = self._client_source
        if callable(source) and not hasattr(source, "constants"):
            getter: Callable[[], Any] = source
            return getter()
        return source

    def set_client(self, client: ClientSource) -> None:
        """Use another client (or getter) from now on; what is cached stays."""
        self._client_source = client

    def set_language(self, language: str) -> None:
        """Switch language: a different one empties the cache (and emits ``cleared``)."""
        if language != self._language:
            self._language = language
            self.clear()

    def clear(self) -> None:
        """Forget every list; fetches under way finish but are not kept."""
        self._generation += 1
        self._items.clear()
        self._pending.clear()
        self.cleared.emit(self._language)

    def forget(self, list_name: str) -> None:
        """Drop ``list_name`` in the current language: the next request fetches it again."""
        self._items.pop((self._language, list_name), None)

    def cached(self, list_name: str) -> list[ConstantItem] | None:
        """The list if it is cached in the current language, else None (no I/O)."""
        return self._items.get((self._language, list_name))

    async def items(self, list_name: str) -> list[ConstantItem]:
        """The items of ``list_name`` in the current language (fetched at most once)."""
        key = (self._language, list_name)
        found = self._items.get(key)
        if found is not None:
            return found
        task = self._pending.get(key)
        if task is None:
            task = asyncio.ensure_future(self._fetch(key, method_name(list_name)))
            # Every waiter may give up before a failure: the failure is still retrieved (the
            # next request tries again), never left as "Task exception was never retrieved".
            task.add_done_callback(_retrieve)
            self._pending[key] = task
        # shield: one caller giving up must not cancel the fetch the others wait for
        return await asyncio.shield(task)

    async def _fetch(self, key: tuple[str, str], method: str) -> list[ConstantItem]:
        generation = self._generation
        self.fetch_count += 1
        try:
            result: list[ConstantItem] = list(await getattr(self._client().constants, method)())
        finally:
            if self._generation == generation:
                self._pending.pop(key, None)
        if self._generation == generation:
            self._items[key] = result
            self.loaded.emit(key[1])
        return result

    def find(self, list_name: str, code_or_value: object) -> ConstantItem | None:
        """The cached item matching a code, a numeric value or an EnumItem (None if unknown)."""
        items = self.cached(list_name) or []
        if isinstance(code_or_value, EnumItem):
            code_or_value = code_or_value.code
        for item in items:
            if isinstance(code_or_value, int) and not isinstance(code_or_value, bool):
                if item.value == code_or_value:
                    return item
            elif item.code == code_or_value:
                return item
        return None

    def label(self, list_name: str, code_or_value: object) -> str:
        """The cached label for a code, value or EnumItem; falls back to the item's own text
        (an untranslated key never: the program's own label or the code in words instead)."""
        item = self.find(list_name, code_or_value)
        if item is not None and item.label and not is_untranslated_key(item.label):
            return item.label
        if isinstance(code_or_value, EnumItem):
            return shown(code_or_value, list_name)
        if item is not None:
            return shown(item, list_name)
        if code_or_value is None:
            return ""
        return str(code_or_value)
