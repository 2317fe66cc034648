"""``ClientService``: owns the one ``PortalClient`` of the active profile, as Qt signals."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QObject, Signal

from portal_admin.connection.profiles import client_options as profile_options
from portal_admin.ui.i18n.translators import accept_language
from portal_admin.ui.profiles.store import Profile

from .sandbox_factory import SANDBOX_BASE_URL

if TYPE_CHECKING:  # the client (and httpx) are imported when the first client is built
    from portal_admin.client import ClientOptions, PortalClient
    from portal_admin.client.events import Event
    from portal_admin.client.options import Language

    from .sandbox_tools import SandboxTools

log = logging.getLogger(__name__)

#: Builds the HTTP transport for a profile (None: the client's own network transport).
TransportFactory = Callable[[Profile], Any]


def default_transport(profile: Profile) -> Any:
    """The in-process sandbox for the sandbox profile; the network for every other."""
    if not profile.is_sandbox:
        return None
    from .sandbox_factory import sandbox_transport

    return sandbox_transport()


def client_options(profile: Profile, language: str | None = None) -> ClientOptions:
    """The client options a profile stands for (``language`` overrides the profile's)."""
    return profile_options(profile, accept_language(language or profile.language))


class ClientService(QObject):
    """One ``PortalClient`` for the active profile; its events re-emitted as Qt signals.

    ``requestFinished`` carries (operation id, request id, HTTP status or 0, code or "").
    """

    signedInChanged = Signal(bool, str)
    secureChannelChanged = Signal(str)
    requestFinished = Signal(str, str, int, str)
    lastRequestId = Signal(str)
    keyringUnavailable = Signal(str)
    busyChanged = Signal(bool)
    #: The active profile changed (a new client will be built for it).
    profileChanged = Signal(object)

    def __init__(
        self,
        profile: Profile,
        *,
        language: str | None = None,
        transport_factory: TransportFactory | None = None,
        token_store: Any = None,
        client_clock: Any = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._profile = profile
        self._language = language
        self._transport_factory = transport_factory or default_transport
        self._token_store = token_store
        self._client_clock = client_clock
        self._client: PortalClient | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._stop_journal: Callable[[], None] | None = None
        self._in_flight: set[str] = set()
        self.signed_in = False
        self.email: str | None = None
        self.secure_channel_state = "closed"
        self.last_request_id: str | None = None
        #: ``--tour`` only: makes a change on the tour's sandbox behind the client's back.
        self.tour_change: Callable[[], str] | None = None
        #: The tour's evidence key store (in memory), for its panels; None outside the tour.
        self.tour_key_store: Any = None

    @property
    def profile(self) -> Profile:
        """The active connection profile."""
        return self._profile

    @property
    def is_sandbox(self) -> bool:
        """True when the active profile is the built-in sandbox."""
        return self._profile.is_sandbox

    @property
    def busy(self) -> bool:
        """True while at least one request is on its way."""
        return bool(self._in_flight)

    @property
    def client(self) -> PortalClient:
        """The client of the active profile, built on first use."""
        if self._client is None:
            self._client = self._build(self._profile)
        return self._client

    def sandbox_tools(self) -> SandboxTools | None:
        """The sandbox-only endpoints, or None outside sandbox mode."""
        if not self.is_sandbox:
            return None
        from .sandbox_tools import SandboxTools

        return SandboxTools(self.client.http)

    @property
    def accept_language(self) -> str:
        """The Accept-Language the client sends now."""
        return accept_language(self._language or self._profile.language)

    def set_language(self, language: str | None) -> None:
        """Speak ``language`` to the server from the next request on, on the live client too."""
        self._language = language
        if self._client is not None:
            self._client.set_language(cast("Language", self.accept_language))

    async def use_profile(self, profile: Profile) -> PortalClient:
        """Make ``profile`` the active one (closing the previous client) and return its client."""
        if profile != self._profile or profile.base_url != self._profile.base_url:
            await self.close()
            self._profile = profile
            self.profileChanged.emit(profile)
        return self.client

    async def logout(self) -> None:
        """End the server session and forget the tokens (the client stays usable)."""
        if self._client is not None:
            await self._client.auth.logout()

    async def close(self) -> None:
        """Close the client (Secure Channel session, then HTTP); a new one is built on use."""
        client, self._client = self._client, None
        for stop in (self._unsubscribe, self._stop_journal):
            if stop is not None:
                stop()
        self._unsubscribe = self._stop_journal = None
        if self._in_flight:
            self._in_flight.clear()
            self.busyChanged.emit(False)
        if client is not None:
            try:
                await client.aclose()
            except Exception:
                log.exception("closing the API client failed")
        if self.signed_in:
            self.signed_in = False
            self.signedInChanged.emit(False, "closed")

    def _build(self, profile: Profile) -> PortalClient:
        from portal_admin.client import PortalClient

        base_url = SANDBOX_BASE_URL if profile.is_sandbox else profile.base_url
        kwargs: dict[str, Any] = {"transport": self._transport_factory(profile)}
        if self._token_store is not None:
            kwargs["token_store"] = self._token_store
        if self._client_clock is not None:
            kwargs["clock"] = self._client_clock
        client = PortalClient(base_url, client_options(profile, self._language), **kwargs)
        self._unsubscribe = client.events.subscribe(self._on_event)
        from portal_admin.evidence.recorder import attach  # with the client: not at start-up

        self._stop_journal = attach(client, profile=profile.name, server=base_url)
        log.info("API client built for profile %r", profile.name)
        return client

    def _on_event(self, event: Event) -> None:
        from portal_admin.client.events import (
            KeyringUnavailable,
            RequestFinished,
            RequestStarted,
            SecureChannelChanged,
            SignedInChanged,
        )

        if isinstance(event, RequestStarted):
            was_busy = self.busy
            self._in_flight.add(event.request_id)
            if not was_busy:
                self.busyChanged.emit(True)
        elif isinstance(event, RequestFinished):
            self._finished(event)
        elif isinstance(event, SignedInChanged):
            self.signed_in = event.signed_in
            self.email = event.email if event.signed_in else None
            self.signedInChanged.emit(event.signed_in, event.reason)
        elif isinstance(event, SecureChannelChanged):
            self.secure_channel_state = event.state
            self.secureChannelChanged.emit(event.state)
        elif isinstance(event, KeyringUnavailable):
            self.keyringUnavailable.emit(event.reason)

    def _finished(self, event: Any) -> None:
        was_busy = self.busy
        self._in_flight.discard(event.request_id)
        self.requestFinished.emit(
            event.operation_id, event.request_id, event.status or 0, event.code or ""
        )
        if event.request_id:
            self.last_request_id = event.request_id
            self.lastRequestId.emit(event.request_id)
        if was_busy and not self.busy:
            self.busyChanged.emit(False)
