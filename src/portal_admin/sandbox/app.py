"""``create_app``: the sandbox as an ASGI application, built synchronously.

Everything is set up before the app is returned (``httpx.ASGITransport`` runs no lifespan
events): the database and its schema, the seed on an empty database, the Secure Channel key.
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp

from .channel import SecureChannelServer
from .clock import Clock, SystemClock, TestClock, iso, to_ms
from .config import SandboxConfig
from .db import Database
from .errors import install_handlers
from .faults import FaultConfig, FaultInjector, skew_clock
from .middleware import SandboxMiddleware
from .openapi import describe
from .schema import create_core_schema
from .seed import seed_core
from .state import SandboxState, SeedContext
from .tokens import load_secret

#: The area modules under ``sandbox/routes``, in the order their routers are included and
#: their ``seed(ctx)`` functions run.
AREAS: tuple[str, ...] = (
    "secure_channel",
    "auth",
    "passwords",
    "accounts",
    "security",
    "invitations",
    "roles",
    "portals",
    "notifications",
    "constants",
    "sandbox_tools",
)


def load_areas() -> list[ModuleType]:
    """Import every area module."""
    return [importlib.import_module(f"{__package__}.routes.{name}") for name in AREAS]


def _is_seeded(db: Database) -> bool:
    return db.scalar("SELECT value FROM meta WHERE key = 'seeded_at'") is not None


def seed_database(state: SandboxState, areas: list[ModuleType]) -> SeedContext:
    """Seed an empty database: the core data, then each area's ``seed(ctx)``, in one go."""
    now = state.clock.now()
    ctx = SeedContext(state, random.Random(state.config.seed), now)
    with state.db.transaction() as db:
        # Bulk loading is faster without the secondary indexes: drop, load, rebuild.
        indexes = db.query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'accounts'"
            " AND sql IS NOT NULL"
        )
        for name, _ in indexes:
            db.execute(f'DROP INDEX "{name}"')
        seed_core(ctx, state.config.seed_accounts)
        for _, sql in indexes:
            db.execute(sql)
        for area in areas:
            seed = getattr(area, "seed", None)
            if seed is not None:
                seed(ctx)
        state.db.execute(
            "INSERT INTO meta (key, value) VALUES ('seeded_at', ?)", (iso(to_ms(now)) or "",)
        )
    state.db.execute("ANALYZE")
    return ctx


def create_state(config: SandboxConfig, clock: Clock | None = None) -> SandboxState:
    """Open the database, create the schema, seed when empty; no web app."""
    clock = clock or (TestClock() if config.test_clock else SystemClock())
    db = Database(config.db)
    state = SandboxState(config, db, clock)
    areas = load_areas()
    create_core_schema(db)
    for area in areas:
        schema = getattr(area, "SCHEMA", None)
        if schema:
            db.executescript(schema)
    state.jwt_secret = load_secret(state)
    state.channel = SecureChannelServer(db, config, clock)
    if not _is_seeded(db):
        seed_database(state, areas)
    return state


class SandboxApp(FastAPI):
    """FastAPI with the fault injector (``app.state.faults``) outside everything else."""

    def build_middleware_stack(self) -> ASGIApp:
        """Starlette's stack, wrapped by the fault injector when there is one."""
        stack = super().build_middleware_stack()
        faults: FaultInjector | None = getattr(self.state, "faults", None)
        if faults is not None:
            faults.app = stack
            return faults
        return stack

    def openapi(self) -> dict[str, Any]:
        """The OpenAPI description (``sandbox.openapi``): bodies, answers, security."""
        if not self.openapi_schema:
            state: SandboxState = self.state.sandbox
            self.openapi_schema = describe(self, state.config.account_query_shape)
        return self.openapi_schema


def create_app(config: SandboxConfig | None = None, *, clock: Clock | None = None) -> FastAPI:
    """The sandbox app for ``config`` (defaults: in memory, 2000 generated accounts).

    With ``config.faults`` the app misbehaves on purpose (``sandbox.faults``); the injector is
    ``app.state.faults`` (None without faults).
    """
    config = config or SandboxConfig()
    faults = FaultConfig.from_specs(config.faults)
    if faults.clock_skew_s:
        clock = skew_clock(
            clock or (TestClock() if config.test_clock else SystemClock()), faults.clock_skew_s
        )
    state = create_state(config, clock)
    app = SandboxApp(
        title="System Portal sandbox",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        redirect_slashes=False,
    )
    app.state.sandbox = state
    install_handlers(app)
    areas = load_areas()
    for area in areas:
        app.include_router(area.router)
    # Every route, for the Allow header of a 405 (``errors.allowed_methods``).
    app.state.area_routes = [route for area in areas for route in area.router.routes]
    app.add_middleware(SandboxMiddleware, state=state)
    app.state.faults = FaultInjector(app.router, state, faults) if config.faults else None
    return app
