"""Helpers of the notification panel tests (no tests here)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QWidget,
)

H = Qt.Orientation.Horizontal


async def wait_for(predicate: Callable[[], Any], timeout: float = 3.0) -> Any:
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


async def answer_box(accept: bool) -> str:
    """Wait for the confirmation box, click its confirm (or Cancel) button; returns its text."""
    box: QMessageBox = await wait_for(open_box)
    text = box.text()
    for button in box.buttons():
        role = box.buttonRole(button)
        if accept and role == QMessageBox.ButtonRole.AcceptRole:
            button.click()
            break
        if not accept and role == QMessageBox.ButtonRole.RejectRole:
            button.click()
            break
    else:  # pragma: no cover - the box always has both
        raise AssertionError("no such button")
    await wait_for(lambda: not box.isVisible())
    return text


def visible_texts(root: QWidget) -> list[str]:
    """Every text a person could read in ``root`` and its children (password fields as shown)."""
    texts: list[str] = [root.windowTitle(), root.toolTip()]
    for widget in [root, *root.findChildren(QWidget)]:
        texts += [widget.toolTip(), widget.accessibleName(), widget.windowTitle()]
        if isinstance(widget, QLabel):
            texts.append(widget.text())
        elif isinstance(widget, QLineEdit):
            texts += [widget.displayText(), widget.placeholderText()]
        elif isinstance(widget, QPlainTextEdit):
            texts.append(widget.toPlainText())
        elif isinstance(widget, QAbstractButton):
            texts.append(widget.text())
        elif isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            for row in range(model.rowCount()):
                for column in range(model.columnCount()):
                    index = model.index(row, column)
                    texts += [
                        str(index.data() or ""),
                        str(index.data(Qt.ItemDataRole.ToolTipRole) or ""),
                    ]
    return [t for t in texts if t]


def shown_codes(runner: Any) -> list[str | None]:
    """Error codes the runner has presented (in error windows)."""
    return [info.code for info in runner.shown]


async def sign_in_as(app: Any, email: str, password: str, language: str) -> Any:
    """A client signed in on ``app`` in ``language`` (as the panel fixtures do)."""
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


def end_sessions(app: Any, email: str) -> None:
    """End every server session of ``email`` behind the client's back."""
    from portal_admin.sandbox import tokens

    state = app.state.sandbox
    account = state.db.one("SELECT biz_id FROM accounts WHERE email_key = ?", (email.lower(),))
    tokens.end_sessions(state, account["biz_id"], "test")
