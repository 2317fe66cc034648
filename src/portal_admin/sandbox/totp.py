"""RFC 6238 TOTP (SHA-1, 6 digits, 30-second steps) on the sandbox clock, by ``cryptography``."""

from __future__ import annotations

import base64
import hmac
import random
import secrets

from cryptography.hazmat.primitives.hashes import SHA1
from cryptography.hazmat.primitives.twofactor.totp import TOTP

STEP = 30
DIGITS = 6
DRIFT = 1  # steps accepted either side


def new_secret(rng: random.Random | None = None) -> str:
    """A base32 secret of 20 bytes (reproducible when ``rng`` is given)."""
    raw = rng.randbytes(20) if rng is not None else secrets.token_bytes(20)
    return base64.b32encode(raw).decode("ascii")


def step_of(now: float) -> int:
    """The time step at ``now``."""
    return int(now // STEP)


def _totp(secret: str) -> TOTP:
    key = base64.b32decode(secret + "=" * (-len(secret) % 8), casefold=True)
    # SHA-1 is what RFC 6238 and every authenticator app use for these codes.
    return TOTP(key, DIGITS, SHA1(), STEP, enforce_key_length=False)  # noqa: S303


def code_at(secret: str, step: int) -> str:
    """The code of one time step (cryptography's RFC 6238 TOTP)."""
    return _totp(secret).generate(step * STEP).decode("ascii")


def matching_step(secret: str, code: str, now: float) -> int | None:
    """The step (within the drift window) whose code is ``code``, or None."""
    if len(code) != DIGITS or not (code.isascii() and code.isdigit()):
        return None
    current = step_of(now)
    for step in range(current - DRIFT, current + DRIFT + 1):
        if hmac.compare_digest(code_at(secret, step), code):
            return step
    return None
