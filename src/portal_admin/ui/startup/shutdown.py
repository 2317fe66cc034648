"""Async shutdown hooks: later code registers closers (API client, Secure Channel session)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

ShutdownHook = Callable[[], Awaitable[object]]


class ShutdownHooks:
    """Closers run once, newest first, each with a time limit; failures are logged."""

    def __init__(self, timeout: float = 5.0) -> None:
        self._hooks: list[tuple[str, ShutdownHook]] = []
        self._timeout = timeout
        self._done = False

    def register(self, hook: ShutdownHook, name: str | None = None) -> Callable[[], None]:
        """Add ``hook``; returns a function that removes it again."""
        entry = (name or str(getattr(hook, "__qualname__", repr(hook))), hook)
        self._hooks.append(entry)

        def remove() -> None:
            if entry in self._hooks:
                self._hooks.remove(entry)

        return remove

    async def run(self) -> None:
        """Run every hook (newest first) once; later calls do nothing."""
        if self._done:
            return
        import asyncio  # not at start-up: the first window shows before asyncio is imported

        self._done = True
        while self._hooks:
            name, hook = self._hooks.pop()
            try:
                await asyncio.wait_for(hook(), self._timeout)
            except TimeoutError:
                log.warning("shutdown hook %s timed out", name)
            except Exception:
                log.exception("shutdown hook %s failed", name)
        await self._close_journals()

    async def _close_journals(self) -> None:
        """Last, after the client's closers: each journal this process wrote to gets what is
        queued and a signed checkpoint of its head (docs/evidence.md), in a worker thread
        (the key is read from the keyring)."""
        recorder = sys.modules.get("portal_admin.evidence.recorder")
        if recorder is None:  # no client was built: nothing was journaled
            return
        from portal_admin.ui.file_work import in_worker

        try:
            await in_worker(recorder.close_journals, timeout=self._timeout)
        except TimeoutError:
            log.warning("closing the journal timed out")
