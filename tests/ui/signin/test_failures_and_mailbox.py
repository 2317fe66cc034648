"""Network failures, the demo mailbox, profiles and retranslation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import qasync
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTranslator
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from portal_admin.client import MemoryTokenStore
from portal_admin.ui.profiles.store import EnvironmentType, Profile, sandbox_profile
from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.signin.flow import SignInFlow, Step
from portal_admin.ui.signin.pages import ForgotPage
from portal_admin.ui.signin.window import SignInWindow

from .conftest import ADMIN, ADMIN_PASSWORD, NEWUSER, Runner, settle


def refuse(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


@pytest.fixture
def offline_window(qtbot: QtBot, loop: qasync.QEventLoop) -> Iterator[SignInWindow]:
    service = ClientService(
        sandbox_profile(),
        language="en",
        transport_factory=lambda _p: httpx.MockTransport(refuse),
        token_store=MemoryTokenStore(),
    )
    win = SignInWindow(SignInFlow(service), [sandbox_profile()])
    qtbot.addWidget(win)
    win.show()
    yield win
    loop.run_until_complete(service.close())


def test_network_failure_leaves_the_form_intact(
    qtbot: QtBot, offline_window: SignInWindow, run: Runner
) -> None:
    window = offline_window

    async def scenario() -> bool:
        qtbot.keyClicks(window.credentials.email, ADMIN)
        qtbot.keyClicks(window.credentials.password, ADMIN_PASSWORD)
        return await window.submit_credentials()

    assert run(scenario()) is False
    assert window.flow.step is Step.CREDENTIALS
    assert window.error.isVisible()
    assert window.error.summary.text() == "The server could not be reached."
    assert window.credentials.email.text() == ADMIN
    assert window.credentials.password.text() == ADMIN_PASSWORD
    assert window.credentials.sign_in_button.isEnabled()
    assert not window.busy.isVisible()


def test_demo_mailbox_lists_mail_with_copy_buttons(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner, shot_dir: Path
) -> None:
    async def scenario() -> None:
        window.fill_demo_admin()
        assert await window.submit_credentials()
        assert await window.send_code()
        mailbox = await window.open_mailbox()
        assert mailbox is not None
        qtbot.addWidget(mailbox)
        assert mailbox.isVisible() and not mailbox.isModal()
        assert mailbox.address.text() == ADMIN
        assert mailbox.table.rowCount() == 1
        item = mailbox.selected()
        assert item is not None and item.code
        assert mailbox.code.value.text() == item.code
        assert mailbox.body.toPlainText() == item.body
        mailbox.code.copy_button.click()
        assert QGuiApplication.clipboard().text() == item.code
        mailbox.grab().save(str(shot_dir / "demo-mailbox.png"))

        mailbox.address.setText(NEWUSER)
        mailbox.refresh_button.click()
        await settle(mailbox)
        assert mailbox.session.value.text()
        assert not mailbox.token.copy_button.isEnabled()

        mailbox.address.setText("")
        assert not await mailbox.refresh()
        assert mailbox.error.isVisible()

    run(scenario())


def test_demo_mailbox_closes_with_its_button_and_escape(
    qtbot: QtBot, window: SignInWindow, run: Runner
) -> None:
    mailbox = run(window.open_mailbox())
    assert mailbox is not None
    qtbot.addWidget(mailbox)
    close = mailbox.close_buttons.button(QDialogButtonBox.StandardButton.Close)
    assert close is not None and close.isVisible()
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert not mailbox.isVisible()
    mailbox = run(window.open_mailbox())  # the same window, shown again
    assert mailbox is not None and mailbox.isVisible()
    mailbox.address.setFocus()
    qtbot.keyClick(mailbox.address, Qt.Key.Key_Escape)
    assert not mailbox.isVisible()


def test_profile_picker_shows_the_environment(window: SignInWindow) -> None:
    staging = Profile(
        name="Staging", base_url="https://staging.example.com", environment=EnvironmentType.STAGING
    )
    window.profiles = [sandbox_profile(), staging]
    window.credentials.set_profiles(window.profiles, window.flow.profile)
    assert window.credentials.environment.text() == "SANDBOX"
    assert window.credentials.demo_box.isVisible()
    window.credentials.profile_combo.setCurrentIndex(1)
    assert window.flow.profile == staging
    assert window.credentials.environment.text() == "STAGING"
    assert not window.credentials.demo_box.isVisible()
    assert not window.mailbox_button.isVisible()
    assert "STAGING" in window.banner.text()


class Shouting(QTranslator):
    """Translates every sign-in text to upper case (proves texts go through tr)."""

    def translate(  # type: ignore[override]
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        return source.upper() if context.startswith("SignIn") else ""


def test_language_change_retranslates(window: SignInWindow, qapp: QObject) -> None:
    assert window.credentials.sign_in_button.text() == "Sign in"
    for step in Step:  # pages are built on first use: build them all before the switch
        window.page(step)
    assert window.reset.submit_button.text() == "Set new password"
    translator = Shouting()
    QCoreApplication.installTranslator(translator)
    try:
        QCoreApplication.sendEvent(window, QEvent(QEvent.Type.LanguageChange))
        for page in window.pages.values():
            QCoreApplication.sendEvent(page, QEvent(QEvent.Type.LanguageChange))
        assert window.credentials.sign_in_button.text() == "SIGN IN"
        assert window.credentials.email.accessibleName() == "EMAIL ADDRESS"
        assert window.windowTitle() == "SIGN IN \u2014 PORTAL ADMIN"
        assert window.reset.submit_button.text() == "SET NEW PASSWORD"
        assert window.credentials.use_admin_button.text() == "FILL IN THE ADMINISTRATOR"
    finally:
        QCoreApplication.removeTranslator(translator)


def test_every_control_has_an_accessible_name(window: SignInWindow) -> None:
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QLineEdit

    for step in Step:  # every page, built on first use
        window.page(step)
    assert window.error is not None  # the error panel too (built with the first error)
    missing = [
        w.objectName() or repr(w)
        for kind in (QAbstractButton, QLineEdit, QComboBox)
        for w in window.findChildren(kind)
        # the clear buttons inside line edits are Qt's own
        if not w.accessibleName() and not isinstance(w.parent(), QLineEdit)
    ]
    assert missing == []


class Marked(QTranslator):
    """Marks the texts of the sign-in window and of the environment types."""

    def translate(  # type: ignore[override]
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        return f"~{source}" if context in ("SignInWindow", "EnvironmentType") else ""


def test_texts_made_from_the_profile_follow_a_language_change(window: SignInWindow) -> None:
    forgot = window.page(Step.FORGOT)
    assert isinstance(forgot, ForgotPage)
    assert window.credentials.environment.text() == "SANDBOX"
    assert "already filled in" in forgot.challenge_hint.text()
    translator = Marked()
    QCoreApplication.installTranslator(translator)
    try:
        QCoreApplication.sendEvent(window, QEvent(QEvent.Type.LanguageChange))
        assert window.credentials.environment.text() == "~SANDBOX"
        assert "~The built-in sandbox accepts" in forgot.challenge_hint.text()
    finally:
        QCoreApplication.removeTranslator(translator)
    QCoreApplication.sendEvent(window, QEvent(QEvent.Type.LanguageChange))
    assert window.credentials.environment.text() == "SANDBOX"
