"""``PortalClient``: one long-lived httpx client, the Secure Channel, tokens and the areas."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

import httpx

from .areas import (
    AccountsArea,
    AuthArea,
    ConstantsArea,
    InvitationsArea,
    NotificationsArea,
    PortalsArea,
    RolesArea,
    SecureChannelArea,
    SecurityArea,
)
from .channel import SecureChannel
from .events import EventBus
from .fingerprint import installation_fingerprint
from .invoker import Invoker
from .keyring_store import KeyringTokenStore, TokenStore
from .options import ClientOptions, Language, check_url
from .pinning import pin_hook
from .tokens import TokenManager
from .transport import Transport

log = logging.getLogger("portal_admin.client")

#: Seconds allowed for closing the Secure Channel session on exit.
CLOSE_TIMEOUT = 5.0


class PortalClient:
    """An async client for the System Portal API; use it as ``async with``."""

    def __init__(
        self,
        base_url: str,
        options: ClientOptions | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        token_store: TokenStore | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.options = opts = options or ClientOptions()
        in_process = isinstance(transport, httpx.ASGITransport | httpx.MockTransport)
        self.base_url = check_url(base_url, opts.tls, in_process=in_process)
        self.events = EventBus()
        timeout = httpx.Timeout(opts.timeout, connect=opts.connect_timeout)
        kwargs: dict[str, Any] = {}
        if transport is not None:
            kwargs["transport"] = transport
        else:
            kwargs["verify"] = opts.tls.ssl_context()
            kwargs["proxy"] = opts.httpx_proxy()
            kwargs["trust_env"] = opts.trust_env
            if opts.tls.pinned_sha256:
                kwargs["event_hooks"] = {"request": [pin_hook(opts.tls.pinned_sha256)]}
        #: The one long-lived httpx client (scripts may use it for sandbox-only endpoints).
        self.http = httpx.AsyncClient(
            base_url=self.base_url, timeout=timeout, follow_redirects=False, **kwargs
        )
        client_hash = opts.client_hash or installation_fingerprint()
        self._transport = Transport(self.http, opts, client_hash, self.events)
        self._channel = SecureChannel(
            self._transport, self.events, allow_legacy=opts.allow_legacy_padding
        )
        self._tokens = TokenManager(
            store=token_store if token_store is not None else KeyringTokenStore(),
            profile=opts.profile or str(self.base_url).rstrip("/"),
            events=self.events,
            skew=opts.refresh_skew,
            clock=clock,
        )
        invoker = Invoker(self._transport, self._channel, self._tokens, opts.retry)
        self.auth = AuthArea(invoker, self._tokens, self._channel)
        self.security = SecurityArea(invoker)
        self.accounts = AccountsArea(invoker)
        self.constants = ConstantsArea(invoker)
        self.invitations = InvitationsArea(invoker)
        self.roles = RolesArea(invoker)
        self.notifications = NotificationsArea(invoker)
        self.portals = PortalsArea(invoker)
        self.secure_channel = SecureChannelArea(invoker, self._channel)
        self._closed = False

    @property
    def last_request_id(self) -> str | None:
        """The ``X-Request-Id`` of the latest request."""
        return self._transport.last_request_id

    @property
    def read_only(self) -> bool:
        """True when mutating operations are refused."""
        return self.options.read_only

    @property
    def signed_in(self) -> bool:
        """True while the client holds tokens."""
        return self._tokens.signed_in

    @property
    def refresh_count(self) -> int:
        """How many token refreshes were sent (diagnostics)."""
        return self._tokens.refresh_count

    def is_allowed(self, operation_id: str) -> bool:
        """False for operations this (read-only) client refuses."""
        return self._transport.allowed(operation_id)

    @property
    def language(self) -> Language:
        """The language the server is asked to answer in (``Accept-Language``)."""
        return self.options.language

    def set_language(self, language: Language) -> None:
        """Ask for ``language`` from the next request on (signed-in state is kept)."""
        self.options = dataclasses.replace(self.options, language=language)  # validates
        self._transport.options = self.options

    async def __aenter__(self) -> PortalClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the Secure Channel session, then the HTTP client. Tokens stay stored."""
        if self._closed:
            return
        self._closed = True
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await self._channel.close()
        except TimeoutError:
            log.info("closing the secure channel session timed out")
        finally:
            await self.http.aclose()
