"""Search keys for text filters: case- and accent-insensitive, index friendly."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

#: Above every character: ``key >= p AND key < p + TOP`` is a prefix match on an index.
TOP = "\U0010ffff"


@lru_cache(maxsize=65536)
def search_key(text: str) -> str:
    """Case-folded, accents removed, whitespace collapsed (``Nguyễn  Văn`` -> ``nguyen van``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(unicodedata.normalize("NFC", stripped).replace("đ", "d").split())


@lru_cache(maxsize=65536)
def words(text: str) -> tuple[str, ...]:
    """The distinct search keys of the words of a text."""
    return tuple(sorted(set(search_key(text).split())))


def email_key(email: str) -> str:
    """The lookup key of an email address."""
    return email.strip().lower()
