"""Helpers of the kiosk tests: the recording sandbox, the auditor's sign-in, ``run``.

The program itself: ``support.program.make_program`` (``tests/support/program.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import qasync

from portal_admin.protocol.operations import Operation, match
from portal_admin.ui.app import Application
from portal_admin.ui.mainwindow.workspace import Workspace
from support.accounts import AUDITOR
from support.program import sign_in_otp

T = TypeVar("T")


class RecordingApp:
    """An ASGI wrapper around the sandbox that records (method, path) of every request."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.requests: list[tuple[str, str]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            self.requests.append((scope["method"], scope["path"]))
        await self.app(scope, receive, send)

    def operations(self) -> list[tuple[str, str, Operation | None]]:
        """Every request with the stated operation it is for (None: not an API operation)."""
        return [(m, p, match(m, p)) for m, p in self.requests]


def run(loop: qasync.QEventLoop, coro: Coroutine[Any, Any, T], timeout: float = 120) -> T:
    result: T = loop.run_until_complete(asyncio.wait_for(coro, timeout))
    return result


async def sign_in_auditor(app: Application) -> Workspace:
    """The demo auditor signs in through the kiosk sign-in window (authenticator code)."""
    window = app.sign_in_window
    assert window is not None and window.isVisible()
    await sign_in_otp(app, AUDITOR)
    assert app.workspace is not None
    return app.workspace
