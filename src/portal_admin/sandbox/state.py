"""What one sandbox instance holds: settings, database, clock, limits, the Secure Channel."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .clock import Clock, TestClock
from .config import SandboxConfig
from .db import Database
from .ratelimit import RateLimiter

if TYPE_CHECKING:
    from .channel import SecureChannelServer


@dataclass(eq=False)
class SandboxState:
    """Shared by every request; found at ``app.state.sandbox``."""

    config: SandboxConfig
    db: Database
    clock: Clock
    limiter: RateLimiter = field(default_factory=RateLimiter)
    jwt_secret: bytes = b""
    channel: SecureChannelServer | None = None

    @property
    def test_clock(self) -> TestClock | None:
        """The movable clock, when the sandbox runs with one."""
        return self.clock if isinstance(self.clock, TestClock) else None

    @property
    def secure_channel(self) -> SecureChannelServer:
        """The Secure Channel server (always set once the app is built)."""
        assert self.channel is not None
        return self.channel


@dataclass(eq=False)
class SeedContext:
    """Handed to every area's ``seed(ctx)`` after the core seed, on an empty database."""

    state: SandboxState
    rng: random.Random
    now: float
    admin_biz_id: str = ""
    auditor_biz_id: str = ""
    approval_biz_id: str = ""
    newuser_biz_id: str = ""
    #: The primary workspace (the admin is its OWNER).
    workspace_biz_id: str = ""
    #: A second workspace where the admin is a member and the auditor is not.
    other_workspace_biz_id: str = ""
    #: The institution of the platform (the admin's), then the tenants.
    institution_biz_ids: list[str] = field(default_factory=list)
    #: Role ids of the primary workspace by name: OWNER, AUDITOR, SUPPORT (has members),
    #: UNUSED (no members).
    role_biz_ids: dict[str, str] = field(default_factory=dict)
    #: Generated accounts (biz ids), in creation order.
    account_biz_ids: list[str] = field(default_factory=list)

    @property
    def db(self) -> Database:
        """The database."""
        return self.state.db

    @property
    def now_ms(self) -> int:
        """The seeding time, epoch milliseconds."""
        return int(self.now * 1000)
