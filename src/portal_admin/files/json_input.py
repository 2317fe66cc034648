"""JSON from files we do not fully trust: bounded in size and depth, one named error.

Every reader of a file someone else can write (the journal, its checkpoints, the trust file,
a forwarding cursor, a kept session, a campaign file's meta) parses through :func:`loads`.
``json.loads`` alone raises ``RecursionError`` (not ``ValueError``) on a document nested a few
thousand deep, which escaped every ``except ValueError`` as a traceback; and a document just
under the interpreter's limit could still break code that walks it recursively. Here the depth
is counted before parsing, and anything unreadable is a :class:`JsonInputError`, a
``ValueError``, so a reader's existing ``except ValueError`` names the problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted; our own files nest fewer than ten levels."""

MAX_BYTES = 16 * 1024 * 1024
"""Largest document accepted unless the caller says otherwise."""

# A string (with its escapes) or one bracket; strings are skipped so "[[[" inside one is text.
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_TOKEN_STR = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JsonInputError(ValueError):
    """A document that is not JSON we accept: too large, too deep, or not JSON at all."""


def depth(data: bytes | str) -> int:
    """The deepest nesting of arrays and objects in ``data`` (strings are not counted)."""
    opens = (b"[", b"{", "[", "{")
    deepest = level = 0
    pattern: Any = _TOKEN if isinstance(data, bytes) else _TOKEN_STR
    for match in pattern.finditer(data):
        token = match.group()
        if token in opens:
            level += 1
            deepest = max(deepest, level)
        elif len(token) == 1:
            level -= 1
    return deepest


def loads(
    data: bytes | str,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
) -> Any:
    """Parse ``data`` as JSON, refusing with :class:`JsonInputError` what we do not accept."""
    if len(data) > max_bytes:
        raise JsonInputError(f"larger than {max_bytes} bytes")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonInputError(f"not UTF-8 ({exc.reason})") from None
    else:
        text = data
    # Cheap first look: fewer brackets than the limit cannot nest deeper than it.
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise JsonInputError(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text, object_pairs_hook=object_pairs_hook)
    except RecursionError:  # defence in depth: the count above should already refuse it
        raise JsonInputError("nested too deep") from None
    except ValueError as exc:
        if isinstance(exc, JsonInputError):
            raise
        raise JsonInputError(f"not JSON ({exc})") from None


def read(path: Path, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Read and parse the file at ``path`` with :func:`loads` (reading at most ``max_bytes + 1``).

    ``OSError`` is left to the caller (a missing file usually means something else).
    """
    with path.open("rb") as fh:
        data = fh.read(max_bytes + 1)
    return loads(data, max_bytes=max_bytes, max_depth=max_depth)
