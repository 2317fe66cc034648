"""``SignInFlow``: the sign-in wizard's logic, with plain async methods tests await."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.profiles.store import Profile

from ..session.client_service import ClientService
from . import validation
from .controller import FormController

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The wall clock, in UTC."""
    return datetime.now(UTC)


class Step(StrEnum):
    """The wizard's pages."""

    CREDENTIALS = "credentials"
    MFA = "mfa"
    PENDING = "pending"
    FORGOT = "forgot"
    FORGOT_SENT = "forgot-sent"
    RESET = "reset"
    INIT = "init"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class MfaMethod:
    """A second factor the server offers: its code (EMAIL, OTP) and the server's label."""

    code: str
    label: str

    @property
    def needs_sending(self) -> bool:
        """True for codes the server delivers (the email code)."""
        return self.code == "EMAIL"


def _code_of(error: BaseException | None) -> str | None:
    return getattr(error, "code", None)


def _is(error: BaseException | None, name: str) -> bool:
    return any(cls.__name__ == name for cls in type(error).__mro__) if error else False


class SignInFlow(FormController):
    """Drives sign-in, MFA, pending approval and the password pages over one ClientService."""

    stepChanged = Signal(str)
    #: list[MfaMethod] offered by the server for the current login session.
    methodsChanged = Signal(object)
    #: Seconds until another email code may be sent (0: now).
    cooldownChanged = Signal(int)
    #: Seconds left in the login session (0 when none runs).
    sessionRemainingChanged = Signal(int)
    #: Signed in: the account's email.
    signedIn = Signal(str)
    #: The selected connection profile changed.
    profileChanged = Signal(object)
    #: An email address the pages should show (after setup or a change of page).
    emailChanged = Signal(str)

    def __init__(
        self,
        service: ClientService,
        *,
        clock: Clock = utc_now,
        tick_ms: int = 1000,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.service = service
        self._clock = clock
        self._profile = service.profile
        self._step = Step.CREDENTIALS
        self._email = ""
        self._methods: list[MfaMethod] = []
        self._session_deadline: datetime | None = None
        self._cooldown_deadline: datetime | None = None
        self._code_sent: set[str] = set()
        self._last_cooldown = -1
        self._last_remaining = -1
        self._timer = QTimer(self)
        self._timer.setInterval(tick_ms)
        self._timer.timeout.connect(self.tick)

    # -- state -------------------------------------------------------------------------------

    @property
    def step(self) -> Step:
        """The page shown."""
        return self._step

    @property
    def profile(self) -> Profile:
        """The connection profile sign-in uses."""
        return self._profile

    @property
    def email(self) -> str:
        """The email of the current login session."""
        return self._email

    @property
    def methods(self) -> list[MfaMethod]:
        """The second factors offered for the current login session."""
        return list(self._methods)

    def code_sent(self, method: str) -> bool:
        """True once a code was sent for ``method`` in this login session."""
        return method in self._code_sent

    def cooldown_remaining(self) -> int:
        """Whole seconds until another code may be sent."""
        return self._seconds_until(self._cooldown_deadline)

    def session_remaining(self) -> int:
        """Whole seconds left in the login session."""
        return self._seconds_until(self._session_deadline)

    def _seconds_until(self, deadline: datetime | None) -> int:
        if deadline is None:
            return 0
        return max(0, math.ceil((deadline - self._clock()).total_seconds()))

    def set_profile(self, profile: Profile) -> None:
        """Sign in with ``profile`` from now on (abandons a running login session)."""
        if profile == self._profile:
            return
        self._profile = profile
        if self._step is Step.MFA:
            self._end_login_session()
            self.go_to(Step.CREDENTIALS)
        self.profileChanged.emit(profile)

    def go_to(self, step: Step) -> None:
        """Show ``step`` (messages of the previous page are cleared)."""
        if step is not Step.MFA and self._step is Step.MFA:
            self._end_login_session()
        self.clear_messages()
        self._set_step(step)

    def _set_step(self, step: Step) -> None:
        if step != self._step:
            self._step = step
            self.stepChanged.emit(step.value)

    # -- sign-in -----------------------------------------------------------------------------

    async def sign_in(self, email: str, password: str) -> bool:
        """Step 1: check email and password; on success the MFA step follows."""
        email = email.strip()
        problem = validation.check_sign_in(email, password)
        if problem:
            return self.fail(problem)

        async def start() -> Any:
            client = await self.service.use_profile(self._profile)
            return await client.auth.start(email, password)

        outcome = await self.attempt(start)
        if not outcome.ok:
            return False
        challenge: Any = outcome.value
        self._email = email
        self._code_sent.clear()
        self._cooldown_deadline = None
        if getattr(challenge, "pending_approval", False):
            self._pending()
            return False
        self._methods = [
            MfaMethod(str(m.code), str(getattr(m, "label", None) or m.code))
            for m in challenge.methods
        ]
        self._session_deadline = self._deadline_from(challenge)
        self.methodsChanged.emit(self.methods)
        self._set_step(Step.MFA)
        self._timer.start()
        self.tick()
        return True

    def _deadline_from(self, challenge: Any) -> datetime:
        """The login session's deadline on this flow's clock."""
        lifetime = getattr(challenge, "expires_in", None)
        if isinstance(lifetime, int | float) and lifetime > 0:
            return self._clock() + timedelta(seconds=lifetime)
        expires_at: datetime = challenge.expires_at
        if expires_at.tzinfo is None:
            expires_at = expires_at.replace(tzinfo=UTC)
        return self._clock() + (expires_at - utc_now())

    async def send_code(self, method: str = "EMAIL") -> bool:
        """Ask the server to send a code (email); the resend cooldown starts."""
        if self._step is not Step.MFA:
            return False
        if self.cooldown_remaining() > 0:
            return self.fail(
                fill(
                    QCoreApplication.translate(
                        "SignInFlow", "You can send another code in %1 seconds."
                    ),
                    self.cooldown_remaining(),
                )
            )

        async def send() -> Any:
            return await self.service.client.auth.send_code(method)

        outcome = await self.attempt(send, handle=self._login_error)
        if not outcome.ok:
            return False
        sent = outcome.value
        cooldown = int(getattr(sent, "cooldown_seconds", 60) or 0)
        lifetime = int(getattr(sent, "code_expires_in", 0) or 0)
        self._cooldown_deadline = self._clock() + timedelta(seconds=cooldown)
        self._code_sent.add(method)
        if lifetime:
            minutes = max(1, round(lifetime / 60))
            self.set_notice(
                fill(
                    QCoreApplication.translate(
                        "SignInFlow", "A code was sent to %1. It is valid for %2 minutes."
                    ),
                    self._email,
                    minutes,
                )
            )
        else:
            self.set_notice(
                fill(
                    QCoreApplication.translate("SignInFlow", "A code was sent to %1."), self._email
                )
            )
        self.tick()
        return True

    async def complete(self, method: str, code: str) -> bool:
        """Step 2: check the code; on success the person is signed in."""
        if self._step is not Step.MFA:
            return False
        problem = validation.check_code(code)
        if problem:
            return self.fail(problem)

        async def finish() -> Any:
            return await self.service.client.auth.complete(method, code.strip())

        outcome = await self.attempt(finish, handle=self._login_error)
        if not outcome.ok:
            return False
        self._end_login_session()
        self._set_step(Step.DONE)
        log.info("signed in with profile %r", self._profile.name)
        self.signedIn.emit(self._email)
        return True

    def _login_error(self, error: BaseException) -> bool:
        """Session expiry and pending approval leave the MFA step; others stay on it."""
        if _is(error, "PendingApprovalError"):
            self._pending()
            return True
        if _code_of(error) == "AUTH.SESSION_NOT_FOUND":
            self.expire()
            return True
        return False

    def _pending(self) -> None:
        self._end_login_session()
        self.clear_messages()
        self._set_step(Step.PENDING)

    def expire(self) -> None:
        """The login session ran out: back to step 1 with a clear message."""
        self._end_login_session()
        self._set_step(Step.CREDENTIALS)
        self.fail(
            QCoreApplication.translate(
                "SignInFlow",
                "The sign-in session expired before the code was entered. Sign in again.",
            )
        )

    def _end_login_session(self) -> None:
        self._timer.stop()
        self._session_deadline = None
        self._cooldown_deadline = None
        self._code_sent.clear()
        self.tick()

    def tick(self) -> None:
        """Update the countdowns; an expired login session goes back to step 1."""
        cooldown = self.cooldown_remaining()
        if cooldown != self._last_cooldown:
            self._last_cooldown = cooldown
            self.cooldownChanged.emit(cooldown)
        remaining = self.session_remaining()
        if remaining != self._last_remaining:
            self._last_remaining = remaining
            self.sessionRemainingChanged.emit(remaining)
        if self._step is Step.MFA and self._session_deadline is not None and remaining <= 0:
            self.expire()

    # -- passwords ---------------------------------------------------------------------------

    async def forgot_password(self, email: str, challenge_token: str) -> bool:
        """Ask for a reset email; the answer is the same whether or not the account exists."""
        email = email.strip()
        problem = validation.check_email(email) or validation.check_required(
            challenge_token, QCoreApplication.translate("SignInFlow", "Enter the challenge token.")
        )
        if problem:
            return self.fail(problem)

        async def forgot() -> Any:
            client = await self.service.use_profile(self._profile)
            return await client.auth.forgot_password(email, challenge_token.strip())

        if not (await self.attempt(forgot)).ok:
            return False
        self._email = email
        self._set_step(Step.FORGOT_SENT)
        self.set_notice(
            fill(
                QCoreApplication.translate(
                    "SignInFlow",
                    "If an account exists for %1, an email with a reset token is on its way. "
                    "Check your mail.",
                ),
                email,
            )
        )
        return True

    async def reset_password(self, token: str, new: str, repeat: str) -> bool:
        """Set a new password with the emailed reset token."""
        problem = validation.check_required(
            token, QCoreApplication.translate("SignInFlow", "Enter the reset token from the email.")
        ) or validation.check_new_password(new, repeat)
        if problem:
            return self.fail(problem)

        async def reset() -> Any:
            client = await self.service.use_profile(self._profile)
            return await client.auth.reset_password(token.strip(), new)

        if not (await self.attempt(reset)).ok:
            return False
        self._set_step(Step.CREDENTIALS)
        self.set_notice(
            QCoreApplication.translate(
                "SignInFlow", "Your password was changed. Sign in with the new password."
            )
        )
        return True

    async def init_password(self, session_id: str, new: str, repeat: str) -> bool:
        """First-time setup: choose a password with the emailed setup session id."""
        problem = validation.check_required(
            session_id,
            QCoreApplication.translate("SignInFlow", "Enter the setup session id from the email."),
        ) or validation.check_new_password(new, repeat)
        if problem:
            return self.fail(problem)

        async def init() -> Any:
            client = await self.service.use_profile(self._profile)
            return await client.auth.init_password(session_id.strip(), new)

        outcome = await self.attempt(init)
        if not outcome.ok:
            return False
        email = getattr(outcome.value, "email", None)
        if email:
            self._email = str(email)
            self.emailChanged.emit(self._email)
        self._set_step(Step.CREDENTIALS)
        self.set_notice(
            QCoreApplication.translate("SignInFlow", "Your password is set. Sign in with it now.")
        )
        return True
