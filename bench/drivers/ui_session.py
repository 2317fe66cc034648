"""What the UI drivers share: offscreen Qt on a qasync loop, the in-process sandbox on a copy of
a seeded database, a signed-in client, and the panel context the main window gives panels."""

from __future__ import annotations

import asyncio
import os
import resource
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx

T = TypeVar("T")


def qt_loop() -> tuple[Any, asyncio.AbstractEventLoop]:
    """The QApplication and its qasync loop (offscreen unless a display is set)."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import qasync
    from PySide6.QtWidgets import QApplication

    qapp = QApplication.instance() or QApplication(["bench"])
    qapp.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    return qapp, loop


def sandbox_transport(db: Path, accounts: int) -> tuple[Any, httpx.AsyncBaseTransport]:
    """The built-in sandbox's app on ``db`` and its in-process transport (as the UI builds it)."""
    from portal_admin.ui.session.sandbox_factory import create_sandbox_app, transport_for_app

    app = create_sandbox_app(str(db), seed_accounts=accounts, test_clock=True)
    return app, transport_for_app(app)


async def signed_in_client(transport: httpx.AsyncBaseTransport) -> Any:
    """A ``PortalClient`` for the sandbox profile, signed in as the demo administrator."""
    from portal_admin.client import MemoryTokenStore, PortalClient
    from portal_admin.ui.profiles.store import sandbox_profile
    from portal_admin.ui.session.client_service import client_options
    from portal_admin.ui.session.sandbox_factory import SANDBOX_BASE_URL

    from ..common import ADMIN, sign_in

    options = client_options(sandbox_profile())
    options = type(options)(**{**_fields(options), "client_hash": "bench-client"})
    client = PortalClient(
        SANDBOX_BASE_URL, options, transport=transport, token_store=MemoryTokenStore()
    )
    await client.__aenter__()
    await sign_in(client, ADMIN)
    return client


def _fields(obj: Any) -> dict[str, Any]:
    import dataclasses

    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def panel_context(client: Any) -> Any:
    """The context the main window hands panels (runner failures are logged, not shown)."""
    from portal_admin.ui.operations import OperationRunner
    from portal_admin.ui.panels.registry import PanelContext
    from portal_admin.ui.profiles.store import sandbox_profile

    shown: list[Any] = []
    runner = OperationRunner(presenter=lambda info, title, parent: shown.append(info))
    return PanelContext(runner=runner, profile=sandbox_profile(), client=client)


class InFlight:
    """Counts the client's requests under way (from its events)."""

    def __init__(self, client: Any) -> None:
        from portal_admin.client.events import RequestFinished, RequestStarted

        self.active: set[str] = set()
        self.last_change = time.perf_counter()
        self.total = 0

        def on_event(event: Any) -> None:
            if isinstance(event, RequestStarted):
                self.active.add(event.request_id)
                self.total += 1
            elif isinstance(event, RequestFinished):
                self.active.discard(event.request_id)
            self.last_change = time.perf_counter()

        self.unsubscribe = client.events.subscribe(on_event, RequestStarted, RequestFinished)

    async def settle(self, quiet: float = 0.15, timeout: float = 20.0) -> bool:
        """Wait until no request has been under way for ``quiet`` seconds (False: timed out)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if not self.active and time.perf_counter() - self.last_change >= quiet:
                return True
            await asyncio.sleep(0.02)
        return False


def peak_rss_kib() -> int:
    """Peak resident set size of this process, in KiB.

    ``VmHWM`` of ``/proc/self/status`` where there is one: ``ru_maxrss`` survives ``exec``
    on Linux, so a process forked from a big parent would report the parent's peak.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def rss_kib() -> int:
    """Current resident set size of this process, in KiB (0 where unknown)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


async def next_turn() -> None:
    """Resume on a later turn of the Qt event loop (after pending events, paint included)."""
    from PySide6.QtCore import QTimer

    done = asyncio.get_running_loop().create_future()
    QTimer.singleShot(0, lambda: done.done() or done.set_result(None))
    await done


async def timed(awaitable: Callable[[], Awaitable[T]]) -> tuple[float, T]:
    """Seconds an awaitable takes, and its result."""
    start = time.perf_counter()
    result = await awaitable()
    return time.perf_counter() - start, result
