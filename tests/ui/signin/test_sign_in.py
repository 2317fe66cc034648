"""The whole sign-in through the real widgets, the real client and the in-process sandbox."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.signin.flow import Step
from portal_admin.ui.signin.window import SignInWindow

from .conftest import (
    ADMIN,
    ADMIN_PASSWORD,
    APPROVAL,
    APPROVAL_PASSWORD,
    AUDITOR,
    AUDITOR_PASSWORD,
    FakeClock,
    Runner,
    latest_mail,
    settle,
    tools,
)


def click(qtbot: QtBot, button: object) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # type: ignore[arg-type]


async def type_credentials(qtbot: QtBot, window: SignInWindow, email: str, password: str) -> None:
    qtbot.keyClicks(window.credentials.email, email)
    qtbot.keyClicks(window.credentials.password, password)


def test_sign_in_with_email_code(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner, shot_dir: Path
) -> None:
    signed_in: list[str] = []
    window.signedIn.connect(signed_in.append)
    signals: list[bool] = []
    service.signedInChanged.connect(lambda on, _reason: signals.append(on))

    async def scenario() -> None:
        await type_credentials(qtbot, window, ADMIN, ADMIN_PASSWORD)
        window.grab().save(str(shot_dir / "sign-in.png"))
        click(qtbot, window.credentials.sign_in_button)
        await settle(window)
        assert window.stack.currentWidget() is window.mfa
        radios = {r.property("methodCode") for r in window.mfa.method_group.buttons()}
        assert radios == {"EMAIL", "OTP"}
        assert window.mfa.method == "EMAIL"
        assert window.mfa.send_row.isVisible()
        assert (
            "4:5" in window.mfa.remaining_label.text()
            or "5:00" in window.mfa.remaining_label.text()
        )

        # "Code by email" is chosen: the code went as the page opened (once), no click needed
        assert not window.error.isVisible()
        assert ADMIN in window.notice.text()
        assert not window.mfa.send_button.isEnabled()  # the cooldown runs
        assert window.mfa.send_button.text() == "Resend code"
        assert len([m for m in await tools(service).mailbox(ADMIN) if m.code]) == 1
        code = (await latest_mail(service, ADMIN)).code
        assert code
        qtbot.keyClicks(window.mfa.code, code)
        window.grab().save(str(shot_dir / "sign-in-mfa.png"))
        click(qtbot, window.mfa.verify_button)
        await settle(window)

    run(scenario())
    assert signed_in == [ADMIN]
    assert window.flow.step is Step.DONE
    assert service.signed_in and signals[-1] is True
    assert service.last_request_id


def test_sign_in_with_authenticator_code(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner
) -> None:
    signed_in: list[str] = []
    window.signedIn.connect(signed_in.append)

    async def scenario() -> None:
        await type_credentials(qtbot, window, AUDITOR, AUDITOR_PASSWORD)
        qtbot.keyClick(window.credentials.password, Qt.Key.Key_Return)
        await settle(window)
        window.mfa.select_method("OTP")
        assert not window.mfa.send_row.isVisible()  # nothing to send for an app code
        assert window.mfa.totp_button.isVisible()  # sandbox helper
        code = await tools(service).totp(AUDITOR)
        qtbot.keyClicks(window.mfa.code, code)
        qtbot.keyClick(window.mfa.code, Qt.Key.Key_Return)
        await settle(window)

    run(scenario())
    assert signed_in == [AUDITOR]
    assert service.signed_in


def test_demo_totp_button_fills_the_code(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner
) -> None:
    async def scenario() -> None:
        window.fill_demo_admin()
        assert window.credentials.email.text() == ADMIN
        await window.submit_credentials()
        window.mfa.select_method("OTP")
        click(qtbot, window.mfa.totp_button)
        await settle(window)
        assert window.mfa.code.text() == await tools(service).totp(ADMIN)
        assert await window.submit_code()

    run(scenario())
    assert window.flow.step is Step.DONE


def test_cooldown_counts_down_and_resend_works(
    qtbot: QtBot, window: SignInWindow, service: ClientService, clock: FakeClock, run: Runner
) -> None:
    async def scenario() -> None:
        await type_credentials(qtbot, window, ADMIN, ADMIN_PASSWORD)
        assert await window.submit_credentials()
        await settle(window)  # the code is sent as the page opens
        assert window.flow.code_sent("EMAIL") and not window.error.isVisible()
        mfa = window.mfa
        assert window.flow.cooldown_remaining() == 60
        assert not mfa.send_button.isEnabled()
        assert "60" in mfa.cooldown_label.text()

        clock.advance(25)
        window.flow.tick()
        assert "35" in mfa.cooldown_label.text()
        assert not mfa.send_button.isEnabled()
        assert not await window.send_code()  # refused locally, nothing sent
        assert "35" in window.error.summary.text()

        clock.advance(35)
        window.flow.tick()
        assert window.flow.cooldown_remaining() == 0
        assert mfa.send_button.isEnabled()
        assert mfa.send_button.text() == "Resend code"

        # The server keeps its own cooldown: its clock has not moved yet.
        click(qtbot, mfa.send_button)
        await settle(window)
        assert window.flow.step is Step.MFA
        assert window.error.info is not None
        assert window.error.info.code == "AUTH.MFA_SEND_COOLDOWN"
        assert window.error.info.request_id

        await tools(service).advance_clock(61)
        click(qtbot, mfa.send_button)
        await settle(window)
        assert window.error.info is None
        assert not mfa.send_button.isEnabled()
        codes = [m.code for m in await tools(service).mailbox(ADMIN) if m.code]
        assert len(codes) == 2
        qtbot.keyClicks(mfa.code, codes[0])  # the newest code
        assert await window.submit_code()

    run(scenario())
    assert service.signed_in


def test_wrong_code_keeps_the_step(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner
) -> None:
    async def scenario() -> None:
        await type_credentials(qtbot, window, ADMIN, ADMIN_PASSWORD)
        assert await window.submit_credentials()
        assert await window.send_code()
        code = (await latest_mail(service, ADMIN)).code
        assert code
        wrong = "000000" if code != "000000" else "111111"
        qtbot.keyClicks(window.mfa.code, wrong)
        click(qtbot, window.mfa.verify_button)
        await settle(window)
        assert window.stack.currentWidget() is window.mfa
        assert window.mfa.code.text() == wrong  # what was typed stays
        info = window.error.info
        assert info is not None and info.code == "AUTH.MFA_CODE_INVALID"
        assert info.request_id and info.request_id in window.error.details.text()
        assert window.error.isVisible()
        assert not service.signed_in
        # The same login session is still usable.
        window.mfa.code.setText(code)
        assert await window.submit_code()

    run(scenario())
    assert service.signed_in


def test_login_session_expiry_goes_back_to_step_one(
    qtbot: QtBot, window: SignInWindow, clock: FakeClock, run: Runner
) -> None:
    async def scenario() -> None:
        await type_credentials(qtbot, window, ADMIN, ADMIN_PASSWORD)
        assert await window.submit_credentials()

    run(scenario())
    clock.advance(240)
    window.flow.tick()
    assert window.mfa.remaining_label.text().endswith("1:00")
    clock.advance(61)
    window.flow.tick()
    assert window.flow.step is Step.CREDENTIALS
    assert window.stack.currentWidget() is window.credentials
    assert "expired" in window.error.summary.text()
    assert window.credentials.email.text() == ADMIN
    assert window.credentials.password.text() == ADMIN_PASSWORD


def test_pending_approval_is_explained_and_not_entered(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner, shot_dir: Path
) -> None:
    signed_in: list[str] = []
    window.signedIn.connect(signed_in.append)

    async def scenario() -> None:
        await type_credentials(qtbot, window, APPROVAL, APPROVAL_PASSWORD)
        await window.submit_credentials()
        if window.flow.step is Step.MFA:
            assert await window.send_code()
            code = (await latest_mail(service, APPROVAL)).code
            assert code
            window.mfa.code.setText(code)
            assert not await window.submit_code()

    run(scenario())
    assert window.flow.step is Step.PENDING
    assert window.stack.currentWidget() is window.pending
    assert APPROVAL in window.pending.intro.text()
    assert "approved" in window.pending.detail.text()
    assert not window.error.isVisible()
    assert signed_in == []
    assert not service.signed_in
    assert not service.client.signed_in
    window.grab().save(str(shot_dir / "sign-in-pending-approval.png"))
    click(qtbot, window.pending.back_button)
    assert window.flow.step is Step.CREDENTIALS


def test_empty_fields_are_refused_before_sending(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner
) -> None:
    finished: list[str] = []
    service.requestFinished.connect(lambda op, *_: finished.append(op))

    async def scenario() -> None:
        assert not await window.submit_credentials()
        assert window.error.summary.text() == "Enter your email address."
        qtbot.keyClicks(window.credentials.email, "not-an-email")
        assert not await window.submit_credentials()
        assert "not valid" in window.error.summary.text()
        window.credentials.email.setText(ADMIN)
        assert not await window.submit_credentials()
        assert window.error.summary.text() == "Enter your password."

    run(scenario())
    assert finished == []


def test_wrong_password_shows_code_and_keeps_the_form(
    qtbot: QtBot, window: SignInWindow, run: Runner
) -> None:
    async def scenario() -> None:
        await type_credentials(qtbot, window, ADMIN, "Not-The-Password-1")
        click(qtbot, window.credentials.sign_in_button)
        await settle(window)

    run(scenario())
    info = window.error.info
    assert info is not None and info.code == "AUTH.INVALID_CREDENTIALS"
    assert "wrong" in window.error.summary.text()
    assert window.credentials.password.text() == "Not-The-Password-1"
    assert window.credentials.sign_in_button.isEnabled()


def test_busy_state_disables_submit_while_a_request_runs(
    qtbot: QtBot, window: SignInWindow, run: Runner
) -> None:
    seen: list[tuple[bool, bool, bool]] = []
    window.flow.busyChanged.connect(
        lambda busy: seen.append(
            (busy, window.credentials.sign_in_button.isEnabled(), window.busy.isVisible())
        )
    )

    async def scenario() -> None:
        await type_credentials(qtbot, window, ADMIN, ADMIN_PASSWORD)
        assert await window.submit_credentials()

    run(scenario())
    assert seen[0] == (True, False, True)
    assert seen[-1][0] is False
    assert window.mfa.verify_button.isEnabled()


def test_the_email_code_is_sent_once_when_the_page_opens(
    qtbot: QtBot, window: SignInWindow, service: ClientService, run: Runner
) -> None:
    """Opening the code page with "Code by email" chosen sends one code; going back and the
    page showing again in the same session, or another method, sends none more."""

    async def scenario() -> None:
        await type_credentials(qtbot, window, ADMIN, ADMIN_PASSWORD)
        click(qtbot, window.credentials.sign_in_button)
        await settle(window)
        assert window.mfa.method == "EMAIL"
        assert len(await tools(service).mailbox(ADMIN)) == 1
        window.mfa.select_method("OTP")
        window.mfa.select_method("EMAIL")
        await settle(window)
        assert len(await tools(service).mailbox(ADMIN)) == 1  # not again
        assert window.mfa.send_button.text() == "Resend code"

    run(scenario())
