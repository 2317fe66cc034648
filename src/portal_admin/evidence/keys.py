"""The installation's evidence-signing key (Ed25519), kept in the OS keyring.

Made on first use and never written to a file, a log or a pack: only its public half leaves
the keyring. Its fingerprint (SHA-256 of the raw public key, in groups of four hex digits) is
shown in the About window so that it can be recorded independently. Without a usable
keyring no pack can be signed (``KeyUnavailable``): an ephemeral key would prove nothing.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Protocol

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

SERVICE = "portal-admin"
USERNAME = "evidence-signing-key"


class KeyUnavailable(RuntimeError):
    """No keyring to keep the signing key in."""


class SecretStore(Protocol):
    """Where the private key is kept (the OS keyring; tests hand in a dict-backed store)."""

    def get(self) -> str | None:
        """The stored key text, or None."""
        ...

    def set(self, value: str) -> None:
        """Store the key text."""
        ...


class KeyringStore:
    """The OS keyring (``keyring``)."""

    def get(self) -> str | None:
        import keyring
        from keyring.errors import KeyringError

        try:
            return keyring.get_password(SERVICE, USERNAME)
        except KeyringError as exc:
            raise KeyUnavailable(f"no usable keyring: {exc}") from None

    def set(self, value: str) -> None:
        import keyring
        from keyring.errors import KeyringError

        try:
            keyring.set_password(SERVICE, USERNAME, value)
        except KeyringError as exc:
            raise KeyUnavailable(f"no usable keyring: {exc}") from None


class MemoryStore:
    """A key kept in this process only (tests)."""

    def __init__(self) -> None:
        self.value: str | None = None

    def get(self) -> str | None:
        return self.value

    def set(self, value: str) -> None:
        self.value = value


def signing_key(store: SecretStore | None = None) -> Ed25519PrivateKey:
    """The installation's key, made and stored on first use."""
    store = store or KeyringStore()
    text = store.get()
    if text:
        return Ed25519PrivateKey.from_private_bytes(base64.b64decode(text))
    key = Ed25519PrivateKey.generate()
    raw = key.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    store.set(base64.b64encode(raw).decode("ascii"))
    if store.get() is None:  # a keyring that accepts and forgets (the fail backend)
        raise KeyUnavailable("the keyring did not keep the signing key")
    return key


def public_raw(key: Ed25519PublicKey) -> bytes:
    """The raw 32 bytes of a public key."""
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def public_pem(key: Ed25519PublicKey) -> bytes:
    """A public key as PEM (SubjectPublicKeyInfo)."""
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def fingerprint(key: Ed25519PublicKey) -> str:
    """SHA-256 of the raw public key, as hex in groups of four."""
    digest = hashlib.sha256(public_raw(key)).hexdigest()
    return " ".join(digest[i : i + 4] for i in range(0, len(digest), 4))
