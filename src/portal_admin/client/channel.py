"""The client's Secure Channel v2 session (``secure-channel-profile.md``), via the protocol codec.

Opened lazily, reused, re-opened once on ``SECURE_CHANNEL.SESSION_INVALID`` (after fetching
the key again on ``SECURE_CHANNEL.KEY_UNKNOWN``), closed on logout and exit. Responses that
fail GCM authentication or repeat an IV already seen in the session are rejected.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from portal_admin.protocol import secure_channel as sc
from portal_admin.protocol.envelope import Envelope, MalformedEnvelope, parse_envelope
from portal_admin.protocol.errors import Code
from portal_admin.protocol.operations import OPERATIONS, Operation

from .errors import (
    APIStatusError,
    MalformedResponseError,
    SecureChannelError,
    UnsupportedAlgorithmError,
)
from .events import EventBus, SecureChannelChanged
from .gateway import gateway_error
from .records import PublicKeyInfo
from .transport import Decoder, Transport, check

log = logging.getLogger("portal_admin.client.channel")

_PUBLIC_KEY = OPERATIONS["secure_channel.public_key"]
_CREATE = OPERATIONS["secure_channel.session_create"]
_CLOSE = OPERATIONS["secure_channel.session_close"]


@dataclass(frozen=True, slots=True)
class ActiveKey:
    """The server's public key, checked and loaded."""

    info: PublicKeyInfo
    key: RSAPublicKey


@dataclass(slots=True)
class ChannelSession:
    """One open session: its id, its two keys and the response IVs seen."""

    session_id: str
    keys: sc.SessionKeys
    algorithm: str
    expires_in: int | None = None
    seen_ivs: set[bytes] = field(default_factory=set)

    def __repr__(self) -> str:
        return f"ChannelSession(algorithm={self.algorithm!r}, <redacted>)"


def _sc_error(
    message: str, code: str, operation: Operation, request_id: str, status: int | None
) -> SecureChannelError:
    return SecureChannelError(
        message, code=code, http_status=status, request_id=request_id, operation_id=operation.id
    )


def sealed_decoder(operation: Operation, session: ChannelSession) -> Decoder:
    """Decode a type-129 answer with the session's response key, or a plain error envelope."""

    def decode(response: httpx.Response, request_id: str) -> Envelope:
        status = response.status_code
        try:
            obj = response.json()
        except (ValueError, RecursionError):
            gateway = gateway_error(response, request_id, operation.id)
            if gateway is not None:  # a gateway's 502/503/504 page: named as such
                raise gateway from None
            raise MalformedResponseError(
                "the server answered something that is not JSON",
                http_status=status,
                request_id=request_id,
                operation_id=operation.id,
            ) from None
        if not (isinstance(obj, dict) and set(obj) == {"v", "p"}):
            try:
                return parse_envelope(obj)
            except MalformedEnvelope as exc:
                gateway = gateway_error(response, request_id, operation.id)
                if gateway is not None:
                    raise gateway from None
                raise MalformedResponseError(
                    f"the server answered something that is not an envelope ({exc})",
                    http_status=status,
                    request_id=request_id,
                    operation_id=operation.id,
                ) from None
        try:
            frame_bytes = sc.from_body(obj)
            frame = sc.decode_frame(frame_bytes)
            plaintext = sc.open_response(session.keys.response_key, frame_bytes)
        except sc.SecureChannelError as exc:
            raise _sc_error(
                f"the encrypted response was rejected ({exc})",
                Code.SC_DECRYPTION_FAILED,
                operation,
                request_id,
                status,
            ) from None
        iv = sc.payload_iv(frame.payload)
        if iv in session.seen_ivs:
            raise _sc_error(
                "the encrypted response repeats an IV already seen (replay)",
                Code.SC_REPLAY_DETECTED,
                operation,
                request_id,
                status,
            )
        session.seen_ivs.add(iv)
        try:
            return parse_envelope(plaintext if isinstance(plaintext, dict) else {})
        except MalformedEnvelope as exc:
            raise MalformedResponseError(
                f"the decrypted answer is not an envelope ({exc})",
                http_status=status,
                request_id=request_id,
                operation_id=operation.id,
            ) from None

    return decode


class SecureChannel:
    """Owns the public key and the session; seals requests and opens responses."""

    def __init__(self, transport: Transport, events: EventBus, *, allow_legacy: bool) -> None:
        self._transport = transport
        self._events = events
        self._allow_legacy = allow_legacy
        self._key: ActiveKey | None = None
        self._session: ChannelSession | None = None
        self._lock = asyncio.Lock()

    @property
    def is_open(self) -> bool:
        """True while a session is held."""
        return self._session is not None

    @property
    def algorithm(self) -> str | None:
        """The key-wrapping algorithm of the active key, once fetched."""
        return self._key.info.algorithm if self._key else None

    async def fetch_public_key(self) -> ActiveKey:
        """Fetch and check the active public key; refuse unknown or unallowed algorithms."""
        data = await self._transport.call(_PUBLIC_KEY)
        info = PublicKeyInfo.model_validate(data)
        try:
            sc.rsa_padding(info.algorithm, allow_legacy=self._allow_legacy)
            key = sc.load_public_key(info.public_key)
        except sc.UnsupportedAlgorithm as exc:
            raise UnsupportedAlgorithmError(
                str(exc), code="CLIENT.UNSUPPORTED_ALGORITHM", operation_id=_PUBLIC_KEY.id
            ) from None
        except sc.SecureChannelError as exc:
            raise SecureChannelError(
                str(exc), code="CLIENT.BAD_PUBLIC_KEY", operation_id=_PUBLIC_KEY.id
            ) from None
        self._key = ActiveKey(info, key)
        return self._key

    async def _create(self, *, refetch_key: bool) -> ChannelSession:
        if self._key is None or refetch_key:
            await self.fetch_public_key()
        assert self._key is not None
        active = self._key
        keys = sc.SessionKeys.generate()
        try:
            body = sc.key_exchange_message(
                active.key,
                active.info.algorithm,
                active.info.key_id,
                keys,
                {},
                allow_legacy=self._allow_legacy,
            )
        except sc.UnsupportedAlgorithm as exc:
            raise UnsupportedAlgorithmError(str(exc), operation_id=_CREATE.id) from None
        pending = ChannelSession("", keys, active.info.algorithm)
        envelope, status, request_id = await self._transport.exchange(
            _CREATE,
            json=sc.to_body(body),
            headers={"X-SC-Version": sc.HEADER_VERSION, "Content-Type": sc.CONTENT_TYPE},
            decode=sealed_decoder(_CREATE, pending),
        )
        data = check(envelope, status, request_id, _CREATE)
        session_id = data.get("sessionId") if isinstance(data, dict) else None
        if not isinstance(session_id, str) or not session_id:
            raise MalformedResponseError(
                "the session answer has no sessionId",
                http_status=status,
                request_id=request_id,
                operation_id=_CREATE.id,
            )
        pending.session_id = session_id
        expires = data.get("expiresIn")
        pending.expires_in = expires if isinstance(expires, int) else None
        return pending

    async def open(self, *, refetch_key: bool = False) -> ChannelSession:
        """Open a new session (replacing any held one without closing it)."""
        async with self._lock:
            return await self._open_locked(refetch_key=refetch_key)

    async def _open_locked(self, *, refetch_key: bool) -> ChannelSession:
        try:
            session = await self._create(refetch_key=refetch_key)
        except APIStatusError as exc:
            if exc.code != Code.SC_KEY_UNKNOWN or refetch_key:
                raise
            session = await self._create(refetch_key=True)
        self._session = session
        log.info("secure channel session opened (algorithm=%s)", session.algorithm)
        self._events.publish(SecureChannelChanged("open", session.algorithm))
        return session

    async def ensure(self) -> ChannelSession:
        """The held session, opened on first need."""
        async with self._lock:
            if self._session is not None:
                return self._session
            return await self._open_locked(refetch_key=False)

    async def _replace(self, stale: ChannelSession, *, refetch_key: bool) -> ChannelSession:
        async with self._lock:
            if self._session is not None and self._session is not stale and not refetch_key:
                return self._session  # another call already re-opened it
            if self._session is stale:
                self._session = None
            return await self._open_locked(refetch_key=refetch_key)

    async def _with_session(
        self,
        send: Callable[[ChannelSession], Awaitable[tuple[Envelope, int, str]]],
        operation: Operation,
    ) -> Any:
        session = await self.ensure()
        envelope, status, request_id = await send(session)
        if not envelope.success and envelope.code in (Code.SC_SESSION_INVALID, Code.SC_KEY_UNKNOWN):
            log.info("%s: %s, re-opening the channel session", operation.id, envelope.code)
            session = await self._replace(session, refetch_key=envelope.code == Code.SC_KEY_UNKNOWN)
            envelope, status, request_id = await send(session)
        return check(envelope, status, request_id, operation)

    async def call(
        self,
        operation: Operation,
        body: Any,
        *,
        token: str | None = None,
        params: Any = None,
    ) -> Any:
        """Send ``body`` sealed (type 2) and return ``data`` of the decrypted answer."""

        async def send(session: ChannelSession) -> tuple[Envelope, int, str]:
            sealed = sc.request_message(session.keys.request_key, body)  # fresh IV each time
            return await self._transport.exchange(
                operation,
                json=sc.to_body(sealed),
                params=params,
                token=token,
                headers=self._headers(session),
                decode=sealed_decoder(operation, session),
            )

        return await self._with_session(send, operation)

    async def call_with_headers(
        self,
        operation: Operation,
        body: Any,
        *,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
    ) -> Any:
        """Send a plain body carrying the session headers (``auth/password/forgot``)."""

        async def send(session: ChannelSession) -> tuple[Envelope, int, str]:
            return await self._transport.exchange(
                operation,
                json=body,
                token=token,
                headers={**(headers or {}), **self._headers(session)},
            )

        return await self._with_session(send, operation)

    @staticmethod
    def _headers(session: ChannelSession) -> dict[str, str]:
        return {
            "X-SC-Version": sc.HEADER_VERSION,
            "X-SC-Session-Id": session.session_id,
            "Content-Type": sc.CONTENT_TYPE,
        }

    async def close(self) -> bool:
        """Close the held session on the server (best effort); True when one was closed."""
        async with self._lock:
            session, self._session = self._session, None
        if session is None:
            return False
        try:
            sealed = sc.request_message(session.keys.request_key, {})
            envelope, status, request_id = await self._transport.exchange(
                _CLOSE,
                json=sc.to_body(sealed),
                headers=self._headers(session),
                decode=sealed_decoder(_CLOSE, session),
            )
            check(envelope, status, request_id, _CLOSE)
        except Exception as exc:  # closing is best effort: the server expires it anyway
            log.info("secure channel close failed: %s", type(exc).__name__)
        finally:
            log.info("secure channel session closed")
            self._events.publish(SecureChannelChanged("closed", session.algorithm))
        return True

    def forget(self) -> None:
        """Drop the held session without telling the server."""
        if self._session is not None:
            self._session = None
            self._events.publish(SecureChannelChanged("closed", None))
