"""Password hashing with Scrypt (memory hard), stored as ``scrypt$n$r$p$salt$hash``."""

from __future__ import annotations

import base64
import hmac
import os

from cryptography.exceptions import InvalidKey
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

N, R, P = 2**14, 8, 1
LENGTH = 32
MIN_LENGTH = 8
MAX_LENGTH = 128


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """A Scrypt hash of ``password`` with a random salt."""
    salt = os.urandom(16) if salt is None else salt
    digest = Scrypt(salt=salt, length=LENGTH, n=N, r=R, p=P).derive(password.encode("utf-8"))
    return f"scrypt${N}${R}${P}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str | None) -> bool:
    """True when ``password`` matches the stored hash (False for no hash or a bad format)."""
    if not stored:
        # Spend comparable time so that a missing account is not told apart by timing.
        hash_password(password, salt=b"\0" * 16)
        return False
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        kdf = Scrypt(salt=base64.b64decode(salt), length=LENGTH, n=int(n), r=int(r), p=int(p))
        kdf.verify(password.encode("utf-8"), base64.b64decode(digest))
    except (ValueError, InvalidKey):
        return False
    return True


def acceptable(password: str) -> bool:
    """The sandbox's password rule: 8 to 128 characters, not only whitespace."""
    return MIN_LENGTH <= len(password) <= MAX_LENGTH and bool(password.strip())


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two secrets."""
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))
