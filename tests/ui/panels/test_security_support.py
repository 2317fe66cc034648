"""Helpers of the security panel tests (no tests here)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import qasync
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from portal_admin.ui.panels import PanelContext
from portal_admin.ui.screenshots import save_screenshot

T = TypeVar("T")
SHOTS = Path("/tmp/shots/panels")


def run(loop: qasync.QEventLoop, coro: Coroutine[Any, Any, T]) -> T:
    """Drive ``coro`` to its end on the test loop."""
    result: T = loop.run_until_complete(coro)
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


async def with_answer(
    action: Awaitable[T], accept: bool, shot: Path | None = None
) -> tuple[T, str]:
    """Run ``action`` while answering the confirmation it opens."""
    task = asyncio.ensure_future(action)
    text = await answer_box(accept, shot)
    return await task, text


def shown_codes(context: PanelContext) -> list[str]:
    """Error codes the runner presented."""
    return [info.code for info in context.runner.shown]  # type: ignore[attr-defined]


async def show(panel: QWidget, width: int = 1000, height: int = 640) -> None:
    """Show ``panel`` at a fixed size, wait for what it loads, and let it paint.

    Nothing may stay in flight when the loop stops: the in-process sandbox runs a dependency in
    a worker thread, which fails if it finishes while the qasync loop is not running.
    """
    panel.resize(width, height)
    panel.show()
    await asyncio.sleep(0.02)
    wait_idle = getattr(panel, "wait_idle", None)
    if wait_idle is not None:
        await wait_idle()
    await asyncio.sleep(0.05)


def shot(panel: QWidget, name: str, language: str = "en") -> Path:
    """Save ``panel`` as /tmp/shots/panels/<name>.png (other languages: <name>.<lang>.png)."""
    suffix = "" if language == "en" else f".{language}"
    return save_screenshot(panel, SHOTS / f"{name}{suffix}.png")


async def sign_in_as(app: Any, email: str, password: str, language: str) -> Any:
    """A client of the in-process sandbox in ``language``, signed in with the shown TOTP."""
    import httpx

    from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient

    client = PortalClient(
        "http://sandbox.local",
        ClientOptions(access_code="SANDBOX", language=language),  # type: ignore[arg-type]
        transport=httpx.ASGITransport(app=app),
        token_store=MemoryTokenStore(),
    )
    await client.__aenter__()
    await client.auth.start(email, password)
    totp = await client.http.get("/sandbox/totp", params={"email": email})
    await client.auth.complete("OTP", totp.json()["data"]["code"])
    return client
