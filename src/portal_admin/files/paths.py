"""Where the program keeps its files (platformdirs): config, logs, data."""

from __future__ import annotations

from pathlib import Path

APP_NAME = "portal-admin"
APP_AUTHOR = "SystemPortal"


def _user_dir(kind: str) -> Path:
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
