"""The built-in sandbox for ``ui/``: see ``portal_admin.connection.builtin`` (no Qt there)."""

from portal_admin.connection.builtin import (
    MEMORY,
    SANDBOX_ACCESS_CODE,
    SANDBOX_BASE_URL,
    SANDBOX_DB_NAME,
    create_sandbox_app,
    sandbox_db_path,
    sandbox_transport,
    transport_for_app,
)

__all__ = [
    "MEMORY",
    "SANDBOX_ACCESS_CODE",
    "SANDBOX_BASE_URL",
    "SANDBOX_DB_NAME",
    "create_sandbox_app",
    "sandbox_db_path",
    "sandbox_transport",
    "transport_for_app",
]
