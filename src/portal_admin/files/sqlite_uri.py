"""A SQLite URI for a path (no Qt): a path pasted into ``file:...?mode=ro`` is cut at a ``#``
or a ``?`` and decoded at a ``%`` in a folder's name (``Q4 #2`` opens ``Q4 ``), so a file in
such a folder could not be opened, or another file was. One implementation, in
``files/portable.py`` with the other file rules (drive letters and UNC paths too)."""

from __future__ import annotations

from .portable import sqlite_uri as sqlite_uri  # re-exported for its callers

__all__ = ["sqlite_uri"]
