"""Passwords: forgot (plain, Secure Channel headers), reset, change and init (sealed)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from fastapi.responses import JSONResponse

from portal_admin.protocol.bodies import PasswordChange, PasswordForgot, PasswordInit, PasswordReset
from portal_admin.protocol.enums import ACCOUNT_STATUS
from portal_admin.protocol.errors import Code
from portal_admin.protocol.records import PasswordInitResult, SuccessMessage

from ..accounts_common import by_biz_id, by_email
from ..bodies import parse
from ..channel import ChannelSession
from ..clock import to_ms
from ..db import Database
from ..deps import Ctx, CtxDep, authenticate
from ..errors import ApiError, invalid
from ..ids import sha256_hex, token
from ..mailbox import send_mail
from ..passwords import acceptable, hash_password, verify_password
from ..sealed import open_sealed, session_from_headers
from ..tokens import end_sessions
from ._route import route

router = APIRouter()

RESET_TOKEN_SECONDS = 1800
FORGOT_WINDOW = 60
#: A challenge token the sandbox refuses (lets clients test a failed bot challenge).
FAILING_CHALLENGE = "sandbox-challenge-fail"
FORGOT_MESSAGE = "If the address belongs to an account, a password reset link has been sent to it."
RESET_LINK = "https://portal.sandbox.test/reset-password?token="
EMAIL_PATTERN = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,255}\.[^@\s]{1,63}$")
#: The ACTIVE value that password init answers (the specification's first listing).
INIT_ACTIVE_STATUS = next(i.value for i in ACCOUNT_STATUS.alternate if i.code == "ACTIVE")


def mail_reset_token(db: Database, now: float, account_biz_id: str, email: str) -> None:
    """Create a single-use reset token (30 minutes) and mail its link."""
    raw = token("prt_")
    db.execute(
        "INSERT INTO password_reset_tokens (token_hash, account_biz_id, created_at, expires_at)"
        " VALUES (?, ?, ?, ?)",
        (sha256_hex(raw), account_biz_id, to_ms(now), to_ms(now + RESET_TOKEN_SECONDS)),
    )
    send_mail(
        db,
        now,
        email,
        "Reset your System Portal password",
        f"Open this link to choose a new password (valid for 30 minutes): {RESET_LINK}{raw}",
        token=raw,
    )


def _require_new_password(password: str) -> None:
    if not acceptable(password):
        raise invalid("the new password must be 8 to 128 characters")


def _set_password(ctx: Ctx, account_biz_id: str, password: str) -> None:
    now = ctx.now_ms()
    ctx.db.execute(
        "UPDATE accounts SET password_hash = ?, password_changed_at = ?, updated_at = ?"
        " WHERE biz_id = ?",
        (hash_password(password), now, now, account_biz_id),
    )


async def live_session(ctx: CtxDep) -> ChannelSession:
    """The Secure Channel session of the headers, kept alive: checked before the body (400 for
    a missing header, 401 for a dead session)."""
    session = session_from_headers(ctx)
    ctx.state.secure_channel.touch(session)
    return session


@route(router, "auth.password_forgot", SuccessMessage)
async def forgot(
    ctx: CtxDep,
    session: Annotated[ChannelSession, Depends(live_session)],
    body: Annotated[PasswordForgot, Body()],
) -> JSONResponse:
    """Mail a reset link when the email is known; the same answer either way."""
    header = (ctx.request.headers.get("x-challenge-token") or "").strip()
    if not header or not body.challenge_token.strip() or not EMAIL_PATTERN.match(body.email):
        raise invalid("email, challengeToken and X-Challenge-Token are required")
    if FAILING_CHALLENGE in (header, body.challenge_token.strip()):
        raise invalid("the bot challenge failed")
    now = ctx.now()
    key = f"forgot:{body.email.strip().lower()}"
    if not ctx.state.limiter.allow(key, 1, FORGOT_WINDOW, now):
        raise ApiError(Code.RATE_LIMITED)
    account = by_email(ctx.db, body.email)
    if account is not None and account["status"] not in ("REJECTED", "DEACTIVATED"):
        with ctx.db.transaction() as db:
            mail_reset_token(db, now, account["biz_id"], account["email"])
    return ctx.ok(SuccessMessage.wire(success=True, message=FORGOT_MESSAGE))


def _reset(ctx: Ctx, plaintext: Any) -> dict[str, Any]:
    body = parse(PasswordReset, plaintext)
    _require_new_password(body.new_password)
    now = ctx.now_ms()
    with ctx.db.transaction() as db:
        row = db.one(
            "SELECT * FROM password_reset_tokens WHERE token_hash = ?", (sha256_hex(body.token),)
        )
        if row is None or row["used_at"] is not None or row["expires_at"] <= now:
            raise ApiError(Code.PASSWORD_RESET_TOKEN_INVALID)
        account = by_biz_id(db, row["account_biz_id"])
        if account is None:
            raise ApiError(Code.PASSWORD_RESET_TOKEN_INVALID)
        db.execute(
            "UPDATE password_reset_tokens SET used_at = ? WHERE account_biz_id = ?"
            " AND used_at IS NULL",
            (now, row["account_biz_id"]),
        )
        _set_password(ctx, account["biz_id"], body.new_password)
        end_sessions(ctx.state, account["biz_id"], "PASSWORD_RESET")
    return SuccessMessage.wire(success=True, message="Your password has been reset.")


@route(router, "auth.password_reset", SuccessMessage)
async def reset(ctx: CtxDep) -> JSONResponse:
    """Sealed: set a new password with an emailed reset token (single use)."""
    sealed = await open_sealed(ctx)
    return sealed.run(lambda plaintext: _reset(ctx, plaintext))


def _change(ctx: Ctx, plaintext: Any) -> dict[str, Any]:
    principal = authenticate(ctx)
    body = parse(PasswordChange, plaintext)
    _require_new_password(body.new_password)
    account = by_biz_id(ctx.db, principal.account_biz_id)
    if account is None or not verify_password(body.current_password, account["password_hash"]):
        raise ApiError(Code.CURRENT_PASSWORD_INCORRECT)
    _set_password(ctx, account["biz_id"], body.new_password)
    return SuccessMessage.wire(success=True, message="Your password has been changed.")


@route(router, "auth.password_change", SuccessMessage)
async def change(ctx: CtxDep) -> JSONResponse:
    """Sealed, signed in: change the password, knowing the current one."""
    sealed = await open_sealed(ctx)
    return sealed.run(lambda plaintext: _change(ctx, plaintext))


def _init(ctx: Ctx, plaintext: Any) -> dict[str, Any]:
    body = parse(PasswordInit, plaintext)
    _require_new_password(body.password)
    now = ctx.now_ms()
    with ctx.db.transaction() as db:
        row = db.one(
            "SELECT * FROM password_init_sessions WHERE session_id = ?", (body.session_id,)
        )
        if row is None or row["used_at"] is not None or row["expires_at"] <= now:
            raise invalid("unknown or expired initialization session")
        account = by_biz_id(db, row["account_biz_id"])
        if account is None:
            raise invalid("unknown or expired initialization session")
        db.execute(
            "UPDATE password_init_sessions SET used_at = ? WHERE session_id = ?",
            (now, body.session_id),
        )
        _set_password(ctx, account["biz_id"], body.password)
        db.execute(
            "UPDATE accounts SET status = 'ACTIVE' WHERE biz_id = ? AND status IN"
            " ('PENDING_INIT', 'REGISTERED')",
            (account["biz_id"],),
        )
        db.execute(
            "UPDATE mfa_settings SET verified_at = ? WHERE account_biz_id = ?"
            " AND verified_at IS NULL",
            (now, account["biz_id"]),
        )
    return PasswordInitResult.wire(
        biz_id=account["biz_id"], email=account["email"], status=INIT_ACTIVE_STATUS
    )


@route(router, "auth.password_init", PasswordInitResult)
async def init(ctx: CtxDep) -> JSONResponse:
    """Sealed: first-time password setup with the mailed initialization session."""
    sealed = await open_sealed(ctx)
    return sealed.run(lambda plaintext: _init(ctx, plaintext))
