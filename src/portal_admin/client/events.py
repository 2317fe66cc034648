"""Plain-Python events the client publishes; the UI adapts them to Qt signals."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeAlias

log = logging.getLogger("portal_admin.client.events")


@dataclass(frozen=True, slots=True)
class RequestStarted:
    """An HTTP request is about to be sent."""

    operation_id: str
    request_id: str
    method: str
    path: str


@dataclass(frozen=True, slots=True)
class RequestFinished:
    """An HTTP exchange ended (``status`` None: no answer arrived)."""

    operation_id: str
    request_id: str
    status: int | None
    code: str | None
    duration: float


@dataclass(frozen=True, slots=True)
class ChangeStarted:
    """A mutating operation is about to be sent (its token is in hand): what it will change.

    Published just before the request leaves. A subscriber that must finish something first
    (the journal writing its intent durably) adds an awaitable to ``hold``: the request
    leaves once every one is done (within the call's time limit). The ``ChangeFinished`` of
    the same call carries the same ``change_id``.
    """

    change_id: str
    operation_id: str
    targets: tuple[str, ...]
    fields: dict[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]
    account: str | None
    hold: list[Awaitable[object]] = field(default_factory=list, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class ChangeFinished:
    """A mutating operation ended: what it changed (no secret: ``client.changes``) and how.

    ``outcome`` is ``ok``, ``failed`` (the server refused it, or, after a ``ChangeStarted``,
    the request never left: the Secure Channel could not be opened) or ``unknown`` (no usable
    answer: it may or may not have happened).
    """

    operation_id: str
    targets: tuple[str, ...]
    fields: dict[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]
    outcome: str
    code: str | None
    request_id: str | None
    http_status: int | None
    server_time_ms: int | None
    account: str | None
    #: The ``ChangeStarted`` of the same call (None: none was published, nothing was sent).
    change_id: str | None = None


@dataclass(frozen=True, slots=True)
class SignedInChanged:
    """The client became signed in or signed out."""

    signed_in: bool
    email: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class SecureChannelChanged:
    """The Secure Channel session was opened or closed."""

    state: Literal["open", "closed"]
    algorithm: str | None = None


@dataclass(frozen=True, slots=True)
class TokenRefreshed:
    """The access token was refreshed."""

    expires_at: datetime


@dataclass(frozen=True, slots=True)
class KeyringUnavailable:
    """No usable OS keyring: the refresh token is kept in memory only."""

    reason: str


Event: TypeAlias = (
    RequestStarted
    | RequestFinished
    | ChangeStarted
    | ChangeFinished
    | SignedInChanged
    | SecureChannelChanged
    | TokenRefreshed
    | KeyringUnavailable
)
Callback: TypeAlias = Callable[[Event], object]


class EventBus:
    """Registers callbacks and calls them synchronously; a failing callback is logged."""

    def __init__(self) -> None:
        self._subscribers: list[tuple[Callback, tuple[type[Event], ...]]] = []

    def subscribe(self, callback: Callback, *types: type[Event]) -> Callable[[], None]:
        """Call ``callback`` for events of ``types`` (all when none); returns an unsubscriber."""
        entry = (callback, tuple(types))
        self._subscribers.append(entry)

        def unsubscribe() -> None:
            if entry in self._subscribers:
                self._subscribers.remove(entry)

        return unsubscribe

    def publish(self, event: Event) -> None:
        """Deliver ``event`` to every matching subscriber."""
        for callback, types in list(self._subscribers):
            if types and not isinstance(event, types):
                continue
            try:
                callback(event)
            except Exception:
                log.exception("event callback %r failed", callback)
