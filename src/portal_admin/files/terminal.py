"""Text from a file, a server or a person, as it may be written to a terminal (no Qt).

One function for every command line and report that prints such text: a crafted name cannot
move the cursor, clear the screen, recolour a line or reorder what follows (bidirectional
overrides), so it cannot paint a verdict the program did not write.
"""

from __future__ import annotations

#: The longest text shown by default (the rest is cut, with "...").
LIMIT = 200


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
