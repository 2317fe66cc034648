"""``SignInWindow``: the sign-in wizard (a QStackedWidget of pages) over a ``SignInFlow``."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from PySide6.QtCore import QCoreApplication, QEvent, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QHBoxLayout, QStackedWidget, QVBoxLayout, QWidget

from ..banner import EnvironmentBanner
from ..operations import Op, OperationRunner
from ..profiles import Profile
from .flow import MfaMethod, SignInFlow, Step
from .forms import BusyBar, ErrorPanel, NoticeLabel, button
from .mailbox import DemoMailboxWindow, MailboxController
from .pages import (
    CredentialsPage,
    DonePage,
    ForgotPage,
    ForgotSentPage,
    InitPage,
    MfaPage,
    Page,
    PendingPage,
    ResetPage,
)

log = logging.getLogger(__name__)

DEMO_ADMIN = ("admin@sandbox.test", "Sandbox-Admin-2026!")
#: The challenge token the sandbox accepts on forgot-password (see docs/sandbox.md).
SANDBOX_CHALLENGE_TOKEN = "sandbox-challenge"


class SignInWindow(QWidget):
    """Thin widgets: reads the fields, calls the flow, shows what the flow reports."""

    signedIn = Signal(str)
    #: The person closed the window (without signing in, or after).
    closed = Signal()

    def __init__(
        self,
        flow: SignInFlow,
        profiles: list[Profile],
        *,
        runner: OperationRunner | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.flow = flow
        self.profiles = list(profiles) or [flow.profile]
        self.runner = runner or OperationRunner(parent=self)
        self.mailbox: DemoMailboxWindow | None = None
        #: Set by :meth:`pin_email`: only that account may sign in here.
        self.pinned_email: str | None = None
        self.setObjectName("signInWindow")
        self.banner = EnvironmentBanner(self)
        self.stack = QStackedWidget(self)
        self.stack.setObjectName("signInStack")
        self.credentials = CredentialsPage(self.stack)
        self.mfa = MfaPage(self.stack)
        self.pending = PendingPage(self.stack)
        self.forgot = ForgotPage(self.stack)
        self.forgot_sent = ForgotSentPage(self.stack)
        self.reset = ResetPage(self.stack)
        self.init = InitPage(self.stack)
        self.done = DonePage(self.stack)
        self.pages: dict[Step, Page] = {
            Step.CREDENTIALS: self.credentials,
            Step.MFA: self.mfa,
            Step.PENDING: self.pending,
            Step.FORGOT: self.forgot,
            Step.FORGOT_SENT: self.forgot_sent,
            Step.RESET: self.reset,
            Step.INIT: self.init,
            Step.DONE: self.done,
        }
        for page in self.pages.values():
            self.stack.addWidget(page)
        self.notice = NoticeLabel(self)
        self.error = ErrorPanel(self)
        self.busy = BusyBar(self)
        self.mailbox_button = button(self, "demoMailboxButton")
        footer = QHBoxLayout()
        footer.addStretch(1)
        footer.addWidget(self.mailbox_button)
        content = QVBoxLayout()
        content.setContentsMargins(24, 16, 24, 16)
        content.addWidget(self.stack, 1)
        content.addLayout(footer)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addLayout(content, 1)
        self._connect()
        self.credentials.set_profiles(self.profiles, flow.profile)
        self._profile_changed(flow.profile)
        self.resize(620, 600)
        self.retranslateUi()
        self._step_changed(flow.step.value)

    # -- wiring ------------------------------------------------------------------------------

    def _connect(self) -> None:
        flow, c, m = self.flow, self.credentials, self.mfa
        flow.stepChanged.connect(self._step_changed)
        flow.methodsChanged.connect(self._methods_changed)
        flow.cooldownChanged.connect(self._cooldown_changed)
        flow.sessionRemainingChanged.connect(m.set_remaining)
        flow.busyChanged.connect(self._set_busy)
        flow.errorChanged.connect(self.error.show_error)
        flow.noticeChanged.connect(self.notice.show_notice)
        flow.signedIn.connect(self.signedIn)
        flow.emailChanged.connect(c.email.setText)
        flow.profileChanged.connect(self._profile_changed)
        c.profileSelected.connect(self._profile_selected)
        c.sign_in_button.clicked.connect(lambda: self._run(self.submit_credentials))
        c.password.returnPressed.connect(lambda: self._run(self.submit_credentials))
        c.email.returnPressed.connect(c.password.setFocus)
        c.forgot_button.clicked.connect(self.show_forgot)
        c.reset_button.clicked.connect(lambda: self.flow.go_to(Step.RESET))
        c.init_button.clicked.connect(lambda: self.flow.go_to(Step.INIT))
        c.use_admin_button.clicked.connect(self.fill_demo_admin)
        m.send_button.clicked.connect(lambda: self._run(self.send_code))
        m.verify_button.clicked.connect(lambda: self._run(self.submit_code))
        m.code.returnPressed.connect(lambda: self._run(self.submit_code))
        m.totp_button.clicked.connect(lambda: self._run(self.fill_demo_totp))
        m.methodSelected.connect(self._method_selected)
        m.back_button.clicked.connect(lambda: self.flow.go_to(Step.CREDENTIALS))
        self.pending.back_button.clicked.connect(lambda: self.flow.go_to(Step.CREDENTIALS))
        self.forgot.back_button.clicked.connect(lambda: self.flow.go_to(Step.CREDENTIALS))
        self.forgot.submit_button.clicked.connect(lambda: self._run(self.submit_forgot))
        self.forgot_sent.back_button.clicked.connect(lambda: self.flow.go_to(Step.CREDENTIALS))
        self.forgot_sent.have_token_button.clicked.connect(lambda: self.flow.go_to(Step.RESET))
        for page, submit in ((self.reset, self.submit_reset), (self.init, self.submit_init)):
            page.back_button.clicked.connect(lambda: self.flow.go_to(Step.CREDENTIALS))
            page.submit_button.clicked.connect(lambda _=False, s=submit: self._run(s))
        self.mailbox_button.clicked.connect(lambda: self._run(self.open_mailbox))

    def _run(self, action: Callable[[], Awaitable[object]]) -> None:
        """Start a plain async method of this window as a task (one-line slot bodies)."""
        self.runner.run(Op(action, progress=False, parent=self))

    # -- actions (plain async methods; tests await them) -------------------------------------

    async def submit_credentials(self) -> bool:
        """Step 1: sign in with the email and password typed."""
        c = self.credentials
        return await self.flow.sign_in(c.email.text(), c.password.text())

    async def send_code(self) -> bool:
        """Send (or resend) the email code."""
        return await self.flow.send_code(self.mfa.method or "EMAIL")

    async def submit_code(self) -> bool:
        """Step 2: verify the code typed."""
        return await self.flow.complete(self.mfa.method, self.mfa.code.text())

    async def submit_forgot(self) -> bool:
        """Ask for a password reset email."""
        return await self.flow.forgot_password(
            self.forgot.email.text(), self.forgot.challenge.text()
        )

    async def submit_reset(self) -> bool:
        """Set a new password with the reset token."""
        r = self.reset
        ok = await self.flow.reset_password(r.secret.text(), r.new.text(), r.repeat.text())
        if ok:
            self._clear(r)
        return ok

    async def submit_init(self) -> bool:
        """First-time setup: set the password with the setup id."""
        i = self.init
        ok = await self.flow.init_password(i.secret.text(), i.new.text(), i.repeat.text())
        if ok:
            self._clear(i)
            self.credentials.password.clear()
        return ok

    async def fill_demo_totp(self) -> bool:
        """Sandbox only: put the authenticator code valid now into the code field."""
        tools = self.flow.service.sandbox_tools()
        if tools is None:
            return False
        outcome = await self.flow.attempt(lambda: tools.totp(self.flow.email))
        if outcome.ok and outcome.value:
            self.mfa.code.setText(outcome.value)
        return outcome.ok

    async def open_mailbox(self) -> DemoMailboxWindow | None:
        """Sandbox only: show the demo mailbox for the address in use."""
        if not self.flow.profile.is_sandbox:
            return None
        if self.mailbox is None:
            self.mailbox = DemoMailboxWindow(
                MailboxController(self.flow.service, self), runner=self.runner
            )
        self.mailbox.show()
        self.mailbox.raise_()
        address = self._current_email() or self.mailbox.address.text()
        if address:
            await self.mailbox.show_address(address)
        return self.mailbox

    def fill_demo_admin(self) -> None:
        """Sandbox only: fill in the demo administrator's email and password."""
        self.credentials.email.setText(DEMO_ADMIN[0])
        self.credentials.password.setText(DEMO_ADMIN[1])
        self.credentials.sign_in_button.setFocus()

    def show_forgot(self) -> None:
        """Open the forgot-password page with the email already typed."""
        if not self.forgot.email.text():
            self.forgot.email.setText(self.credentials.email.text().strip())
        if self.flow.profile.is_sandbox and not self.forgot.challenge.text():
            self.forgot.challenge.setText(SANDBOX_CHALLENGE_TOKEN)
        self.flow.go_to(Step.FORGOT)

    def pin_email(self, email: str) -> None:
        """Sign in again as ``email`` only (the idle lock): the field is filled and read-only."""
        self.pinned_email = email
        self.credentials.email.setText(email)
        self.credentials.email.setReadOnly(True)
        self.credentials.profile_combo.setEnabled(False)
        self.credentials.set_unlocking()
        self.retranslateUi()
        self.credentials.password.setFocus()

    # -- reactions ---------------------------------------------------------------------------

    def _current_email(self) -> str:
        step = self.flow.step
        if step in (Step.FORGOT, Step.FORGOT_SENT):
            return self.forgot.email.text().strip()
        if step is Step.MFA:
            return self.flow.email
        return self.credentials.email.text().strip()

    def _clear(self, page: ResetPage | InitPage) -> None:
        for edit in (page.secret, page.new, page.repeat):
            edit.clear()

    def _step_changed(self, step: str) -> None:
        page = self.pages[Step(step)]
        for widget in (self.notice, self.error, self.busy):  # messages sit below the form
            page.messages.addWidget(widget)
        self.stack.setCurrentWidget(page)
        if Step(step) is Step.PENDING:
            self.pending.set_email(self.flow.email)
        focus = {
            Step.CREDENTIALS: self.credentials.password
            if self.credentials.email.text()
            else self.credentials.email,
            Step.MFA: self.mfa.code,
            Step.FORGOT: self.forgot.email,
            Step.RESET: self.reset.secret,
            Step.INIT: self.init.secret,
        }.get(Step(step))
        if focus is not None:
            focus.setFocus()

    def _methods_changed(self, methods: list[MfaMethod]) -> None:
        self.mfa.set_methods(self.flow.email, methods)
        self._method_selected(self.mfa.method)

    def _method_selected(self, method: str) -> None:
        self.mfa.totp_button.setVisible(self.flow.profile.is_sandbox and method == "OTP")

    def _cooldown_changed(self, seconds: int) -> None:
        self.mfa.set_cooldown(seconds, self.flow.code_sent("EMAIL"))
        self._set_busy(self.flow.busy)

    def _profile_selected(self, index: int) -> None:
        if 0 <= index < len(self.profiles):
            self.flow.set_profile(self.profiles[index])

    def _profile_changed(self, profile: Profile) -> None:
        self.banner.set_profile(profile, read_only=profile.kiosk)
        self.credentials.show_profile(profile)
        self.mailbox_button.setVisible(profile.is_sandbox)
        self.forgot.sandbox_hint = (
            QCoreApplication.translate(
                "SignInWindow", "The built-in sandbox accepts the token already filled in."
            )
            if profile.is_sandbox
            else ""
        )
        self.forgot.retranslateUi()
        if not profile.is_sandbox and self.mailbox is not None:
            self.mailbox.close()

    def _set_busy(self, busy: bool) -> None:
        self.busy.set_busy(busy)
        for page in self.pages.values():
            for push in page.submit_buttons():
                push.setEnabled(not busy)
        self.credentials.profile_combo.setEnabled(not busy and self.pinned_email is None)
        if not busy and self.flow.cooldown_remaining() > 0:
            self.mfa.send_button.setEnabled(False)

    def retranslateUi(self) -> None:
        """Set every text in the current language."""
        self.setWindowTitle(
            QCoreApplication.translate("SignInWindow", "Unlock \u2014 Portal Admin")
            if self.pinned_email
            else QCoreApplication.translate("SignInWindow", "Sign in \u2014 Portal Admin")
        )
        self.mailbox_button.setText(
            QCoreApplication.translate("SignInWindow", "Demo mailbox\u2026")
        )
        self.mailbox_button.setAccessibleName(
            QCoreApplication.translate("SignInWindow", "Open the demo mailbox")
        )
        self.stack.setAccessibleName(QCoreApplication.translate("SignInWindow", "Sign-in steps"))

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.mailbox is not None:
            self.mailbox.close()
        super().closeEvent(event)
        self.closed.emit()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
