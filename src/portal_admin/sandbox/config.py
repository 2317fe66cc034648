"""The sandbox's settings: one frozen dataclass, filled by the command line or by tests."""

from __future__ import annotations

from dataclasses import dataclass, field

from portal_admin.protocol.pages import AccountQueryShape
from portal_admin.protocol.secure_channel import ALGORITHMS, OAEP_SHA256

DEFAULT_ACCESS_CODE = "SANDBOX"
DEFAULT_SEED = 20260101
MEMORY = ":memory:"


#: Administrative writes per second per account (``SandboxConfig.write_rate_limit``).
DEFAULT_WRITE_RATE_LIMIT = 100


@dataclass(frozen=True, slots=True)
class SandboxConfig:
    """How a sandbox instance behaves."""

    #: SQLite database: a file path or ``":memory:"``.
    db: str = MEMORY
    #: How many generated accounts an empty database is seeded with.
    seed_accounts: int = 2000
    portal_access_code: str = DEFAULT_ACCESS_CODE
    #: The key-wrapping algorithm advertised by the public-key operation.
    sc_algorithm: str = OAEP_SHA256
    #: True: the clock can be moved by ``POST /sandbox/clock/advance``.
    test_clock: bool = False
    account_query_shape: AccountQueryShape = "accounts"
    sc_idle_seconds: int = 1800
    sc_sessions_per_account: int = 5
    #: Seed of the random generator for demo data (the same seed gives the same data).
    seed: int = DEFAULT_SEED
    #: Fault injection, ``"name=value"`` strings of ``sandbox.faults.FaultConfig``
    #: (``("latency_ms=20", "error_5xx_rate=0.1", "seed=7")``); empty means none.
    faults: tuple[str, ...] = field(default_factory=tuple)
    #: Administrative writes (account status, update, password reset, invitation create and
    #: cancel) one account may send per second; more answer 429 ``REQUEST.RATE_LIMITED`` with
    #: ``Retry-After: 1``. 0: no limit.
    write_rate_limit: int = DEFAULT_WRITE_RATE_LIMIT
    #: True: ``/sandbox/totp`` and ``/sandbox/mailbox`` (every account's sign-in codes)
    #: answer only callers on loopback (``serve --allow-remote`` without
    #: ``--expose-sign-in-codes``); others get 404.
    sign_in_codes_loopback_only: bool = False

    def __post_init__(self) -> None:
        if self.sc_algorithm not in ALGORITHMS:
            raise ValueError(f"unknown Secure Channel algorithm {self.sc_algorithm!r}")
        if self.account_query_shape not in ("accounts", "content"):
            raise ValueError("account_query_shape must be 'accounts' or 'content'")
        if self.write_rate_limit < 0:
            raise ValueError("write_rate_limit must not be negative")
        if self.seed_accounts < 0:
            raise ValueError("seed_accounts must not be negative")
        if self.sc_idle_seconds <= 0 or self.sc_sessions_per_account <= 0:
            raise ValueError("Secure Channel limits must be positive")
