"""Helpers every panel test may use (no tests here); an area's own ones are in its
``<area>/support.py`` (any area may import them), those of every suite in ``tests/support``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx
import qasync
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import save_screenshot
from support import portal
from support.accounts import ADMIN, AUDITOR

__all__ = [
    "ADMIN",
    "AUDITOR",
    "PROFILE",
    "SHOTS",
    "Make",
    "SignIn",
    "answer_box",
    "client_for",
    "open_box",
    "place_panel",
    "run",
    "shown_codes",
    "sign_in_as",
    "wait_for",
]

T = TypeVar("T")
W = TypeVar("W", bound=QWidget)

BASE_URL = "http://sandbox.local"
#: The connection profile the journaled changes of the panel tests are recorded under.
PROFILE = "Sandbox"
#: The ``panel_context`` fixture's type.
Make = Callable[..., PanelContext]
#: The ``signed_in`` fixture's type: ``(who, language="en", *, read_only=False)``.
SignIn = Callable[..., PortalClient]
#: Where the panel tests save their screenshots.
SHOTS = Path("/tmp/shots/panels")


def place_panel(qtbot: Any, panel: W, width: int, height: int, *, visible: bool = True) -> W:
    """``panel`` sized ``width`` by ``height`` and shown (unless ``visible`` is false), deleted
    by ``qtbot`` after the test: how every panel builder of these tests starts."""
    qtbot.addWidget(panel)
    panel.resize(width, height)
    if visible:
        panel.show()
    return panel


def run(loop: qasync.QEventLoop, coro: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
    """Run ``coro`` on the qasync loop with a time limit."""
    result: T = loop.run_until_complete(asyncio.wait_for(coro, timeout))
    return result


async def wait_for(predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
    """Let the loop run until ``predicate()`` is truthy; returns its value."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def open_box() -> QMessageBox | None:
    """The visible message box, if any."""
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QMessageBox) and widget.isVisible():
            return widget
    return None


async def answer_box(accept: bool, shot: Path | None = None) -> str:
    """Wait for the confirmation, click confirm or Cancel; returns its text (and saves a shot)."""
    box: QMessageBox = await wait_for(open_box)
    text = box.text()
    if shot is not None:
        await asyncio.sleep(0.05)
        save_screenshot(box, shot)
    wanted = QMessageBox.ButtonRole.AcceptRole if accept else QMessageBox.ButtonRole.RejectRole
    button = next(b for b in box.buttons() if box.buttonRole(b) == wanted)
    button.click()
    await wait_for(lambda: not box.isVisible())
    return text


def shown_codes(source: Any) -> list[str | None]:
    """Error codes presented by the runner (``source``: the runner or a PanelContext)."""
    runner = getattr(source, "runner", source)
    return [info.code for info in runner.shown]


def client_for(app: Any, language: str = "en", *, read_only: bool = False) -> PortalClient:
    """A client of the in-process sandbox ``app`` speaking ``language`` (not signed in)."""
    return PortalClient(
        BASE_URL,
        ClientOptions(
            access_code="SANDBOX",
            language=language,  # type: ignore[arg-type]
            read_only=read_only,
        ),
        transport=httpx.ASGITransport(app=app),
        token_store=MemoryTokenStore(),
    )


async def sign_in_as(
    app: Any, email: str, password: str, language: str = "en", *, read_only: bool = False
) -> PortalClient:
    """A client of ``app`` signed in with the authenticator code the sandbox shows."""
    client = client_for(app, language, read_only=read_only)
    await client.__aenter__()
    await portal.sign_in(client, email, password, method="OTP")
    return client
