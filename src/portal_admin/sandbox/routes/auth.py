"""Sign-in: login initiate, MFA send, login complete, logout, token refresh, profile."""

from __future__ import annotations

import json
import secrets
import sqlite3
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from fastapi.responses import JSONResponse

from portal_admin.protocol.bodies import LoginComplete, LoginInitiate, MfaSend, TokenRefresh
from portal_admin.protocol.enums import MFA_METHOD, PORTAL_TYPE
from portal_admin.protocol.errors import Code
from portal_admin.protocol.records import (
    LoginSession,
    LogoutResult,
    MfaCodeSent,
    Profile,
    ProfileRole,
    ProfileWorkspace,
    RefreshedTokens,
    TokenPair,
)

from ..accounts_common import by_biz_id, by_email, enabled_mfa_methods, status_item
from ..bodies import parse
from ..clock import to_ms
from ..deps import Authed, Ctx, CtxDep, authed_with, bearer_token
from ..errors import ApiError, invalid
from ..ids import biz_id, sha256_hex, token
from ..mailbox import send_mail
from ..passwords import verify_password
from ..sealed import open_sealed
from ..tokens import (
    ACCESS_TOKEN_SECONDS,
    SIGNED_IN_STATUSES,
    access_token,
    decode_access_token,
    end_sessions,
    issue_refresh,
    sign_in,
)
from ..totp import matching_step
from ._route import route

router = APIRouter()

LOGIN_SESSION_SECONDS = 300
MFA_COOLDOWN_SECONDS = 60
MFA_CODE_SECONDS = 300
OTP_STEP_SECONDS = 30
#: Failed sign-ins per email and client hash before further attempts are refused.
LOGIN_FAILURE_LIMIT = 5
LOGIN_FAILURE_WINDOW = 900
REFRESH_LIMIT = 10
REFRESH_WINDOW = 60


def _history(ctx: Ctx, account_biz_id: str, result: int, reason: str | None = None) -> None:
    ctx.db.execute(
        "INSERT INTO login_history (biz_id, account_biz_id, login_time, client_ip, user_agent,"
        " login_result, failure_reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            biz_id("LGH"),
            account_biz_id,
            ctx.now_ms(),
            ctx.client_ip,
            ctx.user_agent,
            result,
            reason,
        ),
    )


def _throttle_key(ctx: Ctx, email: str) -> str:
    return f"login:{email.strip().lower()}:{ctx.client_hash}"


def _mfa_items(ctx: Ctx, account_biz_id: str) -> list[dict[str, Any]]:
    return [ctx.item(MFA_METHOD, m) for m in enabled_mfa_methods(ctx.db, account_biz_id)]


@route(router, "auth.login_initiate", LoginSession)
async def login_initiate(ctx: CtxDep, body: Annotated[LoginInitiate, Body()]) -> JSONResponse:
    """Check email and password; open a 300-second login session."""
    now = ctx.now()
    key = _throttle_key(ctx, body.email)
    account = by_email(ctx.db, body.email)
    if ctx.state.limiter.count(key, LOGIN_FAILURE_WINDOW, now) >= LOGIN_FAILURE_LIMIT:
        if account is not None:
            _history(ctx, account["biz_id"], 3, "TOO_MANY_ATTEMPTS")
        raise ApiError(Code.RATE_LIMITED)
    good = verify_password(body.password, account["password_hash"] if account else None)
    if account is None or not good or account["status"] not in SIGNED_IN_STATUSES:
        ctx.state.limiter.hit(key, now)
        if account is not None:
            _history(ctx, account["biz_id"], 2, "INVALID_CREDENTIALS")
        raise ApiError(Code.INVALID_CREDENTIALS)
    session_id = token("lgs_")
    ctx.db.execute(
        "INSERT INTO login_sessions (session_id, account_biz_id, client_hash, created_at,"
        " expires_at) VALUES (?, ?, ?, ?, ?)",
        (
            sha256_hex(session_id),
            account["biz_id"],
            ctx.client_hash,
            to_ms(now),
            to_ms(now + LOGIN_SESSION_SECONDS),
        ),
    )
    return ctx.ok(
        LoginSession.wire(
            session_id=session_id,
            mfa_methods=_mfa_items(ctx, account["biz_id"]),
            expires_in=LOGIN_SESSION_SECONDS,
            account_status=status_item(ctx, account["status"]),
            pending_approval=bool(account["pending_approval"]),
        )
    )


def _login_session(ctx: Ctx, session_id: str) -> sqlite3.Row:
    row = ctx.db.one("SELECT * FROM login_sessions WHERE session_id = ?", (sha256_hex(session_id),))
    if row is None or row["completed_at"] is not None or row["expires_at"] <= ctx.now_ms():
        raise ApiError(Code.SESSION_NOT_FOUND)
    return row


def _method(ctx: Ctx, account_biz_id: str, value: int) -> str:
    item = MFA_METHOD.by_value(value)
    if item is None or item.code not in enabled_mfa_methods(ctx.db, account_biz_id):
        raise invalid("unknown or disabled MFA method")
    return item.code


@route(router, "auth.mfa_send", MfaCodeSent)
async def mfa_send(ctx: CtxDep, body: Annotated[MfaSend, Body()]) -> JSONResponse:
    """Mail an EMAIL code (60 s cooldown, valid 300 s); OTP needs no delivery."""
    login = _login_session(ctx, body.session_id)
    method = _method(ctx, login["account_biz_id"], body.method)
    if method == "OTP":
        return ctx.ok(
            MfaCodeSent.wire(sent=False, cooldown_seconds=0, code_expires_in=OTP_STEP_SECONDS)
        )
    now = ctx.now()
    sent_at = login["code_sent_at"]
    if sent_at is not None and to_ms(now) - sent_at < MFA_COOLDOWN_SECONDS * 1000:
        raise ApiError(Code.MFA_SEND_COOLDOWN)
    code = f"{secrets.randbelow(1_000_000):06d}"
    account = by_biz_id(ctx.db, login["account_biz_id"])
    assert account is not None
    with ctx.db.transaction() as db:
        db.execute(
            "UPDATE login_sessions SET email_code_hash = ?, code_sent_at = ?,"
            " code_expires_at = ? WHERE session_id = ?",
            (sha256_hex(code), to_ms(now), to_ms(now + MFA_CODE_SECONDS), login["session_id"]),
        )
        send_mail(
            db,
            now,
            account["email"],
            "Your System Portal sign-in code",
            f"Your sign-in code is {code}. It expires in 5 minutes.",
            code=code,
        )
    return ctx.ok(
        MfaCodeSent.wire(
            sent=True, cooldown_seconds=MFA_COOLDOWN_SECONDS, code_expires_in=MFA_CODE_SECONDS
        )
    )


def _normalized_backup(code: str) -> str:
    return code.replace("-", "").replace(" ", "").upper()


def _check_code(ctx: Ctx, login: sqlite3.Row, method: str, code: str) -> bool:
    account_biz_id = login["account_biz_id"]
    now = ctx.now()
    code = code.strip()
    if method == "EMAIL":
        stored = login["email_code_hash"]
        if (
            stored is not None
            and login["code_expires_at"] > to_ms(now)
            and secrets.compare_digest(stored, sha256_hex(code))
        ):
            return True
    else:
        account = by_biz_id(ctx.db, account_biz_id)
        secret = account["totp_secret"] if account else None
        step = matching_step(secret, code, now) if secret else None
        if step is not None:
            cur = ctx.db.execute(
                "INSERT OR IGNORE INTO totp_used (account_biz_id, step) VALUES (?, ?)",
                (account_biz_id, step),
            )
            return cur.rowcount == 1
    backup = _normalized_backup(code)
    if len(backup) >= 8 and not (len(code) == 6 and code.isdigit()):
        cur = ctx.db.execute(
            "UPDATE mfa_backup_codes SET used_at = ? WHERE account_biz_id = ? AND code_hash = ?"
            " AND used_at IS NULL",
            (to_ms(now), account_biz_id, sha256_hex(backup)),
        )
        return cur.rowcount == 1
    return False


@route(router, "auth.login_complete", TokenPair)
async def login_complete(ctx: CtxDep, body: Annotated[LoginComplete, Body()]) -> JSONResponse:
    """Check the second factor; open an auth session and hand out the token pair."""
    login = _login_session(ctx, body.session_id)
    account_biz_id = login["account_biz_id"]
    method = _method(ctx, account_biz_id, body.method)
    if not _check_code(ctx, login, method, body.code):
        _history(ctx, account_biz_id, 2, "MFA_CODE_INVALID")
        raise ApiError(Code.MFA_CODE_INVALID)
    account = by_biz_id(ctx.db, account_biz_id)
    if account is None or account["status"] not in SIGNED_IN_STATUSES:
        raise ApiError(Code.SESSION_NOT_FOUND)
    ctx.db.execute(
        "UPDATE login_sessions SET completed_at = ? WHERE session_id = ?",
        (ctx.now_ms(), login["session_id"]),
    )
    pair = sign_in(
        ctx.state,
        account_biz_id,
        client_ip=ctx.client_ip,
        user_agent=ctx.user_agent,
        client_hash=ctx.client_hash,
    )
    _history(ctx, account_biz_id, 1)
    ctx.state.limiter.clear(_throttle_key(ctx, account["email"]))
    return ctx.ok(
        TokenPair.wire(
            access_token=pair.access_token,
            refresh_token=pair.refresh_token,
            expires_in=pair.expires_in,
            account_status=status_item(ctx, account["status"]),
            pending_approval=bool(account["pending_approval"]),
        )
    )


@route(router, "auth.logout", LogoutResult)
async def logout(ctx: CtxDep) -> JSONResponse:
    """End the auth session of the token (an expired token is accepted too)."""
    raw = bearer_token(ctx.request)
    if raw is None:
        raise ApiError(Code.TOKEN_MISSING)
    claims = decode_access_token(ctx.state, raw, allow_expired=True)
    ended = end_sessions(ctx.state, str(claims["sub"]), "LOGOUT", sid=str(claims["sid"]))
    return ctx.ok(LogoutResult.wire(success=True, terminated_sessions=ended))


def _refresh(ctx: Ctx, plaintext: Any) -> dict[str, Any]:
    body = parse(TokenRefresh, plaintext)
    now = ctx.now()
    db = ctx.db
    with db.transaction():
        row = db.one(
            "SELECT t.*, s.ended_at AS session_ended, s.end_reason, a.status AS account_status"
            " FROM refresh_tokens t JOIN auth_sessions s ON s.sid = t.sid"
            " JOIN accounts a ON a.biz_id = t.account_biz_id WHERE t.token_hash = ?",
            (sha256_hex(body.refresh_token),),
        )
        if row is None:
            raise ApiError(Code.REFRESH_TOKEN_INVALID)
        limiter = ctx.state.limiter
        family_key = f"refresh:family:{row['family_id']}"
        account_key = f"refresh:account:{row['account_biz_id']}"
        if (
            limiter.count(family_key, REFRESH_WINDOW, now) >= REFRESH_LIMIT
            or limiter.count(account_key, REFRESH_WINDOW, now) >= REFRESH_LIMIT
        ):
            raise ApiError(Code.RATE_LIMITED)
        limiter.hit(family_key, now)
        limiter.hit(account_key, now)
        if row["session_ended"] is not None and row["end_reason"] != "REFRESH_REUSE":
            raise ApiError(Code.SESSION_NOT_FOUND)
        if row["account_status"] not in SIGNED_IN_STATUSES:
            raise ApiError(Code.SESSION_NOT_FOUND)
        if row["revoked_at"] is not None or row["expires_at"] <= to_ms(now):
            raise ApiError(Code.REFRESH_TOKEN_INVALID)
        reused = row["used_at"] is not None
        if not reused:
            db.execute(
                "UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ?",
                (to_ms(now), row["token_hash"]),
            )
            fresh = issue_refresh(ctx.state, row["sid"], row["account_biz_id"], row["family_id"])
    if reused:
        # A rotated token came back: someone holds a copy. Revoke the whole family.
        db.execute(
            "UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL",
            (to_ms(now), row["family_id"]),
        )
        end_sessions(ctx.state, row["account_biz_id"], "REFRESH_REUSE", sid=row["sid"])
        raise ApiError(Code.REFRESH_TOKEN_INVALID)
    return RefreshedTokens.wire(
        access_token=access_token(ctx.state, row["account_biz_id"], row["sid"]),
        refresh_token=fresh,
        expires_in=ACCESS_TOKEN_SECONDS,
    )


@route(router, "auth.token_refresh", RefreshedTokens)
async def token_refresh(ctx: CtxDep) -> JSONResponse:
    """Sealed: swap a refresh token for a new pair (single use; reuse revokes the family)."""
    sealed = await open_sealed(ctx)
    return sealed.run(lambda plaintext: _refresh(ctx, plaintext))


ProfileCaller = Annotated[Authed, Depends(authed_with(Code.UNAUTHORIZED))]


@route(router, "auth.profile", Profile)
async def profile(caller: ProfileCaller) -> JSONResponse:
    """The caller's own profile, with extras the client uses (roles, permissions, MFA)."""
    ctx = caller.ctx
    account = by_biz_id(ctx.db, caller.principal.account_biz_id)
    if account is None:
        raise ApiError(Code.TOKEN_INVALID)
    memberships = ctx.db.query(
        "SELECT m.workspace_biz_id, m.is_primary, w.name AS workspace_name, r.biz_id AS role_id,"
        " r.role_name, r.role_type, r.permission_codes FROM workspace_members m"
        " JOIN workspaces w ON w.biz_id = m.workspace_biz_id"
        " JOIN roles r ON r.biz_id = m.role_biz_id"
        " WHERE m.account_biz_id = ? AND m.status = 'ACTIVE'"
        " ORDER BY m.is_primary DESC, m.joined_at",
        (account["biz_id"],),
    )
    primary = memberships[0] if memberships else None
    portal = ctx.item(PORTAL_TYPE, account["portal"])
    return caller.ok(
        Profile.wire(
            biz_id=account["biz_id"],
            account_email=account["email"],
            account_name=account["name"],
            account_portal=portal,
            account_status=status_item(ctx, account["status"]),
            account_phone=account["phone"],
            institution_biz_id=account["institution_biz_id"],
            default_language=account["default_language"],
            default_timezone=account["default_timezone"],
            default_country=account["default_country"],
            pending_approval=bool(account["pending_approval"]),
            mfa_methods=_mfa_items(ctx, account["biz_id"]),
            workspace_biz_id=primary["workspace_biz_id"] if primary else None,
            permission_codes=json.loads(primary["permission_codes"]) if primary else [],
            roles=[
                ProfileRole.wire(
                    biz_id=m["role_id"],
                    role_name=m["role_name"],
                    role_type=m["role_type"],
                    workspace_biz_id=m["workspace_biz_id"],
                )
                for m in memberships
            ],
            workspaces=[
                ProfileWorkspace.wire(
                    biz_id=m["workspace_biz_id"],
                    name=m["workspace_name"],
                    is_primary=bool(m["is_primary"]),
                    permission_codes=json.loads(m["permission_codes"]),
                )
                for m in memberships
            ],
        )
    )
