"""A small fake System Portal for unit tests over httpx.MockTransport.

It speaks the wire through ``portal_admin.protocol`` (envelope builder, page builders, Secure
Channel codec), so the client is tested against the same description it uses.
"""

from __future__ import annotations

import functools
import json
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

from portal_admin.protocol import pages
from portal_admin.protocol import secure_channel as sc
from portal_admin.protocol.envelope import build_envelope
from portal_admin.protocol.errors import CATALOGUE

ADMIN = "admin@fake.test"
PASSWORD = "Fake-Password-1!"
CODE = "246810"


@functools.cache
def private_key(bits: int = 2048) -> RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=bits)


def envelope(data: Any = None, code: str = "2000", message: str | None = None) -> dict[str, Any]:
    return build_envelope(data, code=code, message=message, now_ms=int(time.time() * 1000))


def error(code: str, status: int | None = None, message: str | None = None) -> httpx.Response:
    spec = CATALOGUE.get(code)
    return httpx.Response(
        status or (spec.http_status if spec else 400),
        json=envelope(None, code, message or f"localized: {code}"),
    )


@dataclass
class ScSession:
    keys: sc.SessionKeys
    seen: set[bytes] = field(default_factory=set)


Handler = Callable[[httpx.Request], httpx.Response | None]


@dataclass
class FakePortal:
    """State and behaviour of the fake server."""

    algorithm: str = sc.OAEP_SHA256
    key_id: str = "k1"
    account_shape: pages.AccountQueryShape = "accounts"
    pending_approval: bool = False
    requests: list[httpx.Request] = field(default_factory=list)
    hits: Counter[str] = field(default_factory=Counter)
    access_tokens: set[str] = field(default_factory=set)
    refresh_tokens: set[str] = field(default_factory=set)
    used_refresh_tokens: set[str] = field(default_factory=set)
    sessions: dict[str, ScSession] = field(default_factory=dict)
    overrides: dict[str, list[Handler]] = field(default_factory=dict)
    #: Transform a sealed response body before it leaves (tamper/replay tests).
    response_filter: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None
    refresh_delay: float = 0.0
    login_sessions: set[str] = field(default_factory=set)
    accounts: int = 45

    # -- helpers ----------------------------------------------------------------------

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def once(self, path: str, handler: Handler) -> None:
        """Answer the next request to ``path`` with ``handler`` (None: go on normally)."""
        self.overrides.setdefault(path, []).append(handler)

    def issue_tokens(self) -> dict[str, Any]:
        access, refresh = "at-" + secrets.token_hex(8), "rt-" + secrets.token_hex(8)
        self.access_tokens.add(access)
        self.refresh_tokens.add(refresh)
        return {"accessToken": access, "refreshToken": refresh, "expiresIn": 3600}

    def expire_access_tokens(self) -> None:
        self.access_tokens.clear()

    def _bearer(self, request: httpx.Request) -> httpx.Response | None:
        auth = request.headers.get("Authorization")
        if not auth:
            return error("ACCESS.TOKEN_MISSING")
        if auth.removeprefix("Bearer ") not in self.access_tokens:
            return error("4010", 401)
        return None

    def _sealed(
        self, path: str, session: ScSession, env: dict[str, Any], status: int = 200
    ) -> httpx.Response:
        body = sc.to_body(sc.response_message(session.keys.response_key, env))
        if self.response_filter is not None:
            body = self.response_filter(path, body)
        return httpx.Response(status, json=body)

    def _open(self, request: httpx.Request) -> tuple[ScSession, Any] | httpx.Response:
        if request.headers.get("X-SC-Version") != "2":
            return error("VALIDATION.INVALID_PARAMETER")
        session = self.sessions.get(request.headers.get("X-SC-Session-Id", ""))
        if session is None:
            return error("SECURE_CHANNEL.SESSION_INVALID")
        try:
            frame = sc.decode_frame(sc.from_body(request.content))
            plain = sc.load_json(sc.open_payload(session.keys.request_key, frame.payload))
        except sc.SecureChannelError:
            return error("SECURE_CHANNEL.DECRYPTION_FAILED")
        iv = sc.payload_iv(frame.payload)
        if iv in session.seen:
            return error("SECURE_CHANNEL.REPLAY_DETECTED")
        session.seen.add(iv)
        return session, plain

    # -- dispatch ---------------------------------------------------------------------

    async def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        path = request.url.path
        self.hits[path] += 1
        queue = self.overrides.get(path)
        if queue:
            answer = queue.pop(0)(request)
            if answer is not None:
                return answer
        return await self.route(request, path)

    async def route(self, request: httpx.Request, path: str) -> httpx.Response:
        import asyncio

        p = path.removeprefix("/web/v1")
        if p == "/secure-channel/public-key":
            return httpx.Response(
                200,
                json=envelope(
                    {
                        "keyId": self.key_id,
                        "publicKey": sc.export_public_key(private_key().public_key()),
                        "algorithm": self.algorithm,
                    }
                ),
            )
        if p == "/secure-channel/session":
            frame = sc.decode_frame(sc.from_body(request.content))
            assert frame.key_exchange is not None
            if frame.key_exchange.key_id != self.key_id:
                return error("SECURE_CHANNEL.KEY_UNKNOWN")
            kx = frame.key_exchange
            keys = sc.SessionKeys(
                sc.unwrap_key(private_key(), self.algorithm, kx.wrapped_request_key),
                sc.unwrap_key(private_key(), self.algorithm, kx.wrapped_response_key),
            )
            sc.open_payload(keys.request_key, frame.payload)
            sid = "sc-" + secrets.token_hex(6)
            self.sessions[sid] = ScSession(keys)
            return self._sealed(
                path, self.sessions[sid], envelope({"sessionId": sid, "expiresIn": 1800})
            )
        if p == "/secure-channel/session/close":
            opened = self._open(request)
            if isinstance(opened, httpx.Response):
                return opened
            session, _ = opened
            self.sessions = {k: v for k, v in self.sessions.items() if v is not session}
            return self._sealed(path, session, envelope(None))
        if p.startswith("/system/") and request.headers.get("X-PORTAL-ACCESS-CODE") != "CODE":
            return error("ACCESS.PERMISSION_DENIED")
        body = json.loads(request.content) if request.content else None
        if p == "/system/auth/login/initiate":
            if body != {"email": ADMIN, "password": PASSWORD}:
                return error("AUTH.INVALID_CREDENTIALS")
            sid = "ls-" + secrets.token_hex(4)
            self.login_sessions.add(sid)
            methods = [
                {"code": "EMAIL", "value": 10011001, "label": "Email"},
                {"code": "OTP", "value": 10011002, "label": "Authenticator"},
            ]
            return httpx.Response(
                200,
                json=envelope(
                    {
                        "sessionId": sid,
                        "mfaMethods": methods,
                        "expiresIn": 300,
                        "accountStatus": None,
                        "pendingApproval": False,
                    }
                ),
            )
        if p == "/system/auth/login/mfa/send":
            return httpx.Response(
                200, json=envelope({"sent": True, "cooldownSeconds": 60, "codeExpiresIn": 300})
            )
        if p == "/system/auth/login/complete":
            assert body is not None
            if body["sessionId"] not in self.login_sessions:
                return error("AUTH.SESSION_NOT_FOUND")
            if body["code"] != CODE:
                return error("AUTH.MFA_CODE_INVALID")
            data = {
                **self.issue_tokens(),
                "accountStatus": None,
                "pendingApproval": self.pending_approval,
            }
            return httpx.Response(200, json=envelope(data))
        if p == "/system/auth/token/refresh":
            opened = self._open(request)
            if isinstance(opened, httpx.Response):
                return opened
            session, plain = opened
            if self.refresh_delay:
                await asyncio.sleep(self.refresh_delay)
            token = plain.get("refreshToken") if isinstance(plain, dict) else None
            if token not in self.refresh_tokens:
                return self._sealed(
                    path, session, envelope(None, "AUTH.REFRESH_TOKEN_INVALID"), 401
                )
            self.refresh_tokens.discard(token)
            self.used_refresh_tokens.add(token)
            return self._sealed(path, session, envelope(self.issue_tokens()))
        if p in (
            "/system/auth/password/change",
            "/system/auth/password/reset",
            "/system/auth/password/init",
        ):
            if p.endswith("change") and (denied := self._bearer(request)):
                return denied
            opened = self._open(request)
            if isinstance(opened, httpx.Response):
                return opened
            session, plain = opened
            return self._sealed(path, session, envelope({"success": True, "message": "ok"}))
        if p == "/system/auth/password/forgot":
            if request.headers.get("X-SC-Session-Id") not in self.sessions:
                return error("SECURE_CHANNEL.SESSION_INVALID")
            return httpx.Response(200, json=envelope({"success": True, "message": "sent"}))
        if p == "/system/auth/logout":
            token = request.headers.get("Authorization", "").removeprefix("Bearer ")
            self.access_tokens.discard(token)
            return httpx.Response(200, json=envelope({"success": True, "terminatedSessions": 1}))
        if p.startswith("/system/constants/"):
            return httpx.Response(
                200,
                json=envelope(
                    [
                        {"code": "ACTIVE", "value": 35010101, "label": "Active"},
                        {"code": "SUSPENDED", "value": 35010102, "label": "Suspended"},
                    ]
                ),
            )
        if denied := self._bearer(request):
            return denied
        if p == "/system/profile":
            return httpx.Response(
                200,
                json=envelope(
                    {
                        "bizId": "acc-1",
                        "accountEmail": ADMIN,
                        "accountName": "Admin",
                        "accountPortal": {"code": "SYSTEM", "value": 35010201, "label": "System"},
                    }
                ),
            )
        if p == "/system/accounts/admin/query":
            assert body is not None
            number, size = body.get("page", 0), body.get("size", 20)
            items = [
                {
                    "bizId": f"acc-{i}",
                    "accountEmail": f"user{i}@fake.test",
                    "accountStatus": {"code": "ACTIVE", "value": 10010202},
                    "futureField": i,
                }
                for i in range(number * size, min((number + 1) * size, self.accounts))
            ]
            data = pages.account_query(
                items, number=number, size=size, total=self.accounts, shape=self.account_shape
            )
            return httpx.Response(200, json=envelope(data))
        if p == "/system/security/sessions/history":
            number = max(int(request.url.params.get("page", "1")) - 1, 0)  # 1-based
            size = int(request.url.params.get("size", "20"))
            items = [
                {"bizId": f"h{i}", "loginResult": 1}
                for i in range(number * size, min((number + 1) * size, 25))
            ]
            return httpx.Response(
                200, json=envelope(pages.shape_a(items, number=number, size=size, total=25))
            )
        if p == "/system/roles/delete":
            return httpx.Response(200, json=envelope(None))
        return error("RESOURCE.NOT_FOUND")
