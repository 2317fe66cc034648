"""Text from outside as it may be written to a terminal: the functions every command-line
output of a name, a value or a message from a file, a server or a person goes through (no Qt).

A terminal obeys what it is sent: an escape sequence in a campaign's reviewer name could clear
the line and paint a fake "intact", a carriage return overwrite it, a bidirectional override
reverse it. :func:`printable` turns every character that is not printable (control, format,
surrogate, private-use, unassigned, line and paragraph separators, and every whitespace but the
plain space) into a visible escape (``\\x1b``, ``\\u202e``), so such text can only ever be read;
:func:`shown` does the same with Python's escapes and a default length limit (the review
commands' reports).
"""

from __future__ import annotations

#: The longest text :func:`shown` shows by default (the rest is cut, with "...").
LIMIT = 200


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


def shown(text: object, limit: int | None = LIMIT) -> str:
    """``text`` as it may be printed: every character that is not printable (control and
    escape characters, format characters such as bidirectional overrides, line and paragraph
    separators, surrogates) replaced by its Python escape (``\\x1b``, ``\\u202e``), cut at
    ``limit`` characters (None: never cut)."""
    value = text if isinstance(text, str) else str(text)
    if limit is not None and len(value) > limit:
        value = value[:limit] + "..."
    if value.isprintable():
        return value
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in value)
