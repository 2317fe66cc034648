"""Where the program keeps its files (platformdirs): config, logs, data."""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "portal-admin"
APP_AUTHOR = "SystemPortal"


def config_dir() -> Path:
    """The user's config folder for the program (profiles live here)."""
    return Path(platformdirs.user_config_dir(APP_NAME, APP_AUTHOR))


def log_dir() -> Path:
    """The user's log folder for the program."""
    return Path(platformdirs.user_log_dir(APP_NAME, APP_AUTHOR))


def data_dir() -> Path:
    """The user's data folder for the program (the sandbox's database lives here)."""
    return Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))
