"""Secure Channel v2 operations: public key, session create, session close."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from portal_admin.protocol.records import ChannelSession, PublicKeyInfo

from ..deps import CtxDep
from ..sealed import Sealed, bind_to_bearer, channel_of, check_version, open_sealed, read_frame
from ._route import route

router = APIRouter()


@route(router, "secure_channel.public_key", PublicKeyInfo)
async def public_key(ctx: CtxDep) -> JSONResponse:
    """The active RSA key: keyId, publicKey (base64 DER), algorithm."""
    return ctx.ok(channel_of(ctx).public_key_data())


@route(router, "secure_channel.session_create", ChannelSession)
async def create_session(ctx: CtxDep) -> JSONResponse:
    """Open a session from a type-1 body; answers type 129 ``{sessionId, expiresIn}``."""
    check_version(ctx)
    frame = await read_frame(ctx)
    channel = channel_of(ctx)
    session, plaintext = channel.create(frame)
    bind_to_bearer(ctx, session)
    sealed = Sealed(ctx, session, plaintext)
    return sealed.run(
        lambda _: ChannelSession.wire(
            session_id=session.session_id, expires_in=channel.idle_seconds
        )
    )


@route(router, "secure_channel.session_close")
async def close_session(ctx: CtxDep) -> JSONResponse:
    """Close a session (type-2 body ``{}``); answers type 129 with ``data: null``."""
    sealed = await open_sealed(ctx)
    response = sealed.run(lambda _: None)
    channel_of(ctx).close(sealed.session)
    return response
