"""Sandbox-only endpoints: mailbox, TOTP, clock (and key rotation, test clock only)."""

from __future__ import annotations

import math

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from portal_admin.protocol.errors import Code

from ..accounts_common import by_email
from ..bodies import json_body
from ..clock import iso, to_ms
from ..deps import CtxDep
from ..errors import ApiError, invalid
from ..text import email_key
from ..totp import code_at, step_of

router = APIRouter()

MAILBOX_LIMIT = 200
MAX_ADVANCE = 10 * 365 * 86400


@router.get("/sandbox/mailbox")
async def mailbox(ctx: CtxDep) -> JSONResponse:
    """Messages sent to ``to``, newest first."""
    to = (ctx.request.query_params.get("to") or "").strip()
    if not to:
        raise invalid("the query parameter to is required")
    rows = ctx.db.query(
        "SELECT * FROM mailbox WHERE to_key = ? ORDER BY id DESC LIMIT ?",
        (email_key(to), MAILBOX_LIMIT),
    )
    return ctx.ok(
        [
            {
                "id": r["id"],
                "to": r["to_addr"],
                "subject": r["subject"],
                "body": r["body"],
                "code": r["code"],
                "token": r["token"],
                "sessionId": r["session_id"],
                "sentAt": iso(r["sent_at"]),
            }
            for r in rows
        ]
    )


@router.get("/sandbox/totp")
async def totp(ctx: CtxDep) -> JSONResponse:
    """The authenticator secret of an account and the code valid now."""
    email = (ctx.request.query_params.get("email") or "").strip()
    if not email:
        raise invalid("the query parameter email is required")
    account = by_email(ctx.db, email)
    if account is None or not account["totp_secret"]:
        raise ApiError(Code.NOT_FOUND)
    secret = str(account["totp_secret"])
    return ctx.ok({"secret": secret, "code": code_at(secret, step_of(ctx.now()))})


def _test_clock_only(ctx: CtxDep) -> None:
    if ctx.state.test_clock is None:
        raise ApiError(Code.NOT_FOUND)


@router.post("/sandbox/clock/advance")
async def advance(ctx: CtxDep) -> JSONResponse:
    """Move the test clock forward by ``seconds`` (404 without ``--test-clock``)."""
    _test_clock_only(ctx)
    clock = ctx.state.test_clock
    assert clock is not None
    body = await json_body(ctx.request)
    seconds = body.get("seconds") if isinstance(body, dict) else None
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not math.isfinite(seconds)
        or not 0 <= seconds <= MAX_ADVANCE
    ):
        raise invalid("seconds must be a number from 0 to ten years")
    now = clock.advance(float(seconds))
    return ctx.ok({"now": iso(to_ms(now))})


@router.post("/sandbox/secure-channel/rotate-key")
async def rotate_key(ctx: CtxDep) -> JSONResponse:
    """Replace the Secure Channel RSA key (test clock only); answers the new keyId."""
    _test_clock_only(ctx)
    return ctx.ok({"keyId": ctx.state.secure_channel.rotate_key()})
