"""Whether symbolic links can be made where the tests run.

On Windows making one needs a privilege (or developer mode), and Wine 8's
``CreateSymbolicLinkW`` reports success and makes nothing: a test that plants a link there
would plant a plain missing name and prove nothing. The check makes a link and looks at it.
"""

from __future__ import annotations

import functools
import os
import tempfile

#: The reason a link-planting test gives when it is skipped.
NO_LINKS = (
    "no symbolic links can be made here (Windows without the privilege to make them, or Wine, "
    "whose CreateSymbolicLinkW reports success and makes none)"
)


@functools.cache
def can_make_symlinks() -> bool:
    """Whether ``os.symlink`` really makes a symbolic link here."""
    if not hasattr(os, "symlink"):
        return False
    with tempfile.TemporaryDirectory(prefix="portal-admin-links-") as folder:
        target = os.path.join(folder, "target")
        link = os.path.join(folder, "link")
        with open(target, "wb"):
            pass
        try:
            os.symlink(target, link)
        except OSError:
            return False
        return os.path.islink(link)
