"""The sign-in window builds what the first page does not show on first use (start-up time):
the other pages, the error panel, the demo accounts box; what is built late is wired and
up to date."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from portal_admin.ui.profiles.store import EnvironmentType, Profile, sandbox_profile
from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.signin.flow import SignInFlow, Step
from portal_admin.ui.signin.pages import ForgotPage, MfaPage, Page
from portal_admin.ui.signin.window import SANDBOX_CHALLENGE_TOKEN, SignInWindow
from portal_admin.ui.widgets.error_line import ErrorLine

from .conftest import ADMIN, ADMIN_PASSWORD, Runner

STAGING = Profile("Staging", "https://staging.example.com", environment=EnvironmentType.STAGING)


def test_only_the_first_page_is_built_with_the_window(window: SignInWindow) -> None:
    assert set(window.pages) == {Step.CREDENTIALS}
    assert window.stack.count() == 1
    assert [type(p) for p in window.findChildren(Page)] == [type(window.credentials)]
    assert window.findChildren(ErrorLine) == []
    assert window.stack.currentWidget() is window.credentials


def test_a_page_is_built_once_wired_and_shown(window: SignInWindow, qtbot: QtBot) -> None:
    window.credentials.email.setText(ADMIN)
    window.show_forgot()
    forgot = window.pages[Step.FORGOT]
    assert isinstance(forgot, ForgotPage) and window.forgot is forgot
    assert window.stack.currentWidget() is forgot and forgot.isVisible()
    assert forgot.email.text() == ADMIN
    assert forgot.challenge.text() == SANDBOX_CHALLENGE_TOKEN
    assert "sandbox accepts the token" in forgot.challenge_hint.text()
    forgot.back_button.click()  # wired when built
    assert window.flow.step is Step.CREDENTIALS
    window.credentials.forgot_button.click()
    assert window.stack.currentWidget() is forgot and window.stack.count() == 2


def test_a_page_built_while_busy_has_its_buttons_disabled(window: SignInWindow) -> None:
    window.flow.busyChanged.emit(True)
    assert not window.reset.submit_button.isEnabled()
    window.flow.busyChanged.emit(False)
    assert window.reset.submit_button.isEnabled()


def test_the_second_factor_page_is_built_with_the_flow_state(
    window: SignInWindow, run: Runner
) -> None:
    window.fill_demo_admin()
    assert run(window.submit_credentials())
    mfa = window.pages[Step.MFA]
    assert isinstance(mfa, MfaPage) and window.stack.currentWidget() is mfa
    assert {r.property("methodCode") for r in mfa.method_group.buttons()} == {"EMAIL", "OTP"}
    assert ADMIN in mfa.intro.text()
    assert mfa.remaining_label.text()  # the login session's countdown
    mfa.select_method("OTP")
    assert mfa.totp_button.isVisible()  # sandbox helper, wired when built


def test_the_demo_box_is_built_when_first_shown(qtbot: QtBot, window: SignInWindow) -> None:
    box = window.credentials.demo_box
    assert box.built and box.isVisible()  # the sandbox profile shows it at once
    assert "admin@sandbox.test" in box.text.text()
    window.credentials.use_admin_button.click()
    assert window.credentials.email.text() == ADMIN
    assert window.credentials.password.text() == ADMIN_PASSWORD

    staging = SignInWindow(
        SignInFlow(ClientService(STAGING, language="en")), [STAGING, sandbox_profile()]
    )
    qtbot.addWidget(staging)
    staging.show()
    box = staging.credentials.demo_box
    assert not box.built and not box.isVisible()  # never shown: never built
    staging.credentials.profile_combo.setCurrentIndex(1)  # the sandbox
    assert box.built and box.isVisible()
    assert box.title() == "Demo accounts (built-in sandbox)"


def test_first_painted_is_announced_once(qtbot: QtBot, service: ClientService) -> None:
    window = SignInWindow(SignInFlow(service), [sandbox_profile()])
    qtbot.addWidget(window)
    painted: list[bool] = []
    window.firstPainted.connect(lambda: painted.append(True))
    with qtbot.waitSignal(window.firstPainted, timeout=5000):
        window.show()
    window.repaint()
    assert painted == [True]


def test_the_first_error_is_readable(window: SignInWindow, qtbot: QtBot) -> None:
    """The panel once took the height of its frame alone (1 px) on its first showing."""
    window.flow.fail("The email address or the password is wrong.")
    panel = window.error
    assert panel.isVisible()
    qtbot.waitUntil(lambda: panel.height() >= panel.summary.sizeHint().height(), timeout=2000)
    assert panel.summary.text() == "The email address or the password is wrong."
