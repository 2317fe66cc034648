"""The real program on an in-process sandbox, for the security tests (imported by name)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QApplication

from portal_admin.client import MemoryTokenStore, TokenStore
from portal_admin.ui.app import Application
from portal_admin.ui.options import StartOptions
from portal_admin.ui.panels import PanelRegistry, wait_idle
from portal_admin.ui.profiles import Profile, ProfileStore
from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.session.sandbox_factory import transport_for_app

ADMIN = "admin@sandbox.test"
ADMIN_PASSWORD = "Sandbox-Admin-2026!"


def build_program(
    qapp: QApplication,
    folder: Path,
    sandbox_app: Any,
    registry: PanelRegistry,
    store: Callable[[], TokenStore] = MemoryTokenStore,
    **options: Any,
) -> Application:
    """The program on the sandbox profile, started: the sign-in window shows."""

    def service(profile: Profile, language: str | None) -> ClientService:
        return ClientService(
            profile,
            language=language,
            transport_factory=lambda _p: transport_for_app(sandbox_app),
            token_store=store(),
        )

    app = Application(
        qapp,
        StartOptions(sandbox=True, lang="en", **options),
        store=ProfileStore(folder / "profiles.json"),
        registry=registry,
        service_factory=service,
    )
    app.start()
    return app


async def sign_in_otp(app: Application) -> str:
    """Sign in with the authenticator code; returns the code used."""
    window = app.sign_in_window
    assert window is not None and app.service is not None
    tools = app.service.sandbox_tools()
    assert tools is not None
    window.fill_demo_admin()
    assert await window.submit_credentials()
    window.mfa.select_method("OTP")
    code = await tools.totp(ADMIN)
    window.mfa.code.setText(code)
    assert await window.submit_code()
    assert app.workspace is not None
    await wait_idle(app.runner)
    return code


async def sign_in_email(app: Application) -> str:
    """Sign in with an emailed code; returns the code used."""
    window = app.sign_in_window
    assert window is not None and app.service is not None
    tools = app.service.sandbox_tools()
    assert tools is not None
    window.fill_demo_admin()
    assert await window.submit_credentials()
    assert await window.send_code()
    mail = await tools.mailbox(ADMIN)
    code = mail[0].code
    assert code
    window.mfa.code.setText(code)
    assert await window.submit_code()
    assert app.workspace is not None
    await wait_idle(app.runner)
    return code
