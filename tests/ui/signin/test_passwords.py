"""Forgot and reset, first-time setup and password change, against the sandbox."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.signin.change_password import ChangePasswordDialog, PasswordChangeFlow
from portal_admin.ui.signin.flow import Step
from portal_admin.ui.signin.window import SANDBOX_CHALLENGE_TOKEN, SignInWindow

from .conftest import ADMIN, ADMIN_PASSWORD, NEWUSER, Runner, latest_mail, settle, tools

NEW_PASSWORD = "Brand-New-Pass-2026"


def click(qtbot: QtBot, button: object) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # type: ignore[arg-type]


def test_forgot_and_reset_password(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner, shot_dir: Path
) -> None:
    async def scenario() -> None:
        qtbot.keyClicks(window.credentials.email, ADMIN)
        click(qtbot, window.credentials.forgot_button)
        assert window.stack.currentWidget() is window.forgot
        assert window.forgot.email.text() == ADMIN  # carried over
        assert window.forgot.challenge.text() == SANDBOX_CHALLENGE_TOKEN  # sandbox prefill
        window.grab().save(str(shot_dir / "forgot-password.png"))
        click(qtbot, window.forgot.submit_button)
        await settle(window)
        assert window.flow.step is Step.FORGOT_SENT
        assert "Check your mail" in window.forgot_sent.title.text()
        assert ADMIN in window.notice.text()

        token = (await latest_mail(service, ADMIN)).token
        assert token
        click(qtbot, window.forgot_sent.have_token_button)
        assert window.stack.currentWidget() is window.reset
        page = window.reset
        qtbot.keyClicks(page.secret, token)
        qtbot.keyClicks(page.new, NEW_PASSWORD)
        qtbot.keyClicks(page.repeat, NEW_PASSWORD)
        window.grab().save(str(shot_dir / "reset-password.png"))
        qtbot.keyClicks(page.repeat, "x")
        assert not await window.submit_reset()
        assert window.error.summary.text() == "The two new passwords do not match."
        assert page.new.text() == NEW_PASSWORD  # kept
        page.new.setText("short")
        page.repeat.setText("short")
        assert not await window.submit_reset()
        assert "at least 8 characters" in window.error.summary.text()
        page.new.setText(NEW_PASSWORD)
        page.repeat.setText(NEW_PASSWORD)
        click(qtbot, page.submit_button)
        await settle(window)
        assert window.flow.step is Step.CREDENTIALS
        assert "Sign in with the new password" in window.notice.text()
        assert page.new.text() == ""  # secrets do not linger after success

        # A used token is refused, with its code.
        window.flow.go_to(Step.RESET)
        page.secret.setText(token)
        page.new.setText(NEW_PASSWORD)
        page.repeat.setText(NEW_PASSWORD)
        assert not await window.submit_reset()
        assert window.error.info is not None
        assert window.error.info.code == "AUTH.PASSWORD_RESET_TOKEN_INVALID"
        assert page.secret.text() == token

        window.flow.go_to(Step.CREDENTIALS)
        window.credentials.password.setText(ADMIN_PASSWORD)
        assert not await window.submit_credentials()  # the old password no longer works
        window.credentials.password.setText(NEW_PASSWORD)
        assert await window.submit_credentials()

    run(scenario())
    assert window.flow.step is Step.MFA


def test_forgot_password_failed_challenge_keeps_the_form(window: SignInWindow, run: Runner) -> None:
    async def scenario() -> None:
        window.flow.go_to(Step.FORGOT)
        window.forgot.email.setText(ADMIN)
        assert not await window.submit_forgot()
        assert window.error.summary.text() == "Enter the challenge token."
        window.forgot.challenge.setText("sandbox-challenge-fail")
        assert not await window.submit_forgot()

    run(scenario())
    assert window.flow.step is Step.FORGOT
    assert window.error.info is not None and window.error.info.code
    assert window.forgot.email.text() == ADMIN


def test_first_time_setup(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner, shot_dir: Path
) -> None:
    async def scenario() -> None:
        session_id = (await latest_mail(service, NEWUSER)).session_id
        assert session_id
        click(qtbot, window.credentials.init_button)
        assert window.stack.currentWidget() is window.init
        page = window.init
        qtbot.keyClicks(page.secret, session_id)
        qtbot.keyClicks(page.new, NEW_PASSWORD)
        qtbot.keyClicks(page.repeat, NEW_PASSWORD)
        window.grab().save(str(shot_dir / "first-time-setup.png"))
        click(qtbot, page.submit_button)
        await settle(window)
        assert window.flow.step is Step.CREDENTIALS
        assert window.credentials.email.text() == NEWUSER
        assert "password is set" in window.notice.text()
        window.credentials.password.setText(NEW_PASSWORD)
        assert await window.submit_credentials()

    run(scenario())
    assert window.flow.step is Step.MFA


async def sign_in_admin(window: SignInWindow, service: ClientService) -> None:
    window.fill_demo_admin()
    assert await window.submit_credentials()
    window.mfa.select_method("OTP")
    window.mfa.code.setText(await tools(service).totp(ADMIN))
    assert await window.submit_code()


def test_change_password(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner, shot_dir: Path
) -> None:
    dialog = ChangePasswordDialog(PasswordChangeFlow(service))
    qtbot.addWidget(dialog)
    changed: list[bool] = []
    dialog.flow.changed.connect(lambda: changed.append(True))

    async def scenario() -> None:
        await sign_in_admin(window, service)
        dialog.open()
        qtbot.keyClicks(dialog.current, "Wrong-Current-1")
        qtbot.keyClicks(dialog.new, NEW_PASSWORD)
        qtbot.keyClicks(dialog.repeat, NEW_PASSWORD)
        dialog.grab().save(str(shot_dir / "change-password.png"))
        click(qtbot, dialog.submit_button)
        await settle(dialog)
        assert dialog.error.info is not None
        assert dialog.error.info.code == "AUTH.CURRENT_PASSWORD_INCORRECT"
        assert dialog.current.text() == "Wrong-Current-1"  # kept
        assert dialog.new.text() == NEW_PASSWORD
        assert dialog.submit_button.isEnabled()

        dialog.current.setText(ADMIN_PASSWORD)
        dialog.repeat.setText("different-123")
        assert not await dialog.submit()
        assert dialog.error.summary.text() == "The two new passwords do not match."
        dialog.repeat.setText(NEW_PASSWORD)
        assert await dialog.submit()
        assert dialog.notice.text() == "Your password was changed."
        assert dialog.current.text() == ""

        await service.logout()
        window.flow.go_to(Step.CREDENTIALS)
        window.credentials.password.setText(NEW_PASSWORD)
        assert await window.submit_credentials()

    run(scenario())
    assert changed == [True]
    assert window.flow.step is Step.MFA
