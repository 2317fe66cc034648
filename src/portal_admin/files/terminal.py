"""Text from outside as it may be written to a terminal: the one function every command-line
output of a name, a value or a message from a file, a server or a person goes through.

A terminal obeys what it is sent: an escape sequence in a campaign's reviewer name could clear
the line and paint a fake "intact", a carriage return overwrite it, a bidirectional override
reverse it. :func:`printable` turns every character that is not printable (control, format,
surrogate, private-use, unassigned, line and paragraph separators, and every whitespace but the
plain space) into a visible escape (``\\x1b``, ``\\u202e``), so such text can only ever be read.
"""

from __future__ import annotations

import json


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def printable(text: object, limit: int | None = None) -> str:
    """``text`` (``str()`` of it) with what a terminal would obey made visible, cut at
    ``limit`` characters (an ellipsis says so)."""
    value = str(text)
    if limit is not None and len(value) > limit:
        value = value[:limit] + "..."
    if value.isprintable():
        return value
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in value)


def json_line(record: object) -> str:
    """``record`` as one line of JSON (no line end) that a terminal can only read: JSON
    escapes ``\\u009b``, ``\\u202e``... for every character :func:`printable` would make visible
    (JSON itself escapes only the ASCII controls), so the value read back is the same."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _json_escape(ch) for ch in text)


def _json_escape(ch: str) -> str:
    units = ch.encode("utf-16-be", "surrogatepass")
    return "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
