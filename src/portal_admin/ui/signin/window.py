"""``SignInWindow``: the sign-in wizard (a QStackedWidget of pages) over a ``SignInFlow``.

Only the credentials page is built with the window: the other pages (second factor, pending
approval, the password pages) are built the first time they are needed (:meth:`page`), and
the demo mailbox's module is imported when the mailbox is first opened, so that the first
window of the program shows sooner (docs/performance.md, "Start-up").
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QCoreApplication, QEvent, Signal
from PySide6.QtGui import QCloseEvent, QPaintEvent
from PySide6.QtWidgets import QHBoxLayout, QStackedWidget, QVBoxLayout, QWidget

from portal_admin.ui.profiles.store import Profile, environment_label
from portal_admin.ui.widgets.banner import EnvironmentBanner
from portal_admin.ui.widgets.error_line import ErrorLine

from ..operations import Op, OperationRunner
from .flow import MfaMethod, SignInFlow, Step
from .forms import BusyBar, NoticeLabel, button
from .pages import (
    CredentialsPage,
    DonePage,
    ForgotPage,
    ForgotSentPage,
    InitPage,
    MfaPage,
    NewPasswordPage,
    Page,
    PendingPage,
    ResetPage,
)

if TYPE_CHECKING:
    from ..error_info import ErrorInfo
    from .mailbox import DemoMailboxWindow

log = logging.getLogger(__name__)

P = TypeVar("P", bound=Page)

#: The page class of each step (the credentials page is built with the window).
PAGE_TYPES: dict[Step, Callable[[QWidget], Page]] = {
    Step.CREDENTIALS: CredentialsPage,
    Step.MFA: MfaPage,
    Step.PENDING: PendingPage,
    Step.FORGOT: ForgotPage,
    Step.FORGOT_SENT: ForgotSentPage,
    Step.RESET: ResetPage,
    Step.INIT: InitPage,
    Step.DONE: DonePage,
}

DEMO_ADMIN = ("admin@sandbox.test", "Sandbox-Admin-2026!")
#: The challenge token the sandbox accepts on forgot-password (see docs/sandbox.md).
SANDBOX_CHALLENGE_TOKEN = "sandbox-challenge"


class SignInWindow(QWidget):
    """Thin widgets: reads the fields, calls the flow, shows what the flow reports."""

    signedIn = Signal(str)
    #: The person asked to edit a profile (or to make one: None); the program opens the editor.
    profileEditRequested = Signal(object)
    #: The person asked to review a campaign file without signing in (docs/reviews.md).
    campaignReviewRequested = Signal()
    #: The person closed the window (without signing in, or after).
    closed = Signal()
    #: The window was painted for the first time (it is on screen).
    firstPainted = Signal()

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
        self._painted = False
        self.banner = EnvironmentBanner(self)
        self.stack = QStackedWidget(self)
        self.stack.setObjectName("signInStack")
        self._busy = False
        self.credentials = CredentialsPage(self.stack)
        self._pages: dict[Step, Page] = {Step.CREDENTIALS: self.credentials}
        self.stack.addWidget(self.credentials)
        self.notice = NoticeLabel(self)
        self._error: ErrorLine | None = None  # built with the first error (see ``error``)
        self.busy = BusyBar(self)
        self.mailbox_button = button(self, "demoMailboxButton")
        self.review_button = button(self, "reviewCampaignButton")
        footer = QHBoxLayout()
        footer.addWidget(self.review_button)
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
        flow, c = self.flow, self.credentials
        flow.stepChanged.connect(self._step_changed)
        flow.methodsChanged.connect(self._methods_changed)
        flow.cooldownChanged.connect(self._cooldown_changed)
        flow.sessionRemainingChanged.connect(self._remaining_changed)
        flow.busyChanged.connect(self._set_busy)
        flow.errorChanged.connect(self._error_changed)
        flow.noticeChanged.connect(self.notice.show_notice)
        flow.signedIn.connect(self.signedIn)
        flow.emailChanged.connect(c.email.setText)
        flow.profileChanged.connect(self._profile_changed)
        c.profileSelected.connect(self._profile_selected)
        c.editProfileRequested.connect(self.profileEditRequested)
        self.review_button.clicked.connect(self.campaignReviewRequested)
        c.sign_in_button.clicked.connect(lambda: self._run(self.submit_credentials))
        c.password.returnPressed.connect(lambda: self._run(self.submit_credentials))
        c.email.returnPressed.connect(c.password.setFocus)
        c.forgot_button.clicked.connect(self.show_forgot)
        c.reset_button.clicked.connect(lambda: self.flow.go_to(Step.RESET))
        c.init_button.clicked.connect(lambda: self.flow.go_to(Step.INIT))
        c.demoAdminRequested.connect(self.fill_demo_admin)
        self.mailbox_button.clicked.connect(lambda: self._run(self.open_mailbox))

    # -- pages, built on first use -----------------------------------------------------------

    @property
    def pages(self) -> dict[Step, Page]:
        """The pages built so far, by step (the credentials page always)."""
        return dict(self._pages)

    def page(self, step: Step) -> Page:
        """The page of ``step``, built (and wired to the flow) on first use."""
        page = self._pages.get(step)
        if page is None:
            page = PAGE_TYPES[step](self.stack)
            self._pages[step] = page
            self._wire(step, page)
            self.stack.addWidget(page)
            for push in page.submit_buttons():
                push.setEnabled(not self._busy)
        return page

    def _typed_page(self, step: Step, kind: type[P]) -> P:
        page = self.page(step)
        assert isinstance(page, kind)
        return page

    @property
    def mfa(self) -> MfaPage:
        """Step 2: the second factor."""
        return self._typed_page(Step.MFA, MfaPage)

    @property
    def pending(self) -> PendingPage:
        """The account waits for approval."""
        return self._typed_page(Step.PENDING, PendingPage)

    @property
    def forgot(self) -> ForgotPage:
        """Forgotten password: ask for a reset email."""
        return self._typed_page(Step.FORGOT, ForgotPage)

    @property
    def forgot_sent(self) -> ForgotSentPage:
        """The reset email is on its way."""
        return self._typed_page(Step.FORGOT_SENT, ForgotSentPage)

    @property
    def reset(self) -> ResetPage:
        """A new password from the emailed reset token."""
        return self._typed_page(Step.RESET, ResetPage)

    @property
    def init(self) -> InitPage:
        """First-time password setup."""
        return self._typed_page(Step.INIT, InitPage)

    @property
    def done(self) -> DonePage:
        """Signed in."""
        return self._typed_page(Step.DONE, DonePage)

    def _wire(self, step: Step, page: Page) -> None:
        """Connect a page just built and bring it up to the flow's state."""

        def back() -> None:
            self.flow.go_to(Step.CREDENTIALS)

        if isinstance(page, MfaPage):
            page.send_button.clicked.connect(lambda: self._run(self.send_code))
            page.verify_button.clicked.connect(lambda: self._run(self.submit_code))
            page.code.returnPressed.connect(lambda: self._run(self.submit_code))
            page.totp_button.clicked.connect(lambda: self._run(self.fill_demo_totp))
            page.methodSelected.connect(self._method_selected)
            page.back_button.clicked.connect(back)
            flow = self.flow
            if flow.methods:
                page.set_methods(flow.email, flow.methods)
                self._method_selected(page.method)
            page.set_cooldown(flow.cooldown_remaining(), flow.code_sent("EMAIL"))
            page.set_remaining(flow.session_remaining())
        elif isinstance(page, PendingPage):
            page.back_button.clicked.connect(back)
        elif isinstance(page, ForgotPage):
            page.back_button.clicked.connect(back)
            page.submit_button.clicked.connect(lambda: self._run(self.submit_forgot))
            self._show_forgot_hint()
        elif isinstance(page, ForgotSentPage):
            page.back_button.clicked.connect(back)
            page.have_token_button.clicked.connect(lambda: self.flow.go_to(Step.RESET))
        elif isinstance(page, NewPasswordPage):
            submit = self.submit_reset if step is Step.RESET else self.submit_init
            page.back_button.clicked.connect(back)
            page.submit_button.clicked.connect(lambda: self._run(submit))

    def _run(self, action: Callable[[], Awaitable[object]]) -> None:
        """Start a plain async method of this window as a task (one-line slot bodies)."""
        self.runner.run_soon(Op(action, progress=False, parent=self))

    # -- actions (plain async methods; tests await them) -------------------------------------

    async def submit_credentials(self) -> bool:
        """Step 1: sign in with the email and password typed."""
        c = self.credentials
        return await self.flow.sign_in(c.email.text(), c.password.text())

    async def send_code(self) -> bool:
        """Send (or resend) the email code."""
        return await self.flow.send_code(self.mfa.method or "EMAIL")

    async def send_code_on_open(self) -> bool:
        """The MFA page opened with "Code by email" chosen: send the code, unless one was sent
        meanwhile, another method was chosen or a request is on its way (nothing is refused
        on screen for it)."""
        flow = self.flow
        if (
            flow.step is not Step.MFA
            or self.mfa.method != "EMAIL"
            or flow.code_sent("EMAIL")
            or flow.cooldown_remaining() > 0
            or flow.busy
        ):
            return False
        return await flow.send_code("EMAIL")

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
            from .mailbox import DemoMailboxWindow, MailboxController

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
        self.allow_profile_editing(False)
        self.review_button.hide()  # unlocking is for the signed-in person only
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
        page = self.page(Step(step))
        self._place_messages(page)
        self.stack.setCurrentWidget(page)
        focus: QWidget | None = None
        if isinstance(page, CredentialsPage):
            focus = page.password if page.email.text() else page.email
        elif isinstance(page, PendingPage):
            page.set_email(self.flow.email)
        elif isinstance(page, MfaPage):
            focus = page.code
            # "Code by email" preselected: the code is sent as the page opens (once a login
            # session: a code already sent is not sent again; Resend stays for another).
            if page.method == "EMAIL" and not self.flow.code_sent("EMAIL"):
                self._run(self.send_code_on_open)
        elif isinstance(page, ForgotPage):
            focus = page.email
        elif isinstance(page, NewPasswordPage):  # reset and first-time setup
            focus = page.secret
        if focus is not None:
            focus.setFocus()

    def _place_messages(self, page: Page) -> None:
        """The notice, the error panel (once built) and the busy bar sit below ``page``'s
        form, in that order."""
        for widget in (self.notice, self._error, self.busy):
            if widget is not None:
                page.messages.addWidget(widget)

    @property
    def error(self) -> ErrorLine:
        """The inline error panel, built on first use (below the notice, above the busy bar)."""
        if self._error is None:
            self._error = ErrorLine(self)
            page = self.stack.currentWidget()
            if isinstance(page, Page):
                self._place_messages(page)
        return self._error

    def _error_changed(self, info: ErrorInfo | None) -> None:
        if info is not None or self._error is not None:  # no panel is built to be hidden
            self.error.show_error(info)

    def _built_mfa(self) -> MfaPage | None:
        page = self._pages.get(Step.MFA)
        return page if isinstance(page, MfaPage) else None

    def _methods_changed(self, methods: list[MfaMethod]) -> None:
        page = self._built_mfa()
        if page is None:
            self.page(Step.MFA)  # built with the flow's methods
            return
        page.set_methods(self.flow.email, methods)
        self._method_selected(page.method)

    def _method_selected(self, method: str) -> None:
        self.mfa.totp_button.setVisible(self.flow.profile.is_sandbox and method == "OTP")

    def _cooldown_changed(self, seconds: int) -> None:
        page = self._built_mfa()
        if page is not None:  # else set when the page is built
            page.set_cooldown(seconds, self.flow.code_sent("EMAIL"))
        self._set_busy(self.flow.busy)

    def _remaining_changed(self, seconds: int) -> None:
        page = self._built_mfa()
        if page is not None:  # else set when the page is built
            page.set_remaining(seconds)

    def set_profiles(self, profiles: list[Profile], current: Profile) -> None:
        """Offer ``profiles`` (after an edit or an import) and sign in with ``current``."""
        self.profiles = list(profiles) or [current]
        self.credentials.set_profiles(self.profiles, current)
        self.flow.set_profile(current)

    def allow_profile_editing(self, on: bool) -> None:
        """Show the profile list's Edit… and New… (not in a kiosk, nor while unlocking)."""
        self.credentials.edit_profile_button.setVisible(on)
        self.credentials.new_profile_button.setVisible(on)

    def _profile_selected(self, index: int) -> None:
        if 0 <= index < len(self.profiles):
            self.flow.set_profile(self.profiles[index])

    def _profile_changed(self, profile: Profile) -> None:
        self.banner.set_profile(profile, read_only=profile.kiosk)
        self.credentials.show_profile(profile)
        self.mailbox_button.setVisible(profile.is_sandbox)
        self._show_forgot_hint()
        if not profile.is_sandbox and self.mailbox is not None:
            self.mailbox.close()

    def _show_forgot_hint(self) -> None:
        """The forgot-password page's sandbox hint, for the profile now chosen (if built)."""
        forgot = self._pages.get(Step.FORGOT)
        if not isinstance(forgot, ForgotPage):
            return
        forgot.sandbox_hint = (
            QCoreApplication.translate(
                "SignInWindow", "The built-in sandbox accepts the token already filled in."
            )
            if self.flow.profile.is_sandbox
            else ""
        )
        forgot.retranslateUi()

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self.busy.set_busy(busy)
        for page in self._pages.values():
            for push in page.submit_buttons():
                push.setEnabled(not busy)
        self.credentials.profile_combo.setEnabled(not busy and self.pinned_email is None)
        for edit in (self.credentials.edit_profile_button, self.credentials.new_profile_button):
            edit.setEnabled(not busy)
        mfa = self._built_mfa()
        if mfa is not None and not busy and self.flow.cooldown_remaining() > 0:
            mfa.send_button.setEnabled(False)

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
        self.review_button.setText(
            QCoreApplication.translate("SignInWindow", "Re&view a campaign file\u2026")
        )
        self.review_button.setAccessibleName(
            QCoreApplication.translate("SignInWindow", "Review a campaign file")
        )
        self.review_button.setToolTip(
            QCoreApplication.translate(
                "SignInWindow",
                "Decide an access-review campaign from its file alone, without signing in",
            )
        )
        self.stack.setAccessibleName(QCoreApplication.translate("SignInWindow", "Sign-in steps"))
        # texts made from the profile
        self.credentials.environment.setText(environment_label(self.flow.profile.environment))
        self._show_forgot_hint()

    @property
    def painted(self) -> bool:
        """True once the window was painted (``firstPainted`` was emitted)."""
        return self._painted

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.firstPainted.emit()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.mailbox is not None:
            self.mailbox.close()
        super().closeEvent(event)
        self.closed.emit()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
