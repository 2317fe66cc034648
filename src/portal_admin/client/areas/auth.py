"""Sign-in, tokens, passwords and the own profile (section 4.1)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from portal_admin.protocol import bodies, enums

from ..channel import SecureChannel
from ..errors import MalformedResponseError, PendingApprovalError, PortalError
from ..records import (
    EnumItem,
    LoginSession,
    LogoutResult,
    MfaCodeSent,
    PasswordInitResult,
    Profile,
    SuccessMessage,
    TokenPair,
)
from ..signin import CodeSent, LoginChallenge, SignedIn
from ..tokens import TokenManager
from ._base import Area, EnumArg, as_record, enum_value, operation

log = logging.getLogger("portal_admin.client.auth")


@dataclass(slots=True)
class _PendingLogin:
    session_id: str
    email: str
    deadline: datetime

    def __repr__(self) -> str:
        return f"_PendingLogin(email={self.email!r})"


class AuthArea(Area):
    """``client.auth``: the sign-in sequence, tokens, passwords, profile."""

    def __init__(self, invoker: Any, tokens: TokenManager, channel: SecureChannel) -> None:
        super().__init__(invoker)
        self._tokens = tokens
        self._channel = channel
        self._pending: _PendingLogin | None = None
        tokens.set_refresher(self._send_refresh)

    # -- state ---------------------------------------------------------------------------

    @property
    def signed_in(self) -> bool:
        """True while the client holds tokens."""
        return self._tokens.signed_in

    @property
    def email(self) -> str | None:
        """The signed-in account's email."""
        return self._tokens.email

    @property
    def token_expires_at(self) -> datetime | None:
        """When the access token expires (UTC)."""
        return self._tokens.expires_at

    @property
    def tokens_persistent(self) -> bool:
        """False when the refresh token is kept in memory only (no keyring)."""
        return self._tokens.persistent

    # -- sign-in sequence ----------------------------------------------------------------

    @operation("auth.login_initiate")
    async def start(self, email: str, password: str) -> LoginChallenge:
        """Step 1: check the password; returns the MFA methods and the session deadline."""
        data = await self._call(
            "auth.login_initiate", json=bodies.LoginInitiate.build(email=email, password=password)
        )
        answer = as_record(data, LoginSession, "auth.login_initiate")
        deadline = datetime.now(UTC) + timedelta(seconds=answer.expires_in)
        self._pending = _PendingLogin(answer.session_id, email, deadline)
        methods = tuple(
            EnumItem.model_validate(m) if isinstance(m, dict) else _method_item(m)
            for m in answer.mfa_methods
        )
        return LoginChallenge(
            email=email,
            methods=methods,
            expires_at=deadline,
            expires_in=answer.expires_in,
            pending_approval=answer.pending_approval,
            account_status=answer.account_status,
        )

    def _login(self) -> _PendingLogin:
        if self._pending is None:
            raise PortalError(
                "no sign-in in progress: call start() first", code="CLIENT.NO_LOGIN_SESSION"
            )
        return self._pending

    @operation("auth.mfa_send")
    async def send_code(self, method: EnumArg = "EMAIL") -> CodeSent:
        """Step 2 (EMAIL): have a code delivered; reports the cooldown and code lifetime."""
        pending = self._login()
        data = await self._call(
            "auth.mfa_send",
            json=bodies.MfaSend.build(
                session_id=pending.session_id, method=enum_value(enums.MFA_METHOD, method)
            ),
        )
        sent = as_record(data if isinstance(data, dict) else {}, MfaCodeSent, "auth.mfa_send")
        now = datetime.now(UTC)
        return CodeSent(
            sent=sent.sent,
            cooldown_seconds=sent.cooldown_seconds,
            code_expires_in=sent.code_expires_in,
            resend_at=now + timedelta(seconds=sent.cooldown_seconds),
            code_expires_at=now + timedelta(seconds=sent.code_expires_in),
        )

    @operation("auth.login_complete")
    async def complete(self, method: EnumArg, code: str) -> SignedIn:
        """Step 3: submit the code. Raises PendingApprovalError when the account awaits approval."""
        pending = self._login()
        data = await self._call(
            "auth.login_complete",
            json=bodies.LoginComplete.build(
                session_id=pending.session_id,
                method=enum_value(enums.MFA_METHOD, method),
                code=code,
            ),
        )
        if isinstance(data, dict) and data.get("pendingApproval") is True:
            self._pending = None
            raise PendingApprovalError(
                "the account is awaiting approval: it cannot enter yet",
                code="AUTH.PENDING_APPROVAL",
                operation_id="auth.login_complete",
                request_id=self._invoker.transport.last_request_id,
            )
        pair = _token_pair(data, "auth.login_complete")
        self._pending = None
        await self._tokens.accept(pending.email, pair, reason="login")
        assert self._tokens.expires_at is not None
        return SignedIn(pending.email, self._tokens.expires_at, pair.account_status)

    async def resume(self, email: str) -> SignedIn | None:
        """Sign in again from the stored refresh token of ``email`` (None: none, or refused)."""
        if not await self._tokens.resume(email):
            return None
        assert self._tokens.expires_at is not None
        return SignedIn(email, self._tokens.expires_at)

    @operation("auth.token_refresh")
    async def refresh(self) -> datetime:
        """Refresh the access token now (also after an automatic refresh timed out)."""
        await self._tokens.refresh(explicit=True)
        assert self._tokens.expires_at is not None
        return self._tokens.expires_at

    async def _send_refresh(self, refresh_token: str) -> TokenPair:
        data = await self._call(
            "auth.token_refresh", json=bodies.TokenRefresh.build(refresh_token=refresh_token)
        )
        return _token_pair(data, "auth.token_refresh")

    @operation("auth.logout")
    async def logout(self) -> LogoutResult:
        """End the server session, forget the tokens and close the Secure Channel session."""
        try:
            data = await self._call("auth.logout")
            return as_record(data, LogoutResult)
        finally:
            self._pending = None
            await self._tokens.clear(reason="logout", forget_stored=True)
            await self._channel.close()

    # -- passwords -----------------------------------------------------------------------

    @operation("auth.password_forgot")
    async def forgot_password(self, email: str, challenge_token: str) -> SuccessMessage:
        """Ask for a reset link; the answer is the same whether or not the email exists."""
        data = await self._call(
            "auth.password_forgot",
            json=bodies.PasswordForgot.build(email=email, challenge_token=challenge_token),
            headers={"X-Challenge-Token": challenge_token},
        )
        return as_record(data, SuccessMessage)

    @operation("auth.password_reset")
    async def reset_password(self, token: str, new_password: str) -> SuccessMessage:
        """Set a new password with the token from the emailed reset link."""
        data = await self._call(
            "auth.password_reset",
            json=bodies.PasswordReset.build(token=token, new_password=new_password),
        )
        return as_record(data, SuccessMessage)

    @operation("auth.password_init")
    async def init_password(self, session_id: str, password: str) -> PasswordInitResult:
        """First-time password setup with the initialization session id from the email."""
        data = await self._call(
            "auth.password_init",
            json=bodies.PasswordInit.build(session_id=session_id, password=password),
        )
        return as_record(data, PasswordInitResult)

    @operation("auth.password_change")
    async def change_password(self, current_password: str, new_password: str) -> SuccessMessage:
        """Change the signed-in account's password."""
        data = await self._call(
            "auth.password_change",
            json=bodies.PasswordChange.build(
                current_password=current_password, new_password=new_password
            ),
        )
        return as_record(data, SuccessMessage)

    # -- profile -------------------------------------------------------------------------

    @operation("auth.profile")
    async def profile(self) -> Profile:
        """The signed-in account's live profile."""
        return as_record(await self._call("auth.profile"), Profile)


def _method_item(raw: Any) -> EnumItem:
    value = enum_value(enums.MFA_METHOD, raw)
    code = enums.MFA_METHOD.code_of(value) if value is not None else None
    return EnumItem(code=code or str(raw), value=value)


def _token_pair(data: Any, operation_id: str) -> TokenPair:
    if not isinstance(data, dict) or not data.get("accessToken") or not data.get("refreshToken"):
        raise MalformedResponseError("the answer carries no tokens", operation_id=operation_id)
    return TokenPair.model_validate(data)
