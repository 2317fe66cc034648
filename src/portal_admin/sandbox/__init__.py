"""The sandbox: the project's own System Portal server (FastAPI + SQLite).

``create_app(SandboxConfig(...))`` gives an ASGI app, ready to serve (no lifespan needed);
``portal-sandbox serve`` serves it over HTTP. Imported lazily by the UI's demo mode.
"""

from __future__ import annotations

from .app import create_app, create_state
from .config import SandboxConfig

__all__ = ["SandboxConfig", "create_app", "create_state"]
