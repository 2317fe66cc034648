"""Files readable and writable by their owner only (mode 0600 on POSIX, a DACL of the user and
SYSTEM on Windows: ``portable.make_private``), written whole or not at all, and read back only
when they are still as the program wrote them.

Used for what the program keeps that no one else may read: the installation key's file when
there is no keyring, and the command line's kept session. :func:`read_private` is the one way
to read them: it refuses (:class:`PrivateFileRefused`, naming the file, what is wrong and how
to fix it) a link, anything but a regular file (a FIFO would block the reader), a file of
another user or one others can read or write (as ssh refuses an unprotected private key), and
one bigger than the reader's limit. On Windows the mode bits and owner say nothing (access is
by ACL, which is set on writing but not read back here): there only the link, the kind and the
size are checked.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
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


class PrivateFileRefused(Exception):
    """A private file that is not as the program writes it: not read. ``problem`` says what is
    wrong with it, ``remedy`` what the person can do."""

    def __init__(self, path: Path, problem: str, remedy: str) -> None:
        self.path = path
        self.problem = problem
        self.remedy = remedy
        super().__init__(f"{path} {problem}: {remedy}")


#: Where modes and owners mean something (POSIX): checked there only.
_POSIX = os.name == "posix"


def _current_uid() -> int | None:
    """The user whose files the program writes (None where there are no user ids)."""
    geteuid = getattr(os, "geteuid", None)
    return geteuid() if geteuid is not None else None


def _link(path: Path) -> PrivateFileRefused:
    return PrivateFileRefused(
        path,
        "is a link to another file, not a file of its own",
        "remove the link (the program then makes its own file)",
    )


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _check(path: Path, info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise PrivateFileRefused(path, f"is {_kind(info.st_mode)}, not a file", "remove it")
    if _POSIX:
        uid = _current_uid()
        if uid is not None and info.st_uid != uid:
            raise PrivateFileRefused(
                path,
                f"belongs to another user (user id {info.st_uid}, not {uid})",
                "remove it, or if it is yours, take it back (chown) and run chmod 600 on it",
            )
        if info.st_mode & 0o077:
            raise PrivateFileRefused(
                path,
                f"is open to other users (mode {stat.S_IMODE(info.st_mode):04o})",
                f"if only you ever had it, make it private: chmod 600 {path}; else remove it",
            )
    if info.st_size > limit:
        raise PrivateFileRefused(
            path, f"is too big ({info.st_size} bytes, at most {limit})", "remove it"
        )


def read_private(path: Path, limit: int) -> bytes:
    """The content of a file the program keeps private, at most ``limit`` bytes.

    Read only when it is still as :func:`write_owner_only` makes it: the name itself (not a
    link: ``lstat``, then opened with ``O_NOFOLLOW`` where there is one), a regular file
    (opened with ``O_NONBLOCK``, so a FIFO does not block, then ``fstat`` on the open file),
    on POSIX the current user's with no group or other permission bits; otherwise
    :class:`PrivateFileRefused`. ``FileNotFoundError`` when there is no file; another
    ``OSError`` when it cannot be read. (Not ``atomic.open_own``, the journal's opener: it
    refuses a file with a second name, which :func:`write_owner_only`'s file has for a moment
    while it is linked into place, and says nothing of owners and modes.)"""
    if stat.S_ISLNK(os.lstat(path).st_mode):
        raise _link(path)
    flags = (
        os.O_RDONLY
        | getattr(os, "O_BINARY", 0)
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
    )
    try:
        fd = os.open(path, flags)
    except OSError as exc:  # a link put there since the lstat: ELOOP (EMLINK on BSD)
        if exc.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
            raise _link(path) from None
        raise
    try:
        _check(path, os.fstat(fd), limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:  # it grew since the fstat
        raise PrivateFileRefused(path, f"is too big (more than {limit} bytes)", "remove it")
    return b"".join(chunks)
