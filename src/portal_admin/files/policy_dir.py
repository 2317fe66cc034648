"""The machine's policy folder (kiosk ``policy.json``, managed ``profiles.json``). No Qt here.

Where it is, and why ``PORTAL_ADMIN_POLICY_DIR`` cannot hide or replace what the machine's
administrator put there, is explained in ``docs/kiosk.md``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .paths import APP_NAME

#: A folder looked at only when the system folder does not hold the file (tests, trials).
POLICY_DIR_ENV = "PORTAL_ADMIN_POLICY_DIR"


def system_policy_dir() -> Path:
    """The machine's config folder for the program (needs administrator rights to write).

    On Linux and other Unix systems this is ``/etc/xdg/portal-admin`` itself, not the first
    entry of ``$XDG_CONFIG_DIRS``: a variable the person sets must not move the policy away.
    """
    if sys.platform == "win32" or sys.platform == "darwin":
        import platformdirs

        return Path(platformdirs.site_config_dir(APP_NAME, appauthor=False))
    return Path("/etc/xdg") / APP_NAME


def policy_file_paths(name: str, system_dir: Path | None = None) -> list[Path]:
    """Where the policy file ``name`` is looked for, first match wins: the system folder,
    then ``$PORTAL_ADMIN_POLICY_DIR``."""
    paths = [(system_dir or system_policy_dir()) / name]
    extra = os.environ.get(POLICY_DIR_ENV)
    if extra:
        paths.append(Path(extra) / name)
    return paths
