"""The program's wiring: start, sign in, the main window, panels, dialogs, lock, language,
production confirmation, logout and quit, against the in-process sandbox."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import qasync
from PySide6.QtCore import QT_TRANSLATE_NOOP as N
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from portal_admin.client import MemoryTokenStore
from portal_admin.ui.app import Application
from portal_admin.ui.mainwindow.about import AboutDialog
from portal_admin.ui.mainwindow.workspace import Workspace
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec, wait_idle
from portal_admin.ui.profiles.store import EnvironmentType, Profile, ProfileStore
from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.session.sandbox_factory import create_sandbox_app, transport_for_app
from portal_admin.ui.session.sandbox_tools import SandboxTools
from portal_admin.ui.signin.change_password import ChangePasswordDialog
from portal_admin.ui.signin.window import SignInWindow
from portal_admin.ui.startup.options import StartOptions

T = TypeVar("T")
ADMIN = "admin@sandbox.test"
ADMIN_PASSWORD = "Sandbox-Admin-2026!"


class FakePanel(QLabel):
    """Records the context it was built with."""

    def __init__(self, panel_id: str, context: PanelContext) -> None:
        super().__init__(panel_id)
        self.context = context


def registry(built: list[FakePanel]) -> PanelRegistry:
    reg = PanelRegistry()

    def factory(panel_id: str) -> Callable[[PanelContext], QWidget]:
        def make(context: PanelContext) -> QWidget:
            panel = FakePanel(panel_id, context)
            built.append(panel)
            return panel

        return make

    reg.register(PanelSpec("first", N("Panels", "First"), factory("first"), None, 10))
    reg.register(PanelSpec("second", N("Panels", "Second"), factory("second"), None, 20))
    return reg


@pytest.fixture
def sandbox_app() -> Any:
    return create_sandbox_app(":memory:", seed_accounts=5, test_clock=True)


@pytest.fixture
def built() -> list[FakePanel]:
    return []


@pytest.fixture
def program(
    qapp: QApplication,
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    tmp_path: Path,
    sandbox_app: Any,
    built: list[FakePanel],
) -> Iterator[Application]:
    """The program on the sandbox profile, started (the sign-in window shows)."""

    def service(profile: Profile, language: str | None) -> ClientService:
        return ClientService(
            profile,
            language=language,
            transport_factory=lambda _p: transport_for_app(sandbox_app),
            token_store=MemoryTokenStore(),
        )

    app = Application(
        qapp,
        StartOptions(sandbox=True, lang="en"),
        store=ProfileStore(tmp_path / "profiles.json"),
        registry=registry(built),
        service_factory=service,
    )
    app.start()
    yield app
    loop.run_until_complete(app.close())
    app.languages.set_language("en")


def run(loop: qasync.QEventLoop, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
    return loop.run_until_complete(asyncio.wait_for(coro, timeout))


def tools(app: Application) -> SandboxTools:
    assert app.service is not None
    found = app.service.sandbox_tools()
    assert found is not None
    return found


async def email_code(app: Application, window: SignInWindow) -> None:
    """Type the emailed code into the MFA step and submit it."""
    assert await window.send_code()
    mail = await tools(app).mailbox(ADMIN)
    assert mail and mail[0].code
    window.mfa.code.setText(mail[0].code)
    assert await window.submit_code()


async def sign_in(app: Application) -> Workspace:
    """The demo administrator signs in with the authenticator code the sandbox shows."""
    window = app.sign_in_window
    assert window is not None and window.isVisible()
    window.fill_demo_admin()
    assert await window.submit_credentials()
    window.mfa.select_method("OTP")
    window.mfa.code.setText(await tools(app).totp(ADMIN))
    assert await window.submit_code()
    assert app.workspace is not None and app.sign_in_window is None
    await wait_idle(app.runner)
    return app.workspace


def test_sign_in_main_window_panels_dialogs_and_logout(
    program: Application, loop: qasync.QEventLoop, built: list[FakePanel]
) -> None:
    workspace = run(loop, sign_in(program))
    window = workspace.window
    assert window.isVisible()
    assert [window.nav.item(i).text() for i in range(window.nav.count())] == ["First", "Second"]
    assert program.service is not None
    # the header: the live profile, with the server's label of the account's portal
    assert window.account_label.text() == (
        "Sandbox Administrator <admin@sandbox.test>  \u00b7  System portal"
    )
    assert window.request_id.text() == program.service.last_request_id
    assert window.connection_label.text() == "Connected"
    # panels are built lazily, with the signed-in client and the extras
    assert [p.text() for p in built] == ["first"]
    window.show_panel("second")
    assert [p.text() for p in built] == ["first", "second"]
    context = built[1].context
    assert context.client is program.service.client
    assert context.extras["service"] is program.service
    assert context.extras["tour"] is False
    assert set(context.extras) >= {"constants", "change_password", "confirm_change"}
    assert run(loop, context.confirm_change("Change it.")) is True  # not production
    # File > Change password…, Help > About: opened without a nested loop
    window.change_password_action.trigger()
    dialog = workspace.last_dialog
    assert isinstance(dialog, ChangePasswordDialog) and dialog.isVisible()
    dialog.close()
    context.extras["change_password"]()
    assert isinstance(workspace.last_dialog, ChangePasswordDialog)
    workspace.last_dialog.close()
    window.about_action.trigger()
    about = workspace.last_dialog
    assert isinstance(about, AboutDialog) and "Qt 6." in about.runtime.text()
    about.close()
    # File > Log out: back to the sign-in window, the email kept
    window.logout_action.trigger()
    run(loop, asyncio.gather(*program._tasks))
    assert program.workspace is None
    assert program.sign_in_window is not None and program.sign_in_window.isVisible()
    assert program.sign_in_window.credentials.email.text() == ADMIN
    assert not program.service.signed_in


def test_idle_lock_then_unlock_by_signing_in_again(
    program: Application, loop: qasync.QEventLoop, built: list[FakePanel]
) -> None:
    workspace = run(loop, sign_in(program))
    window = workspace.window
    window.show_panel("second")
    second = window.current_panel()
    window.idle.set_interval_ms(50)

    async def scenario() -> None:
        await asyncio.sleep(0.3)
        assert window.locked and not window.body.isVisible()
        window.lock_overlay.button.click()  # "Sign in again…"
        for _ in range(100):
            if workspace.reauth.window is not None:
                break
            await asyncio.sleep(0.01)
        again = workspace.reauth.window
        assert again is not None and again.isVisible()
        assert again.credentials.email.text() == ADMIN and again.credentials.email.isReadOnly()
        again.credentials.password.setText("wrong-password-1A!")
        assert not await again.submit_credentials()
        assert window.locked
        again.credentials.password.setText(ADMIN_PASSWORD)
        assert await again.submit_credentials()
        await email_code(program, again)  # the authenticator code was used already
        for _ in range(100):
            if not window.locked:
                break
            await asyncio.sleep(0.01)

    run(loop, scenario())
    assert not window.locked and window.body.isVisible()
    assert window.current_panel() is second  # the work is kept
    assert program.workspace is workspace and workspace.reauth.window is None
    assert [p.text() for p in built] == ["first", "second"]


def test_language_switch_at_run_time(
    program: Application, loop: qasync.QEventLoop, qtbot: QtBot
) -> None:
    workspace = run(loop, sign_in(program))
    window = workspace.window
    assert window.account_label.text().endswith("System portal")
    assert window.request_label.text() == "Last request id:"
    calls: list[int] = []
    original = window.retranslateUi

    def counting() -> None:
        calls.append(1)
        original()

    window.retranslateUi = counting  # type: ignore[method-assign]

    async def switch() -> None:
        window.language_actions["ja"].trigger()  # View > Language > 日本語
        await asyncio.sleep(0.05)  # LanguageChange travels through the event queue
        await wait_idle(program.runner)  # the live profile, fetched again

    run(loop, switch())
    assert calls, "the main window was not retranslated"
    assert QLocale().name() == "ja_JP"
    assert window.language_actions["ja"].isChecked()
    assert program.service is not None and program.service.accept_language == "ja"
    constants = workspace.constants
    assert constants is not None and getattr(constants, "language", None) == "ja"
    label = window.account_label.text()
    assert label.startswith("Sandbox Administrator <admin@sandbox.test>")
    assert not label.endswith("System portal")  # the server's label, now in Japanese
    assert any("\u3040" <= ch <= "\u9fff" for ch in label)
    # the program's own texts too (translations/portal_admin_ja.ts, compiled by the install)
    own = window.request_label.text()
    assert own != "Last request id:" and any("\u3040" <= ch <= "\u9fff" for ch in own)


def test_production_changes_are_confirmed(
    qapp: QApplication, loop: qasync.QEventLoop, qtbot: QtBot, sandbox_app: Any
) -> None:
    prod = Profile("Prod", "https://portal.example.com", environment=EnvironmentType.PRODUCTION)
    service = ClientService(
        prod,
        language="en",
        transport_factory=lambda _p: transport_for_app(sandbox_app),
        token_store=MemoryTokenStore(),
    )
    runner = OperationRunner()
    workspace = Workspace(service, runner, registry([]))
    workspace.window.show()
    context = workspace.context

    async def answer(choose_confirm: bool) -> bool:
        task = asyncio.ensure_future(context.confirm_change("Suspend ann@example.com."))
        box: QMessageBox | None = None
        for _ in range(100):
            await asyncio.sleep(0.01)
            boxes = [b for b in workspace.window.findChildren(QMessageBox) if b.isVisible()]
            if boxes:
                box = boxes[0]
                break
        assert box is not None, "no confirmation was asked"
        assert "PRODUCTION" in box.informativeText() and "Prod" in box.informativeText()
        buttons = {b.text(): b for b in box.buttons()}
        buttons["Apply change" if choose_confirm else "Cancel"].click()
        return await task

    try:
        assert run(loop, answer(True)) is True
        assert run(loop, answer(False)) is False
    finally:
        workspace.close()
        run(loop, service.close())


def test_quit_closes_the_client(
    program: Application, loop: qasync.QEventLoop, qtbot: QtBot
) -> None:
    workspace = run(loop, sign_in(program))
    assert program.service is not None
    client = program.service.client
    assert not client.http.is_closed
    workspace.window.quit_action.trigger()  # File > Quit
    assert program.quit_requested
    run(loop, program.close())
    assert client.http.is_closed
    assert program.workspace is None and program.sign_in_window is None


def test_after_first_window_runs_once(
    program: Application, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start-up work the first window does not wait for: the log file opens (with the
    records kept so far), then sign-in's modules are imported in a worker thread."""
    import threading

    import portal_admin.ui.app as app_module

    calls: list[object] = []

    class FakeEarlyLog:
        def hand_over(self) -> None:
            calls.append("log file opened")

    def warm(modules: tuple[str, ...]) -> threading.Thread:
        calls.append(modules)
        return threading.Thread(target=lambda: None)

    monkeypatch.setattr(app_module, "warm_imports", warm)
    program.early_log = FakeEarlyLog()  # type: ignore[assignment]
    program.after_first_window()
    program.after_first_window()
    assert calls == ["log file opened", ("portal_admin.client", "portal_admin.sandbox")]
