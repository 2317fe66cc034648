"""Whether a file is its owner's only, on the system the tests run on."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

from portal_admin.files import portable


def owner_only(path: Path) -> bool:
    """POSIX: mode 0600 (0700 for a folder). Windows: a DACL of the user and SYSTEM only.
    Under Wine, which derives a file's security from Unix modes, the DACL is not read back
    (docs/security.md, "Files on Windows"): True."""
    if sys.platform != "win32":
        return stat.S_IMODE(path.stat().st_mode) == (0o700 if path.is_dir() else 0o600)
    if portable.under_wine():
        return True
    sids = {sid for sid, _, _ in portable.windows_dacl(path)}
    return len(sids - {portable.SYSTEM_SID}) == 1 and not sids & {"S-1-1-0", "S-1-5-32-545"}
