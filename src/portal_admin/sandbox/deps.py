"""FastAPI dependencies for route authors: context, caller, workspace and permission checks.

- ``CtxDep``: the request context (database, clock, language, ``ok()``), no authentication.
- ``AuthedDep``: a signed-in caller (401 ``ACCESS.TOKEN_MISSING`` without a bearer token,
  401 ``4010`` for an invalid or expired one).
- ``Depends(require("area.operation"))``: a signed-in caller in a workspace (``X-Workspace-Id``
  or the primary one), holding the permission ``protocol.operations.PERMISSIONS`` names
  (403 ``ACCESS.PERMISSION_DENIED`` otherwise).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse

from portal_admin.protocol.enums import EnumListing
from portal_admin.protocol.envelope import build_envelope
from portal_admin.protocol.errors import Code
from portal_admin.protocol.operations import OPERATIONS, PERMISSIONS

from .clock import Clock, to_ms
from .config import SandboxConfig
from .db import Database
from .errors import ApiError
from .localize import enum_item
from .state import SandboxState
from .tokens import SIGNED_IN_STATUSES, decode_access_token

#: Last-activity times are written at most this often (milliseconds).
ACTIVITY_GRANULARITY_MS = 30_000


@dataclass(eq=False)
class Ctx:
    """One request's view of the sandbox."""

    state: SandboxState
    request: Request
    lang: str
    request_id: str

    @property
    def db(self) -> Database:
        """The database."""
        return self.state.db

    @property
    def clock(self) -> Clock:
        """The sandbox clock."""
        return self.state.clock

    @property
    def config(self) -> SandboxConfig:
        """The settings."""
        return self.state.config

    def now(self) -> float:
        """Epoch seconds on the sandbox clock."""
        return self.state.clock.now()

    def now_ms(self) -> int:
        """Epoch milliseconds on the sandbox clock."""
        return to_ms(self.state.clock.now())

    def envelope(self, data: Any = None, message: str = "SUCCESS") -> dict[str, Any]:
        """A success envelope (a dict)."""
        return build_envelope(data, message=message, now_ms=self.now_ms())

    def ok(self, data: Any = None, message: str = "SUCCESS", status: int = 200) -> JSONResponse:
        """A success answer."""
        return JSONResponse(self.envelope(data, message), status_code=status)

    def item(self, listing: EnumListing, code: str, value: int | None = None) -> dict[str, Any]:
        """An enum item in the caller's language."""
        return enum_item(listing, code, self.lang, value)

    @property
    def client_ip(self) -> str:
        """CF-Connecting-IP, else the socket peer."""
        given = self.request.headers.get("cf-connecting-ip")
        if given:
            return given.strip()[:64]
        client = self.request.client
        return client.host if client else "127.0.0.1"

    @property
    def user_agent(self) -> str:
        """The User-Agent header (cut to 512 characters)."""
        return (self.request.headers.get("user-agent") or "")[:512]

    @property
    def client_hash(self) -> str:
        """The X-Client-Hash header (cut to 256 characters)."""
        return (self.request.headers.get("x-client-hash") or "").strip()[:256]


async def get_ctx(request: Request) -> Ctx:
    """The request context (async: a plain def would run in a worker thread per request)."""
    state: SandboxState = request.app.state.sandbox
    return Ctx(
        state,
        request,
        str(getattr(request.state, "lang", "en")),
        str(getattr(request.state, "request_id", "")),
    )


CtxDep = Annotated[Ctx, Depends(get_ctx)]


@dataclass(frozen=True, slots=True)
class Principal:
    """The signed-in account behind a bearer token."""

    account_biz_id: str
    sid: str
    email: str
    name: str
    status: str
    pending_approval: bool


@dataclass(eq=False)
class Authed:
    """A request by a signed-in caller."""

    ctx: Ctx
    principal: Principal

    @property
    def db(self) -> Database:
        """The database."""
        return self.ctx.db

    def ok(self, data: Any = None, message: str = "SUCCESS", status: int = 200) -> JSONResponse:
        """A success answer."""
        return self.ctx.ok(data, message, status)


@dataclass(eq=False)
class Caller(Authed):
    """A signed-in caller acting in one workspace with one role."""

    workspace_biz_id: str
    role_biz_id: str
    role_type: str
    permissions: frozenset[str]

    def can(self, permission: str) -> bool:
        """True when the caller's role holds ``permission``."""
        return permission in self.permissions


def bearer_token(request: Request) -> str | None:
    """The bearer token of the Authorization header, or None."""
    header = request.headers.get("authorization") or ""
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def principal_from_token(ctx: Ctx, raw: str, *, allow_expired: bool = False) -> Principal:
    """The principal of a token whose session is still open (ApiError 4010 otherwise)."""
    claims = decode_access_token(ctx.state, raw, allow_expired=allow_expired)
    row = ctx.db.one(
        "SELECT a.biz_id, a.email, a.name, a.status, a.pending_approval, s.sid,"
        " s.last_activity_time FROM auth_sessions s JOIN accounts a"
        " ON a.biz_id = s.account_biz_id WHERE s.sid = ? AND s.ended_at IS NULL",
        (claims["sid"],),
    )
    if row is None or row["biz_id"] != claims["sub"] or row["status"] not in SIGNED_IN_STATUSES:
        raise ApiError(Code.TOKEN_INVALID)
    now = ctx.now_ms()
    if now - int(row["last_activity_time"]) >= ACTIVITY_GRANULARITY_MS:
        ctx.db.execute(
            "UPDATE auth_sessions SET last_activity_time = ? WHERE sid = ?", (now, row["sid"])
        )
    return Principal(
        row["biz_id"],
        row["sid"],
        row["email"],
        row["name"],
        row["status"],
        bool(row["pending_approval"]),
    )


def authenticate(ctx: Ctx, missing_code: str = Code.TOKEN_MISSING) -> Principal:
    """The caller's principal; 401 ``missing_code`` without a token, 401 4010 for a bad one."""
    raw = bearer_token(ctx.request)
    if raw is None:
        raise ApiError(missing_code)
    return principal_from_token(ctx, raw)


def _authed_dependency(missing_code: str) -> Callable[[Ctx], Awaitable[Authed]]:
    async def dependency(ctx: CtxDep) -> Authed:
        return Authed(ctx, authenticate(ctx, missing_code))

    return dependency


authed = _authed_dependency(Code.TOKEN_MISSING)
AuthedDep = Annotated[Authed, Depends(authed)]


def authed_with(missing_code: str) -> Callable[[Ctx], Awaitable[Authed]]:
    """Like ``authed`` but answering ``missing_code`` when no token is sent (profile)."""
    return _authed_dependency(missing_code)


def resolve_workspace(ctx: Ctx, principal: Principal) -> Caller:
    """The caller in the workspace of X-Workspace-Id (default: the primary one)."""
    wanted = (ctx.request.headers.get("x-workspace-id") or "").strip()
    sql = (
        "SELECT m.workspace_biz_id, m.role_biz_id, r.role_type, r.permission_codes"
        " FROM workspace_members m JOIN roles r ON r.biz_id = m.role_biz_id"
        " JOIN workspaces w ON w.biz_id = m.workspace_biz_id"
        " WHERE m.account_biz_id = ? AND m.status = 'ACTIVE' AND w.status = 'ACTIVE'"
    )
    if wanted:
        row = ctx.db.one(sql + " AND m.workspace_biz_id = ?", (principal.account_biz_id, wanted))
    else:
        row = ctx.db.one(
            sql + " ORDER BY m.is_primary DESC, m.joined_at LIMIT 1", (principal.account_biz_id,)
        )
    if row is None:
        raise ApiError(Code.PERMISSION_DENIED)
    try:
        codes = json.loads(row["permission_codes"])
    except ValueError:
        codes = []
    return Caller(
        ctx,
        principal,
        row["workspace_biz_id"],
        row["role_biz_id"],
        row["role_type"],
        frozenset(str(c) for c in codes),
    )


#: Administrative writes counted by ``SandboxConfig.write_rate_limit`` (what bulk jobs send).
WRITE_LIMITED = frozenset(
    {
        "accounts.status",
        "accounts.update",
        "accounts.password_reset",
        "invitations.create",
        "invitations.cancel",
    }
)
WRITE_WINDOW = 1.0


def limit_writes(ctx: Ctx, account_biz_id: str) -> None:
    """429 ``REQUEST.RATE_LIMITED`` past the per-second write limit (real time, not the
    sandbox clock, which a test may hold still)."""
    limit = ctx.config.write_rate_limit
    if limit and not ctx.state.limiter.allow(
        f"writes:{account_biz_id}", limit, WRITE_WINDOW, time.monotonic()
    ):
        raise ApiError(Code.RATE_LIMITED, headers={"Retry-After": "1"})


def require(operation_id: str) -> Callable[[Ctx], Awaitable[Caller]]:
    """A dependency: the caller in its workspace, holding the operation's permission."""
    if operation_id not in OPERATIONS:
        raise KeyError(f"unknown operation {operation_id!r}")
    permission = PERMISSIONS.get(operation_id)
    limited = operation_id in WRITE_LIMITED

    async def dependency(ctx: CtxDep) -> Caller:
        caller = resolve_workspace(ctx, authenticate(ctx))
        if permission is not None and permission not in caller.permissions:
            raise ApiError(Code.PERMISSION_DENIED)
        if limited:
            limit_writes(ctx, caller.principal.account_biz_id)
        return caller

    return dependency
