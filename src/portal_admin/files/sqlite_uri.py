"""A SQLite URI for a path (no Qt): a path pasted into ``file:...?mode=ro`` is cut at a ``#``
or a ``?`` and decoded at a ``%`` in a folder's name (``Q4 #2`` opens ``Q4 ``), so a file in
such a folder could not be opened, or another file was. The path is made absolute (Windows'
drive letters work too) and percent-encoded by ``pathlib``."""

from __future__ import annotations

from pathlib import Path


def sqlite_uri(path: Path | str, mode: str = "ro") -> str:
    """``file:`` URI of ``path`` with ``?mode=MODE`` (for ``sqlite3.connect(..., uri=True)`` and
    ``ATTACH``)."""
    return f"{Path(path).resolve().as_uri()}?mode={mode}"
