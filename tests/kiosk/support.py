"""Helpers of the kiosk tests: the recording sandbox, the program, the auditor's sign-in."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import qasync
from PySide6.QtWidgets import QApplication

from portal_admin.client import MemoryTokenStore
from portal_admin.protocol.operations import Operation, match
from portal_admin.ui.app import Application
from portal_admin.ui.options import StartOptions
from portal_admin.ui.panels import PanelRegistry, wait_idle
from portal_admin.ui.profiles import Profile, ProfileStore
from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.session.sandbox_factory import transport_for_app
from portal_admin.ui.views import register_all
from portal_admin.ui.workspace import Workspace

T = TypeVar("T")
AUDITOR = ("auditor@sandbox.test", "Sandbox-Audit-2026!")


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


def make_program(
    qapp: QApplication, options: StartOptions, recorder: RecordingApp, tmp_path: Path
) -> Application:
    """The real program with every real panel, its sandbox behind ``recorder``."""

    def service(profile: Profile, language: str | None) -> ClientService:
        return ClientService(
            profile,
            language=language,
            transport_factory=lambda _p: transport_for_app(recorder),
            token_store=MemoryTokenStore(),
        )

    return Application(
        qapp,
        options,
        store=ProfileStore(tmp_path / "profiles.json"),
        registry=register_all(PanelRegistry()),
        service_factory=service,
    )


async def sign_in_auditor(app: Application) -> Workspace:
    """The demo auditor signs in through the kiosk sign-in window (authenticator code)."""
    window = app.sign_in_window
    assert window is not None and window.isVisible()
    window.credentials.email.setText(AUDITOR[0])
    window.credentials.password.setText(AUDITOR[1])
    assert await window.submit_credentials()
    window.mfa.select_method("OTP")
    assert app.service is not None
    tools = app.service.sandbox_tools()
    assert tools is not None
    window.mfa.code.setText(await tools.totp(AUDITOR[0]))
    assert await window.submit_code()
    assert app.workspace is not None
    await wait_idle(app.runner)
    return app.workspace
