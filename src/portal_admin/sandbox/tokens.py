"""Signed-in sessions, JWT access tokens (HS256, minimal claims) and refresh tokens."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass

import jwt

from portal_admin.protocol.errors import Code

from .clock import to_ms
from .errors import ApiError
from .ids import sha256_hex, token
from .state import SandboxState

ACCESS_TOKEN_SECONDS = 3600
REFRESH_TOKEN_SECONDS = 7 * 24 * 3600
ALGORITHM = "HS256"
ISSUER = "portal-sandbox"
#: Account statuses whose sessions and tokens stay valid.
SIGNED_IN_STATUSES = ("ACTIVE", "REGISTERED")


def load_secret(state: SandboxState) -> bytes:
    """The signing secret, created once per database."""
    db = state.db
    value = db.scalar("SELECT value FROM meta WHERE key = 'jwt_secret'")
    if value is None:
        value = secrets.token_hex(32)
        db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('jwt_secret', ?)", (value,))
        value = db.scalar("SELECT value FROM meta WHERE key = 'jwt_secret'")
    return bytes.fromhex(str(value))


@dataclass(frozen=True, slots=True)
class TokenPair:
    """What login/complete and token/refresh hand out."""

    access_token: str
    refresh_token: str
    expires_in: int = ACCESS_TOKEN_SECONDS


def access_token(state: SandboxState, account_biz_id: str, sid: str) -> str:
    """A signed access token for one auth session."""
    now = int(state.clock.now())
    claims = {
        "sub": account_biz_id,
        "sid": sid,
        "iat": now,
        "exp": now + ACCESS_TOKEN_SECONDS,
        "jti": uuid.uuid4().hex,
    }
    return jwt.encode(claims, state.jwt_secret, algorithm=ALGORITHM)


def decode_access_token(
    state: SandboxState, raw: str, *, allow_expired: bool = False
) -> dict[str, object]:
    """The claims of a valid token; raises ApiError 4010 otherwise (expiry on the sandbox clock)."""
    try:
        claims: dict[str, object] = jwt.decode(
            raw,
            state.jwt_secret,
            algorithms=[ALGORITHM],
            options={"verify_exp": False, "verify_iat": False, "require": ["sub", "sid", "exp"]},
        )
    except jwt.PyJWTError as exc:
        raise ApiError(Code.TOKEN_INVALID) from exc
    exp = claims.get("exp")
    if not isinstance(exp, int) or not isinstance(claims.get("sub"), str):
        raise ApiError(Code.TOKEN_INVALID)
    if not isinstance(claims.get("sid"), str):
        raise ApiError(Code.TOKEN_INVALID)
    if not allow_expired and exp <= state.clock.now():
        raise ApiError(Code.TOKEN_INVALID)
    return claims


def start_session(
    state: SandboxState, account_biz_id: str, client_ip: str, user_agent: str, client_hash: str
) -> str:
    """Open an auth session (one sign-in); returns its sid."""
    sid = "SES" + secrets.token_hex(12).upper()
    now = to_ms(state.clock.now())
    state.db.execute(
        "INSERT INTO auth_sessions (sid, account_biz_id, client_ip, user_agent, client_hash,"
        " login_time, last_activity_time) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (sid, account_biz_id, client_ip[:64], user_agent[:512], client_hash[:256], now, now),
    )
    return sid


def issue_refresh(state: SandboxState, sid: str, account_biz_id: str, family_id: str) -> str:
    """A new single-use refresh token in ``family_id``."""
    raw = token("rt_")
    now = state.clock.now()
    state.db.execute(
        "INSERT INTO refresh_tokens (token_hash, family_id, sid, account_biz_id, issued_at,"
        " expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        (
            sha256_hex(raw),
            family_id,
            sid,
            account_biz_id,
            to_ms(now),
            to_ms(now + REFRESH_TOKEN_SECONDS),
        ),
    )
    return raw


def sign_in(
    state: SandboxState,
    account_biz_id: str,
    *,
    client_ip: str = "127.0.0.1",
    user_agent: str = "",
    client_hash: str = "",
) -> TokenPair:
    """Open a session and hand out its first token pair (also usable by tests)."""
    with state.db.transaction():
        sid = start_session(state, account_biz_id, client_ip, user_agent, client_hash)
        refresh = issue_refresh(state, sid, account_biz_id, family_id=sid)
        state.db.execute(
            "UPDATE accounts SET last_login_at = ?, last_login_ip = ? WHERE biz_id = ?",
            (to_ms(state.clock.now()), client_ip[:64], account_biz_id),
        )
    return TokenPair(access_token(state, account_biz_id, sid), refresh)


def end_sessions(
    state: SandboxState,
    account_biz_id: str,
    reason: str,
    *,
    sid: str | None = None,
    keep_sid: str | None = None,
) -> int:
    """End one session (``sid``) or all of an account's; revokes their refresh tokens.

    Returns how many sessions were ended.
    """
    now = to_ms(state.clock.now())
    where = "account_biz_id = ? AND ended_at IS NULL"
    params: list[object] = [account_biz_id]
    if sid is not None:
        where += " AND sid = ?"
        params.append(sid)
    if keep_sid is not None:
        where += " AND sid <> ?"
        params.append(keep_sid)
    with state.db.transaction() as db:
        sids = [r[0] for r in db.query(f"SELECT sid FROM auth_sessions WHERE {where}", params)]  # noqa: S608
        for one in sids:
            db.execute(
                "UPDATE auth_sessions SET ended_at = ?, end_reason = ? WHERE sid = ?",
                (now, reason, one),
            )
            db.execute(
                "UPDATE refresh_tokens SET revoked_at = ? WHERE sid = ? AND revoked_at IS NULL",
                (now, one),
            )
    return len(sids)
