"""Atomic file writes: a temporary file beside the target, flushed, then renamed over it."""

from __future__ import annotations

import contextlib
import os
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
