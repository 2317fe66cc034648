"""Sandbox-only endpoints: mailbox, TOTP, clock (and key rotation, test clock only).

They are not operations of the specification, so their models live here, not in
``portal_admin.protocol``; they are declared the same way (typed query parameters and body,
``Ok[...]`` as the documented answer) under the ``sandbox`` tag.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from portal_admin.protocol.errors import Code
from portal_admin.protocol.records import Record, Timestamp

from ..accounts_common import by_email
from ..clock import TestClock, iso, to_ms
from ..deps import Ctx, CtxDep
from ..errors import ApiError
from ..text import email_key
from ..totp import code_at, step_of
from ._route import declare

router = APIRouter()

MAILBOX_LIMIT = 200
MAX_ADVANCE = 10 * 365 * 86400


def _tool(path: str, method: str, op_id: str, data: Any) -> Callable[[Any], Any]:
    """Register a sandbox-only endpoint whose success answer carries ``data``."""
    return declare(router, method, path, op_id, "sandbox", data)


def _stripped(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


#: A required query parameter: blanks around it removed, and then not empty.
Required = Annotated[str, BeforeValidator(_stripped), Field(min_length=1)]


class MailboxMessage(Record):
    """A message the sandbox "sent" (stored, never delivered), with what it carries."""

    id: int
    to: str
    subject: str
    body: str
    code: str | None = None
    token: str | None = None
    session_id: str | None = None
    sent_at: Timestamp | None = None


class TotpCode(Record):
    """An account's authenticator secret and the code valid now."""

    secret: str
    code: str


class ClockNow(Record):
    """The sandbox clock after a move."""

    now: Timestamp


class RotatedKey(Record):
    """The keyId of the new Secure Channel key."""

    key_id: str


class ClockAdvance(BaseModel):
    """How far to move the test clock: a JSON number of seconds, zero to ten years."""

    model_config = ConfigDict(strict=True, extra="ignore")

    seconds: float = Field(ge=0, le=MAX_ADVANCE, allow_inf_nan=False)


def _codes_allowed(ctx: Ctx) -> None:
    """404 for a caller off loopback when the sign-in codes are kept to loopback (the real
    peer's address: a header cannot claim loopback)."""
    if not ctx.config.sign_in_codes_loopback_only:
        return
    peer = ctx.request.client
    try:
        local = peer is not None and ipaddress.ip_address(peer.host).is_loopback
    except ValueError:
        local = False
    if not local:
        raise ApiError(Code.NOT_FOUND)


#: The sandbox's published demo administrator (sandbox-contract.md).
_DEMO_EMAIL = "admin@sandbox.test"


@_tool("/sandbox/mailbox", "GET", "sandbox.mailbox", list[MailboxMessage])
async def mailbox(
    ctx: CtxDep,
    to: Annotated[Required, Query(description="The address (any case).", examples=[_DEMO_EMAIL])],
) -> JSONResponse:
    """Messages sent to ``to``, newest first."""
    _codes_allowed(ctx)
    rows = ctx.db.query(
        "SELECT * FROM mailbox WHERE to_key = ? ORDER BY id DESC LIMIT ?",
        (email_key(to), MAILBOX_LIMIT),
    )
    return ctx.ok(
        [
            MailboxMessage.wire(
                id=r["id"],
                to=r["to_addr"],
                subject=r["subject"],
                body=r["body"],
                code=r["code"],
                token=r["token"],
                session_id=r["session_id"],
                sent_at=iso(r["sent_at"]),
            )
            for r in rows
        ]
    )


@_tool("/sandbox/totp", "GET", "sandbox.totp", TotpCode)
async def totp(
    ctx: CtxDep,
    email: Annotated[Required, Query(description="The account's email.", examples=[_DEMO_EMAIL])],
) -> JSONResponse:
    """The authenticator secret of an account and the code valid now."""
    _codes_allowed(ctx)
    account = by_email(ctx.db, email)
    if account is None or not account["totp_secret"]:
        raise ApiError(Code.NOT_FOUND)
    secret = str(account["totp_secret"])
    return ctx.ok(TotpCode.wire(secret=secret, code=code_at(secret, step_of(ctx.now()))))


async def the_test_clock(ctx: CtxDep) -> TestClock:
    """The test clock; 404 without ``--test-clock`` (checked before the body)."""
    clock = ctx.state.test_clock
    if clock is None:
        raise ApiError(Code.NOT_FOUND)
    return clock


@_tool("/sandbox/clock/advance", "POST", "sandbox.clock_advance", ClockNow)
async def advance(
    ctx: CtxDep,
    clock: Annotated[TestClock, Depends(the_test_clock)],
    body: Annotated[ClockAdvance, Body()],
) -> JSONResponse:
    """Move the test clock forward by ``seconds`` (404 without ``--test-clock``)."""
    now = clock.advance(body.seconds)
    return ctx.ok(ClockNow.wire(now=iso(to_ms(now))))


@_tool("/sandbox/secure-channel/rotate-key", "POST", "sandbox.rotate_key", RotatedKey)
async def rotate_key(
    ctx: CtxDep, _clock: Annotated[TestClock, Depends(the_test_clock)]
) -> JSONResponse:
    """Replace the Secure Channel RSA key (test clock only); answers the new keyId."""
    return ctx.ok(RotatedKey.wire(key_id=ctx.state.secure_channel.rotate_key()))
