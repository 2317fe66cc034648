"""The built-in sandbox, in-process: the only place the program (desktop or command line)
touches ``portal_admin.sandbox``.

Everything is imported inside the functions, so a normal start-up pays nothing for it.
"""

from __future__ import annotations

from typing import Any

from portal_admin.files.paths import data_dir

#: Base URL the client uses for the in-process sandbox (no network is involved).
SANDBOX_BASE_URL = "http://sandbox.local"
#: The portal access code the built-in sandbox expects.
SANDBOX_ACCESS_CODE = "SANDBOX"
#: Database file name in the user's data folder.
SANDBOX_DB_NAME = "sandbox.sqlite3"
MEMORY = ":memory:"


def sandbox_db_path() -> str:
    """Where the built-in sandbox keeps its data (the user's data folder)."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / SANDBOX_DB_NAME)


def create_sandbox_app(
    db: str | None = None, *, seed_accounts: int | None = None, test_clock: bool = True
) -> Any:
    """A sandbox ASGI app; ``db`` None: the file in the user's data folder (":memory:" ok)."""
    from portal_admin.sandbox import SandboxConfig, create_app

    options: dict[str, Any] = {
        "db": db or sandbox_db_path(),
        "test_clock": test_clock,
        "portal_access_code": SANDBOX_ACCESS_CODE,
    }
    if seed_accounts is not None:
        options["seed_accounts"] = seed_accounts
    return create_app(SandboxConfig(**options))


def transport_for_app(app: Any) -> Any:
    """An httpx transport that serves ``app`` in-process."""
    from portal_admin.client import sandbox_transport

    return sandbox_transport(app)


def sandbox_transport(
    db: str | None = None, *, seed_accounts: int | None = None, test_clock: bool = True
) -> Any:
    """Create the sandbox app and return the in-process transport that serves it."""
    return transport_for_app(
        create_sandbox_app(db, seed_accounts=seed_accounts, test_clock=test_clock)
    )


def colleague_change(app: Any) -> str:
    """Tour only: suspend one account in ``app``'s database, as another administrator would."""
    from portal_admin.sandbox.demo import colleague_change as change

    return change(app)
