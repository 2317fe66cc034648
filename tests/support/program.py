"""The real program on an in-process sandbox, and the sign-in through its sign-in window."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QApplication

from portal_admin.client import MemoryTokenStore, TokenStore
from portal_admin.ui.app import Application
from portal_admin.ui.panels import register_all
from portal_admin.ui.panels.registry import PanelRegistry, wait_idle
from portal_admin.ui.profiles.store import Profile, ProfileStore
from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.session.sandbox_factory import transport_for_app
from portal_admin.ui.startup.options import StartOptions

from .accounts import ADMIN_EMAIL


def make_program(
    qapp: QApplication,
    options: StartOptions,
    sandbox_app: Any,
    folder: Path,
    registry: PanelRegistry | None = None,
    store: Callable[[], TokenStore] = MemoryTokenStore,
) -> Application:
    """The program, not started yet, its client talking to ``sandbox_app`` (any ASGI app).

    ``registry``: every real panel unless told; ``store``: a new token store per client.
    """

    def service(profile: Profile, language: str | None) -> ClientService:
        return ClientService(
            profile,
            language=language,
            transport_factory=lambda _p: transport_for_app(sandbox_app),
            token_store=store(),
        )

    return Application(
        qapp,
        options,
        store=ProfileStore(folder / "profiles.json"),
        registry=register_all(PanelRegistry()) if registry is None else registry,
        service_factory=service,
    )


def build_program(
    qapp: QApplication,
    folder: Path,
    sandbox_app: Any,
    registry: PanelRegistry,
    store: Callable[[], TokenStore] = MemoryTokenStore,
    **options: Any,
) -> Application:
    """The program on the sandbox profile, started: the sign-in window shows."""
    app = make_program(
        qapp, StartOptions(sandbox=True, lang="en", **options), sandbox_app, folder, registry, store
    )
    app.start()
    return app


async def sign_in_otp(app: Application, account: tuple[str, str] | None = None) -> str:
    """Sign in with the authenticator code; returns the code used.

    ``account``: (email, password) typed in; the demo administrator (the sign-in window's own
    button fills it in) unless told.
    """
    window = app.sign_in_window
    assert window is not None and app.service is not None
    if account is None:
        window.fill_demo_admin()
        email = ADMIN_EMAIL
    else:
        email, password = account
        window.credentials.email.setText(email)
        window.credentials.password.setText(password)
    assert await window.submit_credentials()
    window.mfa.select_method("OTP")
    tools = app.service.sandbox_tools()
    assert tools is not None
    code = await tools.totp(email)
    window.mfa.code.setText(code)
    assert await window.submit_code()
    assert app.workspace is not None
    await wait_idle(app.runner)
    return code
