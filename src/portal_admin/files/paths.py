"""Where the program keeps its files (platformdirs): config, logs, data.

``PORTAL_ADMIN_HOME``, when set, holds them all instead, on every system: ``config/``,
``data/``, ``log/`` under it. The tests and ``--tour`` set it so that they never touch the
person's own folders (on Windows ``platformdirs`` reads no ``XDG_*`` variable, so those alone
isolate nothing there)."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "portal-admin"
APP_AUTHOR = "SystemPortal"
#: The variable that moves every folder of the program under one folder.
HOME_ENV = "PORTAL_ADMIN_HOME"


def home_override() -> Path | None:
    """The folder ``PORTAL_ADMIN_HOME`` names (made absolute), or None when it is unset or empty."""
    value = os.environ.get(HOME_ENV, "").strip()
    return Path(os.path.abspath(value)) if value else None


#: A folder standing in for the user's config and data folders (``--tour``), or None.
_STAND_IN: Path | None = None


def use_stand_in(folder: Path | None) -> None:
    """Keep the program's config and data under ``folder`` from now on (its journal,
    snapshots, jobs, campaigns, profiles, saved views): a tour works there and leaves the
    person's own untouched. The log folder stays the user's. None: the user's folders again."""
    global _STAND_IN
    _STAND_IN = folder


def stand_in() -> Path | None:
    """The folder standing in for the user's config and data folders, if any."""
    return _STAND_IN


def _user_dir(kind: str) -> Path:
    if _STAND_IN is not None and kind in ("config", "data"):
        return _STAND_IN / kind
    home = home_override()
    if home is not None:
        return home / kind
    import platformdirs  # when first asked: importing this module stays cheap (start-up)

    return Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME, APP_AUTHOR))


def config_dir() -> Path:
    """The user's config folder for the program (profiles live here)."""
    return _user_dir("config")


def log_dir() -> Path:
    """The user's log folder for the program."""
    return _user_dir("log")


def data_dir() -> Path:
    """The user's data folder for the program (the sandbox's database lives here)."""
    return _user_dir("data")
