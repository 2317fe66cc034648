"""Secure Channel on HTTP: opening sealed requests and sealing answers.

Errors found before a body is decrypted (headers, body shape, session, decryption, replay,
binding) answer plain JSON envelopes; once the body is open, the operation's own answer,
errors included, goes back sealed (type 129) with the operation's HTTP status.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi.responses import JSONResponse

from portal_admin.protocol import secure_channel as sc
from portal_admin.protocol.errors import Code

from .bodies import MAX_BODY
from .channel import ChannelSession, SecureChannelServer
from .deps import Ctx, bearer_token, principal_from_token
from .errors import ApiError, error_body, invalid


def channel_of(ctx: Ctx) -> SecureChannelServer:
    """The Secure Channel server."""
    return ctx.state.secure_channel


def check_version(ctx: Ctx) -> None:
    """400 unless ``X-SC-Version: 2``."""
    version = (ctx.request.headers.get("x-sc-version") or "").strip()
    if version != sc.HEADER_VERSION:
        raise invalid("X-SC-Version must be 2")


def session_from_headers(ctx: Ctx) -> ChannelSession:
    """The live session named by the headers (400 when a header is missing, 401 when dead)."""
    check_version(ctx)
    session_id = (ctx.request.headers.get("x-sc-session-id") or "").strip()
    if not session_id:
        raise invalid("X-SC-Session-Id is required")
    return channel_of(ctx).get(session_id)


async def read_frame(ctx: Ctx) -> sc.Frame:
    """The binary envelope of the body (400 for a body that is not ``{v: 2, p}``)."""
    raw = await ctx.request.body()
    if len(raw) > MAX_BODY:
        raise invalid("the body is too large")
    try:
        data = sc.from_body(raw)
    except (sc.BodyFormatError, RecursionError) as exc:
        raise invalid('the body must be {"v": 2, "p": ...}') from exc
    try:
        return sc.decode_frame(data)
    except sc.DecryptionFailed as exc:
        raise ApiError(Code.SC_DECRYPTION_FAILED) from exc


def bind_to_bearer(ctx: Ctx, session: ChannelSession) -> None:
    """Bind the session to the account of a valid bearer token, if one is sent."""
    raw = bearer_token(ctx.request)
    if raw is None:
        return
    try:
        principal = principal_from_token(ctx, raw)
    except ApiError:
        return  # the operation itself reports a bad token
    channel_of(ctx).bind(session, principal.account_biz_id)


@dataclass(eq=False)
class Sealed:
    """An opened sealed request."""

    ctx: Ctx
    session: ChannelSession
    plaintext: Any

    def answer(self, envelope: dict[str, Any], status: int = 200) -> JSONResponse:
        """A sealed (type 129) answer."""
        body = channel_of(self.ctx).seal(self.session, envelope)
        return JSONResponse(body, status_code=status, media_type=sc.CONTENT_TYPE)

    def run(self, operation: Callable[[Any], Any], message: str = "SUCCESS") -> JSONResponse:
        """Call ``operation(plaintext)``; seal its data, or the ApiError it raises."""
        try:
            data = operation(self.plaintext)
        except ApiError as err:
            body = error_body(err.code, self.ctx.lang, self.ctx.now(), err.message)
            return self.answer(body, err.http_status)
        return self.answer(self.ctx.envelope(data, message))


async def open_sealed(ctx: Ctx) -> Sealed:
    """Open a type-2 request: headers, body, session, decryption, replay, binding."""
    check_version(ctx)
    session_id = (ctx.request.headers.get("x-sc-session-id") or "").strip()
    if not session_id:
        raise invalid("X-SC-Session-Id is required")
    frame = await read_frame(ctx)
    session = channel_of(ctx).get(session_id)
    plaintext = channel_of(ctx).open(session, frame)
    bind_to_bearer(ctx, session)
    return Sealed(ctx, session, plaintext)
