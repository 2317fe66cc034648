"""Access and refresh tokens: single-flight refresh, keyring persistence, clean sign-out.

The refresh token is single use, so exactly one refresh is in flight however many calls wait.
A refresh is never retried automatically; after a timeout, automatic refresh stops (the token
may or may not have been consumed) until an explicit refresh or a new sign-in. A refused
refresh signs the client out and tells the caller once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from .errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    NotSignedInError,
    RateLimitedError,
    SecureChannelError,
    ServerError,
)
from .events import EventBus, KeyringUnavailable, SignedInChanged, TokenRefreshed
from .keyring_store import TokenStore
from .records import TokenPair

log = logging.getLogger("portal_admin.client.tokens")

Refresher = Callable[[str], Awaitable[TokenPair]]


class TokenManager:
    """Holds the tokens of the signed-in account."""

    def __init__(
        self,
        *,
        store: TokenStore,
        profile: str,
        events: EventBus,
        skew: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self._profile = profile
        self._events = events
        self._skew = skew
        self._clock = clock
        self._refresher: Refresher | None = None
        self._lock = asyncio.Lock()
        self._access: str | None = None
        self._refresh: str | None = None
        self._deadline = 0.0  # clock() value at which the access token expires
        self._expires_at: datetime | None = None
        self._email: str | None = None
        self._auto_refresh = True
        self._keyring_notice_sent = False
        #: How many refresh requests were sent (for diagnostics and tests).
        self.refresh_count = 0

    def set_refresher(self, refresher: Refresher) -> None:
        """The coroutine that sends ``auth.token_refresh``."""
        self._refresher = refresher

    @property
    def signed_in(self) -> bool:
        """True while tokens are held."""
        return self._access is not None

    @property
    def email(self) -> str | None:
        """The signed-in account."""
        return self._email

    @property
    def expires_at(self) -> datetime | None:
        """When the access token expires (wall clock, UTC)."""
        return self._expires_at

    @property
    def access_token(self) -> str | None:
        """The current access token, as is (no refresh)."""
        return self._access

    @property
    def persistent(self) -> bool:
        """True when the refresh token survives a restart (keyring available)."""
        return self._store.persistent

    def _expired_soon(self) -> bool:
        return self._clock() >= self._deadline - self._skew

    async def accept(self, email: str, pair: TokenPair, *, reason: str) -> None:
        """Hold a new token pair for ``email`` and store the refresh token."""
        was_signed_in = self.signed_in
        self._set(pair)
        self._email = email
        self._auto_refresh = True
        await self._persist()
        if not was_signed_in:
            log.info("signed in (%s)", reason)
            self._events.publish(SignedInChanged(True, email, reason))

    def _set(self, pair: TokenPair) -> None:
        self._access = pair.access_token.get_secret_value()
        self._refresh = pair.refresh_token.get_secret_value()
        self._deadline = self._clock() + pair.expires_in
        self._expires_at = datetime.now(UTC) + timedelta(seconds=pair.expires_in)

    async def _persist(self) -> None:
        if self._email is None or self._refresh is None:
            return
        await self._store.save(self._profile, self._email, self._refresh)
        reason = self._store.unavailable_reason
        if reason and not self._keyring_notice_sent:
            self._keyring_notice_sent = True
            self._events.publish(KeyringUnavailable(reason))

    async def stored_refresh_token(self, email: str) -> str | None:
        """The refresh token kept for ``email``, if any."""
        return await self._store.load(self._profile, email)

    async def resume(self, email: str) -> bool:
        """Refresh from the stored token of ``email``; False when none or refused."""
        token = await self._store.load(self._profile, email)
        if not token:
            return False
        async with self._lock:
            self._email = email
            self._refresh = token
            self._auto_refresh = True
            try:
                await self._refresh_locked(reason="resume")
            except AuthenticationError:
                return False
        return True

    async def bearer(self) -> str:
        """A usable access token, refreshed first when it expires within the skew."""
        token = self._access
        if token is None:
            raise NotSignedInError("not signed in", code="ACCESS.TOKEN_MISSING")
        if self._auto_refresh and self._refresh is not None and self._expired_soon():
            await self.refresh(stale=token)
            token = self._access
            if token is None:
                raise NotSignedInError("not signed in", code="ACCESS.TOKEN_MISSING")
        return token

    async def refresh(self, *, stale: str | None = None, explicit: bool = False) -> None:
        """Refresh once; callers holding ``stale`` share one refresh (single flight)."""
        async with self._lock:
            if stale is not None and self._access != stale:
                if self._access is None:
                    raise NotSignedInError("signed out", code="ACCESS.TOKEN_MISSING")
                return  # another caller refreshed already
            if not explicit and not self._auto_refresh:
                raise AuthenticationError(
                    "automatic token refresh is stopped after a timed-out refresh",
                    code="4010",
                    http_status=401,
                )
            await self._refresh_locked(reason="refresh")

    async def _refresh_locked(self, *, reason: str) -> None:
        token = self._refresh
        if token is None or self._refresher is None:
            raise NotSignedInError("not signed in", code="ACCESS.TOKEN_MISSING")
        self.refresh_count += 1
        try:
            pair = await self._refresher(token)
        except APITimeoutError:
            self._auto_refresh = False
            log.warning("token refresh timed out; automatic refresh stopped")
            raise
        except (APIConnectionError, RateLimitedError, ServerError, SecureChannelError):
            raise
        except APIStatusError as exc:
            log.warning("token refresh refused (%s); signing out", exc.code)
            await self.clear(reason="refresh_refused", forget_stored=True)
            raise AuthenticationError(
                "the session ended: the refresh was refused",
                code=exc.code,
                http_status=exc.http_status,
                request_id=exc.request_id,
                operation_id=exc.operation_id,
            ) from None
        was_signed_in = self.signed_in
        self._set(pair)
        self._auto_refresh = True
        await self._persist()
        assert self._expires_at is not None
        log.info("access token refreshed")
        self._events.publish(TokenRefreshed(self._expires_at))
        if not was_signed_in:
            self._events.publish(SignedInChanged(True, self._email, reason))

    async def clear(self, *, reason: str, forget_stored: bool) -> None:
        """Drop the tokens (and the stored one); publish the sign-out once."""
        was_signed_in = self.signed_in
        email = self._email
        self._access = None
        self._refresh = None
        self._deadline = 0.0
        self._expires_at = None
        self._email = None
        if forget_stored and email is not None:
            try:
                await self._store.delete(self._profile, email)
            except Exception as exc:
                log.warning("could not remove the stored refresh token: %s", type(exc).__name__)
        if was_signed_in:
            log.info("signed out (%s)", reason)
            self._events.publish(SignedInChanged(False, email, reason))
