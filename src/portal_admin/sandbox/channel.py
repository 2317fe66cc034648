"""Secure Channel v2, the server side: the RSA key, sessions, binding, expiry and replay.

The wire format is :mod:`portal_admin.protocol.secure_channel`; this module keeps state.
Sessions live in memory (a restart invalidates them; clients open a new one). The RSA key is
kept in the database, so its keyId survives restarts of a file database.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

from portal_admin.protocol import secure_channel as sc
from portal_admin.protocol.errors import Code
from portal_admin.protocol.records import PublicKeyInfo

from .clock import Clock
from .config import SandboxConfig
from .db import Database
from .errors import ApiError

KEY_BITS = 3072
#: Sessions kept in memory at most (the least recently used go first).
MAX_SESSIONS = 10_000

_process_key: RSAPrivateKey | None = None
_process_key_lock = threading.Lock()


def _generate_key() -> RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)


def _shared_memory_key() -> RSAPrivateKey:
    """One key per process for in-memory databases (generating 3072-bit keys is slow)."""
    global _process_key
    with _process_key_lock:
        if _process_key is None:
            _process_key = _generate_key()
        return _process_key


def _pem(key: RSAPrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")


def key_id_of(key: RSAPrivateKey) -> str:
    """A stable id derived from the public key."""
    der = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return "sbx-" + hashlib.sha256(der).hexdigest()[:16]


@dataclass(eq=False)
class ChannelSession:
    """One Secure Channel session."""

    session_id: str
    request_key: bytes = field(repr=False)
    response_key: bytes = field(repr=False)
    created_at: float
    last_used: float
    account_biz_id: str | None = None
    seen_ivs: set[bytes] = field(default_factory=set, repr=False)


class SecureChannelServer:
    """Key management and the session table."""

    def __init__(self, db: Database, config: SandboxConfig, clock: Clock) -> None:
        self._db = db
        self._config = config
        self._clock = clock
        self._lock = threading.RLock()
        self._sessions: OrderedDict[str, ChannelSession] = OrderedDict()
        self._key = self._load_key()
        self.key_id = key_id_of(self._key)

    # -- keys -------------------------------------------------------------------------------

    def _load_key(self) -> RSAPrivateKey:
        db = self._db
        pem = db.scalar("SELECT value FROM meta WHERE key = 'sc_private_key'")
        if pem is not None:
            key = serialization.load_pem_private_key(str(pem).encode("ascii"), password=None)
            if isinstance(key, RSAPrivateKey):
                return key
        key = _shared_memory_key() if db.path == ":memory:" else _generate_key()
        db.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('sc_private_key', ?)", (_pem(key),)
        )
        return key

    def rotate_key(self) -> str:
        """Replace the RSA key (existing sessions keep working); returns the new keyId."""
        key = _generate_key()
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('sc_private_key', ?)",
                (_pem(key),),
            )
            self._key = key
            self.key_id = key_id_of(key)
        return self.key_id

    @property
    def algorithm(self) -> str:
        """The advertised key-wrapping algorithm."""
        return self._config.sc_algorithm

    def public_key_data(self) -> dict[str, Any]:
        """The ``data`` of the public-key operation."""
        return PublicKeyInfo.wire(
            key_id=self.key_id,
            public_key=sc.export_public_key(self._key.public_key()),
            algorithm=self.algorithm,
        )

    # -- sessions ---------------------------------------------------------------------------

    @property
    def idle_seconds(self) -> int:
        """Idle lifetime of a session."""
        return self._config.sc_idle_seconds

    def create(self, frame: sc.Frame) -> tuple[ChannelSession, Any]:
        """Open a session from a type-1 frame; returns it and the decrypted plaintext."""
        if frame.type is not sc.MessageType.KEY_EXCHANGE or frame.key_exchange is None:
            raise ApiError(Code.SC_DECRYPTION_FAILED)
        kx = frame.key_exchange
        with self._lock:
            if kx.key_id != self.key_id:
                raise ApiError(Code.SC_KEY_UNKNOWN)
            key = self._key
        try:
            request_key = sc.unwrap_key(key, self.algorithm, kx.wrapped_request_key)
            response_key = sc.unwrap_key(key, self.algorithm, kx.wrapped_response_key)
            plaintext = sc.load_json(sc.open_payload(request_key, frame.payload))
        except (sc.SecureChannelError, RecursionError) as exc:
            raise ApiError(Code.SC_DECRYPTION_FAILED) from exc
        now = self._clock.now()
        session = ChannelSession(
            "scs_" + secrets.token_urlsafe(24), request_key, response_key, now, now
        )
        session.seen_ivs.add(sc.payload_iv(frame.payload))
        with self._lock:
            self._sessions[session.session_id] = session
            while len(self._sessions) > MAX_SESSIONS:
                self._sessions.popitem(last=False)
        return session, plaintext

    def get(self, session_id: str) -> ChannelSession:
        """A live session; 401 SECURE_CHANNEL.SESSION_INVALID otherwise."""
        now = self._clock.now()
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                raise ApiError(Code.SC_SESSION_INVALID)
            if now - session.last_used > self.idle_seconds:
                del self._sessions[session_id]
                raise ApiError(Code.SC_SESSION_INVALID)
            return session

    def open(self, session: ChannelSession, frame: sc.Frame) -> Any:
        """Decrypt a type-2 frame of ``session``, refusing replays; returns the plaintext."""
        if frame.type is not sc.MessageType.SESSION_DATA:
            raise ApiError(Code.SC_DECRYPTION_FAILED)
        try:
            plaintext = sc.load_json(sc.open_payload(session.request_key, frame.payload))
        except (sc.SecureChannelError, RecursionError) as exc:
            raise ApiError(Code.SC_DECRYPTION_FAILED) from exc
        iv = sc.payload_iv(frame.payload)
        with self._lock:
            if iv in session.seen_ivs:
                raise ApiError(Code.SC_REPLAY_DETECTED)
            session.seen_ivs.add(iv)
            session.last_used = self._clock.now()
            self._sessions.move_to_end(session.session_id)
        return plaintext

    def touch(self, session: ChannelSession) -> None:
        """Record a use of the session (its idle lifetime starts again)."""
        with self._lock:
            session.last_used = self._clock.now()
            if session.session_id in self._sessions:
                self._sessions.move_to_end(session.session_id)

    def bind(self, session: ChannelSession, account_biz_id: str) -> None:
        """Bind a session to an account (first call with a token); evicts beyond the limit.

        A session bound to another account gives 401 SECURE_CHANNEL.SESSION_INVALID.
        """
        with self._lock:
            if session.account_biz_id is not None:
                if session.account_biz_id != account_biz_id:
                    raise ApiError(Code.SC_SESSION_INVALID)
                return
            session.account_biz_id = account_biz_id
            others = [
                s
                for s in self._sessions.values()
                if s.account_biz_id == account_biz_id and s is not session
            ]
            others.sort(key=lambda s: s.created_at)
            excess = len(others) + 1 - self._config.sc_sessions_per_account
            for old in others[: max(excess, 0)]:
                self._sessions.pop(old.session_id, None)

    def close(self, session: ChannelSession) -> None:
        """Forget a session."""
        with self._lock:
            self._sessions.pop(session.session_id, None)

    def seal(self, session: ChannelSession, envelope: dict[str, Any]) -> dict[str, Any]:
        """A type-129 HTTP body carrying ``envelope``."""
        return sc.to_body(sc.response_message(session.response_key, envelope))

    def session_count(self) -> int:
        """Sessions in memory (for tests)."""
        with self._lock:
            return len(self._sessions)
