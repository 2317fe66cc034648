"""Atomic file writes: a temporary file beside the target, flushed, then renamed over it."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .portable import fsync_dir as fsync_dir  # re-exported: callers import it from here
from .portable import make_private, replace


@contextlib.contextmanager
def atomic_open(
    path: Path, *, encoding: str = "utf-8", newline: str | None = None, private: bool = False
) -> Iterator[IO[str]]:
    """Open a temporary text file that replaces ``path`` only when the block ends cleanly.

    On any exception (including cancellation) the temporary file is removed and ``path`` is
    left as it was. ``private``: the file is its owner's only before a byte is written (0600 on
    POSIX, which ``mkstemp`` gives anyway; an owner-only DACL on Windows), and stays so once
    renamed.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        if private:
            make_private(tmp)
        with os.fdopen(fd, "w", encoding=encoding, newline=newline) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        replace(tmp, path)
        fsync_dir(path.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_open(path, encoding=encoding) as fh:
        fh.write(text)


class LinkRefused(OSError):
    """A file of ours that is a link (symbolic, or a second name of another file): refused,
    so that nothing is written through it to the file it points at."""


def open_own(path: Path, flags: int, mode: int = 0o600) -> int:
    """``os.open`` a file the program keeps (a journal, its checkpoints, its side files)
    without following a link planted at its name: ``O_NOFOLLOW`` where the OS has it, a
    check that the name is no symbolic link before opening where it has not (Windows), and
    a refusal of anything but a regular file with one name. Binary on every OS.

    Raises :class:`LinkRefused` (an ``OSError``) for a link, ``OSError`` as ``os.open`` does.
    """
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if not nofollow and os.path.islink(path):
        raise LinkRefused(errno.ELOOP, "a link, not followed", str(path))
    try:
        fd = os.open(path, flags | nofollow | getattr(os, "O_BINARY", 0), mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP or (nofollow and os.path.islink(path)):
            raise LinkRefused(errno.ELOOP, "a link, not followed", str(path)) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            raise LinkRefused(errno.ELOOP, "not a file of its own (a link)", str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd
