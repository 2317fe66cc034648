"""Fault injection: a pure-ASGI wrapper that makes the sandbox misbehave on purpose.

Configured by ``SandboxConfig.faults`` (``"name=value"`` strings, see :class:`FaultConfig`) or
the ``--fault-*`` options of ``portal-sandbox serve``. Every draw comes from one
``random.Random(seed)``, so a seed gives the same sequence of faults for the same sequence of
requests. Faults never touch the sandbox-only endpoints (``/sandbox/*``), nor anything that
is not HTTP.

Per request, in this order: added latency; then at most one of dropped connection, 5xx
answer, HTML gateway page, malformed envelope (cumulative rates); independently, all Secure
Channel sessions expired and the key rotated before the request is served. Clock skew moves the
sandbox clock once, at creation (:func:`skew_clock`).

Test hooks: :meth:`FaultInjector.expire_sessions`, :meth:`FaultInjector.rotate_key`,
:attr:`FaultInjector.enabled`; over HTTP ``GET /sandbox/faults`` (configuration and counts) and
``POST /sandbox/faults/{enable,disable,expire-sessions,rotate-key}``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Literal

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from portal_admin.protocol.envelope import build_envelope

from .clock import Clock, TestClock, to_ms

if TYPE_CHECKING:
    from .channel import SecureChannelServer
    from .state import SandboxState

log = logging.getLogger(__name__)

#: Paths the faults never apply to.
SANDBOX_PREFIX = "/sandbox/"
HOOKS_PREFIX = "/sandbox/faults"
#: How a dropped connection shows: ``raise`` an httpx transport error (in-process, where
#: ``httpx.ASGITransport`` re-raises app exceptions as they are), or ``abort`` the HTTP
#: connection without a complete answer (uvicorn closes it when the app fails mid-answer).
DropMode = Literal["raise", "abort"]

GATEWAY_PAGE = (
    b"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n"
    b"<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n"
)
_SERVER_STATUSES = (500, 502, 503, 504)


class FaultConfigError(ValueError):
    """A fault specification that cannot be understood."""


@dataclass(frozen=True, slots=True)
class FaultConfig:
    """What goes wrong, and how often (rates are shares of requests, 0 to 1)."""

    #: Added to every request (milliseconds), plus up to ``latency_jitter_ms`` at random.
    latency_ms: float = 0.0
    latency_jitter_ms: float = 0.0
    #: Share of requests answered 500/502/503/504 with an error envelope.
    error_5xx_rate: float = 0.0
    #: Share of requests whose connection drops (before or after the app ran).
    drop_rate: float = 0.0
    #: Share of requests whose answer is replaced by something that is not a good envelope.
    malformed_rate: float = 0.0
    #: Share of requests answered by a "gateway" with 502 text/html.
    html_rate: float = 0.0
    #: Share of requests before which every Secure Channel session is expired.
    sc_expire_rate: float = 0.0
    #: Share of requests before which the Secure Channel key is rotated (slow: RSA 3072).
    key_rotate_rate: float = 0.0
    #: Seconds the sandbox clock is ahead (negative: behind) of the real time.
    clock_skew_s: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("error_5xx_rate", "drop_rate", "malformed_rate", "html_rate"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise FaultConfigError(f"{name} must be between 0 and 1")
        for name in ("sc_expire_rate", "key_rotate_rate"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise FaultConfigError(f"{name} must be between 0 and 1")
        if self.latency_ms < 0 or self.latency_jitter_ms < 0:
            raise FaultConfigError("latency must not be negative")
        if self.answer_rate > 1.0:
            raise FaultConfigError("drop, 5xx, html and malformed rates add up to more than 1")

    @property
    def answer_rate(self) -> float:
        """The share of requests whose answer is replaced (drop, 5xx, html, malformed)."""
        return self.drop_rate + self.error_5xx_rate + self.html_rate + self.malformed_rate

    @property
    def active(self) -> bool:
        """True when any per-request fault is configured."""
        return bool(
            self.latency_ms
            or self.latency_jitter_ms
            or self.answer_rate
            or self.sc_expire_rate
            or self.key_rotate_rate
        )

    @classmethod
    def from_specs(cls, specs: Sequence[str]) -> FaultConfig:
        """Parse ``("latency_ms=20", "drop_rate=0.05", "seed=7")``; unknown names are refused."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for spec in specs:
            name, sep, raw = spec.partition("=")
            name = name.strip().replace("-", "_")
            if not sep or name not in known:
                raise FaultConfigError(f"unknown fault {spec!r}; known: {', '.join(known)}")
            try:
                values[name] = int(raw) if name == "seed" else float(raw)
            except ValueError as exc:
                raise FaultConfigError(f"{name} needs a number, got {raw!r}") from exc
        return cls(**values)

    def specs(self) -> tuple[str, ...]:
        """The non-default settings as ``name=value`` strings (``SandboxConfig.faults``)."""
        default = FaultConfig()
        return tuple(
            f"{name}={value}"
            for name, value in asdict(self).items()
            if value != getattr(default, name)
        )


# -- clock skew -------------------------------------------------------------------------------


class SkewedClock:
    """Another clock, shifted by a fixed number of seconds."""

    def __init__(self, inner: Clock, skew: float) -> None:
        self.inner = inner
        self.skew = skew

    def now(self) -> float:
        """The inner clock's time plus the skew."""
        return self.inner.now() + self.skew


class SkewedTestClock(TestClock):
    """A test clock (still movable by ``/sandbox/clock/advance``) that starts skewed."""

    __test__ = False

    def __init__(self, skew: float) -> None:
        super().__init__()
        self.skew = skew

    def now(self) -> float:
        """The test clock's time plus the skew."""
        return super().now() + self.skew


def skew_clock(clock: Clock, skew: float) -> Clock:
    """``clock`` shifted by ``skew`` seconds (a fresh TestClock stays a TestClock)."""
    if not skew:
        return clock
    if type(clock) is TestClock:
        return SkewedTestClock(skew)
    return SkewedClock(clock, skew)


# -- the middleware ---------------------------------------------------------------------------


class DroppedConnection(ConnectionError):
    """Raised mid-answer so that the HTTP server closes the connection (``abort`` mode)."""


def _transport_error(message: str) -> Exception:
    import httpx  # the in-process transport is httpx's; imported only when a drop happens

    return httpx.ReadError(message)


class FaultInjector:
    """Wraps the whole ASGI app (outside Starlette's error middleware)."""

    def __init__(
        self,
        app: ASGIApp,
        state: SandboxState,
        config: FaultConfig,
        *,
        drop_mode: DropMode = "raise",
    ) -> None:
        self.app = app
        self.state = state
        self.drop_mode: DropMode = drop_mode
        self.counts: Counter[str] = Counter()
        self.enabled = True
        self.configure(config)

    def configure(self, config: FaultConfig) -> None:
        """Replace the configuration and restart the random sequence from its seed."""
        self.config = config
        self.rng = random.Random(config.seed)

    def update(self, **changes: Any) -> None:
        """Change some settings, keeping the others (and the random sequence)."""
        self.config = replace(self.config, **changes)

    # -- hooks ----------------------------------------------------------------------------------

    def _channel(self) -> SecureChannelServer:
        channel = self.state.channel
        if channel is None:
            raise RuntimeError("the sandbox has no Secure Channel server yet")
        return channel

    def expire_sessions(self) -> int:
        """Forget every Secure Channel session (clients get SESSION_INVALID); returns how many."""
        channel = self._channel()
        # The session table is the channel's own; the sandbox has no other way to expire all.
        with channel._lock:
            count = len(channel._sessions)
            channel._sessions.clear()
        self.counts["sc_expired"] += 1
        return count

    def rotate_key(self) -> str:
        """A new Secure Channel key (clients get KEY_UNKNOWN on their next session create)."""
        key_id = self._channel().rotate_key()
        self.counts["key_rotated"] += 1
        return key_id

    def report(self) -> dict[str, Any]:
        """The configuration and how many times each fault was applied."""
        return {
            "enabled": self.enabled,
            "dropMode": self.drop_mode,
            "config": asdict(self.config),
            "counts": dict(self.counts),
        }

    # -- ASGI -----------------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path == HOOKS_PREFIX or path.startswith(HOOKS_PREFIX + "/"):
            await self._hook(path, scope, receive, send)
            return
        if not self.enabled or path.startswith(SANDBOX_PREFIX) or not self.config.active:
            await self.app(scope, receive, send)
            return
        await self._faulty(scope, receive, send)

    async def _hook(self, path: str, scope: Scope, receive: Receive, send: Send) -> None:
        """``/sandbox/faults*``: only with the test clock or faults configured, else not found."""
        if not (self.state.config.test_clock or self.config.active or self.config.clock_skew_s):
            await self.app(scope, receive, send)
            return
        status, data = await _hook_dispatch(self, path, str(scope.get("method", "GET")))
        if status == 404:  # the app answers what is not a hook (404 or 405, as everywhere)
            await self.app(scope, receive, send)
            return
        body = build_envelope(data, now_ms=to_ms(self.state.clock.now()))
        await _respond(send, 200, json.dumps(body).encode(), b"application/json", "")

    async def _faulty(self, scope: Scope, receive: Receive, send: Send) -> None:
        cfg, rng = self.config, self.rng
        # Every draw is made up front and in a fixed order: the sequence depends on the seed
        # and the number of requests only.
        delay = cfg.latency_ms + cfg.latency_jitter_ms * rng.random()
        pick = rng.random()
        variant = rng.random()
        expire = rng.random() < cfg.sc_expire_rate
        rotate = rng.random() < cfg.key_rotate_rate
        if delay > 0:
            self.counts["latency"] += 1
            await asyncio.sleep(delay / 1000)
        if expire:
            self.expire_sessions()
        if rotate:
            await asyncio.to_thread(self.rotate_key)
        request_id = Headers(scope=scope).get("x-request-id") or ""
        edge = 0.0
        for kind, rate in (
            ("drop", cfg.drop_rate),
            ("5xx", cfg.error_5xx_rate),
            ("html", cfg.html_rate),
            ("malformed", cfg.malformed_rate),
        ):
            edge += rate
            if pick < edge:
                self.counts[kind] += 1
                log.debug("fault %s on %s %s", kind, scope.get("method"), scope["path"])
                await getattr(self, f"_{kind}")(variant, request_id, scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _drop(
        self, variant: float, request_id: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        if variant >= 0.5:
            # The request reached the server and was served; the answer is lost on the way.
            await self.app(scope, receive, _discard)
        message = "connection dropped by fault injection"
        if self.drop_mode == "raise":
            raise _transport_error(message)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        raise DroppedConnection(message)

    async def _5xx(
        self, variant: float, request_id: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        status = _SERVER_STATUSES[int(variant * len(_SERVER_STATUSES))]
        body = build_envelope(
            None,
            code="5000",
            message="Injected server error",
            now_ms=to_ms(self.state.clock.now()),
            success=False,
        )
        await _respond(send, status, json.dumps(body).encode(), b"application/json", request_id)

    async def _html(
        self, variant: float, request_id: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        await _respond(send, 502, GATEWAY_PAGE, b"text/html; charset=utf-8", request_id)

    async def _malformed(
        self, variant: float, request_id: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        captured: list[Message] = []

        async def capture(message: Message) -> None:
            captured.append(message)

        await self.app(scope, receive, capture)
        status = next(
            (int(m["status"]) for m in captured if m["type"] == "http.response.start"), 200
        )
        body = b"".join(m.get("body", b"") for m in captured if m["type"] == "http.response.body")
        await _respond(send, status, _spoil(body, variant), b"application/json", request_id)


async def _discard(message: Message) -> None:
    """An ASGI ``send`` that loses everything."""


def _spoil(body: bytes, variant: float) -> bytes:
    """One of several ways an answer can be wrong, chosen by ``variant`` (0 to 1)."""
    kinds = 6
    which = int(variant * kinds)
    if which == 0:  # cut in the middle
        return body[: max(1, len(body) // 2)]
    if which == 1:  # JSON, but not an object
        return b'["not", "an", "envelope"]'
    if which == 2:  # an object without a code
        return b'{"success": true, "data": {}}'
    if which == 3:  # success, but data of the wrong shape
        return b'{"code": "2000", "success": true, "message": "SUCCESS", "data": "surprise"}'
    if which == 4:  # not UTF-8
        return b"\xff\xfe\x00garbage"
    return b""  # empty body


async def _respond(
    send: Send, status: int, body: bytes, content_type: bytes, request_id: str
) -> None:
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    if request_id:
        headers.append((b"x-request-id", request_id.encode("latin-1", "replace")))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# -- the hooks over HTTP ------------------------------------------------------------------------


async def _hook_dispatch(injector: FaultInjector, path: str, method: str) -> tuple[int, Any]:
    action = path[len(HOOKS_PREFIX) :].strip("/")
    if method == "GET" and action == "":
        return 200, injector.report()
    if method != "POST":
        return 404, None
    if action == "enable":
        injector.enabled = True
        return 200, injector.report()
    if action == "disable":
        injector.enabled = False
        return 200, injector.report()
    if action == "expire-sessions":
        return 200, {"expired": injector.expire_sessions()}
    if action == "rotate-key":
        return 200, {"keyId": await asyncio.to_thread(injector.rotate_key)}
    return 404, None


def wrap(app: ASGIApp, state: SandboxState, specs: Sequence[str]) -> FaultInjector:
    """The fault injector around ``app`` for ``SandboxConfig.faults``."""
    return FaultInjector(app, state, FaultConfig.from_specs(specs))
