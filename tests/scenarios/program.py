"""Starting the real program for a scenario and signing in through its sign-in window."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import qasync
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from portal_admin.client import KeyringTokenStore
from portal_admin.ui.app import Application
from portal_admin.ui.mainwindow.window import MainWindow
from portal_admin.ui.session.sandbox_factory import create_sandbox_app
from portal_admin.ui.signin.mailbox import DemoMailboxWindow
from portal_admin.ui.startup import loop_bridge
from portal_admin.ui.startup.options import StartOptions
from support.program import make_program

from . import landed
from .driver import click, click_row, person, press, settle, type_into, until

T = TypeVar("T")


def run_program(
    qapp: QApplication,
    loop: qasync.QEventLoop,
    folder: Path,
    walk: Callable[[Application], Awaitable[T]],
    *,
    lang: str = "en",
    kiosk: bool = False,
    timeout: float = 240,
    sandbox: Any = None,
) -> T:
    """``portal-admin --sandbox [--kiosk] --lang LANG`` on a fresh in-memory sandbox, its
    sign-in tokens kept where the program keeps them (the keyring's token store): started,
    its ``main`` running on the loop as it does for a person, while ``walk`` drives it; then
    quit. ``sandbox``: a sandbox made beforehand (a fresh one unless told)."""
    if sandbox is None:
        sandbox = new_sandbox()
    app = make_program(
        qapp,
        StartOptions(sandbox=True, lang=lang, kiosk=kiosk),
        sandbox,
        folder,
        store=KeyringTokenStore,
    )
    app.start()

    async def both() -> T:
        running = asyncio.ensure_future(app.main())
        try:
            return await asyncio.wait_for(walk(app), timeout)
        finally:
            app.request_quit()
            await asyncio.wait_for(running, 30)

    started = loop_bridge._started  # main() marks the loop started for the process
    try:
        result: T = loop.run_until_complete(both())
        return result
    finally:
        app.languages.set_language("en")
        loop_bridge._started = started  # as other tests of this process expect it


def new_sandbox() -> Any:
    """The built-in sandbox as ``--sandbox`` makes it (in memory, 30 generated accounts)."""
    return create_sandbox_app(":memory:", seed_accounts=30, test_clock=True)


async def sign_in_with_email_code(
    app: Application, email: str, password: str
) -> tuple[MainWindow, dict[str, bool]]:
    """Type the e-mail and password, sign in, choose "Code by email", read the code in the
    Demo mailbox, copy it, paste it into the code field and verify. Returns the main window
    and what was seen on the way (``sent_on_open``: the code went as the page opened)."""
    window = app.sign_in_window
    assert window is not None
    await until(window.isVisible, what="the sign-in window")
    await type_into(window.credentials.email, email)
    await type_into(window.credentials.password, password)
    await click(window.credentials.sign_in_button)
    await until(lambda: window.flow.step.value == "mfa" and window.mfa.isVisible(), 20,
                "the code page")  # fmt: skip
    email_radio = next(
        r for r in window.mfa.method_group.buttons() if r.property("methodCode") == "EMAIL"
    )
    await click(email_radio)
    await settle(0.6)
    seen = {"sent_on_open": window.flow.code_sent("EMAIL")}
    if landed.code_sent_on_open():
        assert seen["sent_on_open"], "the code was not sent as the code page opened"
    if not seen["sent_on_open"]:  # a person clicks Send code
        await click(window.mfa.send_button)
        await until(lambda: window.flow.code_sent("EMAIL"), 20, "the code sent")
    await click(window.mailbox_button)
    await until(lambda: isinstance(window.mailbox, DemoMailboxWindow)
                and window.mailbox.isVisible(), 20, "the demo mailbox")  # fmt: skip
    mailbox = window.mailbox
    assert mailbox is not None
    await until(lambda: bool(mailbox.code.value.text()), 20, "a code in the demo mailbox")
    code = mailbox.code.value.text()
    await click(mailbox.code.copy_button)
    await click(mailbox.close_buttons.button(QDialogButtonBox.StandardButton.Close))
    await until(lambda: not mailbox.isVisible(), 10, "the demo mailbox closed")
    await click_into(window.mfa.code)
    await press(window.mfa.code, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    seen["pasted"] = window.mfa.code.text() == code
    if not seen["pasted"]:  # no clipboard on this platform: typed as read
        await type_into(window.mfa.code, code)
    await click(window.mfa.verify_button)
    await until(lambda: app.workspace is not None, 30, "the main window")
    assert app.workspace is not None
    main = app.workspace.window
    await until(main.isVisible, what="the main window shown")
    return main, seen


async def click_into(field: Any) -> None:
    """A click into a text field."""
    await person(lambda: QTest.mouseClick(field, Qt.MouseButton.LeftButton))


async def open_panel(main: MainWindow, panel_id: str) -> Any:
    """Click the panel's entry in the navigation; the panel."""
    row = next(n for n, spec in enumerate(main.specs) if spec.id == panel_id)
    await click_row(main.nav, row)

    def there() -> bool:
        panel = main.current_panel()
        return panel is not None and panel.objectName() == f"panel-{panel_id}"

    await until(there, 20, panel_id)
    return main.current_panel()
