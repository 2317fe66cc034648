"""Identifiers and secrets."""

from __future__ import annotations

import hashlib
import random
import secrets


def biz_id(prefix: str, rng: random.Random | None = None) -> str:
    """A business id such as ``ACC7F3A...``: a prefix and 16 hex digits.

    With ``rng`` the id is reproducible (seed data); without it, it is random.
    """
    bits = rng.getrandbits(64) if rng is not None else secrets.randbits(64)
    return f"{prefix}{bits:016X}"


def token(prefix: str = "") -> str:
    """An unguessable opaque token."""
    return prefix + secrets.token_urlsafe(32)


def sha256_hex(text: str) -> str:
    """Hex SHA-256 of a text (how tokens and codes are stored)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
