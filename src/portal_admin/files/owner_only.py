"""Files readable and writable by their owner only (mode 0600 on POSIX, a DACL of the user and
SYSTEM on Windows: ``portable.make_private``), written whole or not at all.

Used for what the program keeps that no one else may read: the installation key's file when
there is no keyring, and the command line's kept session.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from .atomic import fsync_dir
from .portable import make_private

#: Owner read and write only (as ssh keeps a private key).
FILE_MODE = 0o600


def write_owner_only(path: Path, data: bytes, *, replace: bool) -> bool:
    """Write ``data`` to ``path``, owner-only, through a temporary file fsynced before it takes
    the name (a process killed meanwhile leaves the old file or the new one, whole). With
    ``replace`` False an existing file is never replaced (False is returned: another process
    wrote it first); True when ``data`` is in place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, FILE_MODE)
    try:
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, FILE_MODE)  # whatever the umask
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        make_private(tmp)  # the DACL on Windows (the mode above on POSIX)
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # fails when the file exists
            except FileExistsError:
                return False
            except OSError:  # a file system without hard links (FAT): a plain rename
                if path.exists():
                    return False
                os.replace(tmp, path)
        fsync_dir(path.parent)
        return True
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
