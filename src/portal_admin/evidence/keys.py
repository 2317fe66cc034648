"""The installation's evidence-signing key (Ed25519): in the OS keyring where one works,
otherwise in a key file readable by its owner only.

Made on first use. Where it is kept (:func:`installation_store`):

1. the OS keyring, when it already holds the key (an existing keyring key keeps being used);
2. the key file ``signing-key.pem`` in the program's data folder, when it exists;
3. otherwise a new key goes to the keyring when one works, and else to the key file.

The key file is kept as ssh and minisign keep theirs: a PKCS #8 PEM file of mode 0600 (on
Windows the data folder is the user's own), written whole or not at all (a temporary file,
fsynced, then linked into place: a process killed meanwhile leaves no key or a whole one). It
is encrypted with a passphrase when ``PORTAL_ADMIN_KEY_PASSPHRASE`` is set when it is made,
and then needs that variable to be read. Only the key's public half ever leaves its store:
never a log, a journal or a pack. Its fingerprint (SHA-256 of the raw public key, in groups of
four hex digits) is shown in the About window and by the connection doctor so that it can be
recorded independently. ``KeyUnavailable`` when the key can be neither read nor made.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from portal_admin.files.owner_only import write_owner_only
from portal_admin.files.paths import data_dir

log = logging.getLogger("portal_admin.evidence.keys")

SERVICE = "portal-admin"
USERNAME = "evidence-signing-key"
#: The key file's name in the program's data folder.
KEY_FILE_NAME = "signing-key.pem"
#: The environment variable holding the key file's passphrase (when it has one).
PASSPHRASE_ENV = "PORTAL_ADMIN_KEY_PASSPHRASE"
#: A key file is a few hundred bytes: a bigger one is not ours.
MAX_KEY_FILE = 16_384


class KeyUnavailable(RuntimeError):
    """The signing key can be neither read nor made (a locked key file, an unwritable folder)."""


class SecretStore(Protocol):
    """Where the private key is kept (the keyring, the key file; tests hand in memory)."""

    def get(self) -> str | None:
        """The stored key text (base64 of the raw private key), or None."""
        ...

    def set(self, value: str) -> None:
        """Store the key text."""
        ...


@dataclass(frozen=True, slots=True)
class KeyPlace:
    """Where the key is kept: ``kind`` is "keyring", "file" or "memory"; ``path`` for a file."""

    kind: str
    path: Path | None = None
    passphrase: bool = False

    def describe(self) -> str:
        """In English, for the command line and logs: "the OS keyring" or the file's path."""
        if self.kind == "file" and self.path is not None:
            protected = ", passphrase-protected" if self.passphrase else ""
            return f"the key file {self.path} (readable by its owner only{protected})"
        return "the OS keyring" if self.kind == "keyring" else "this process's memory"


class KeyringStore:
    """The OS keyring (``keyring``); ``KeyUnavailable`` when it cannot be used."""

    place = KeyPlace("keyring")

    def get(self) -> str | None:
        import keyring

        try:
            return keyring.get_password(SERVICE, USERNAME)
        except Exception as exc:  # KeyringError, or a D-Bus error of a broken Secret Service
            raise KeyUnavailable(f"no usable keyring: {type(exc).__name__}") from None

    def set(self, value: str) -> None:
        import keyring

        try:
            keyring.set_password(SERVICE, USERNAME, value)
        except Exception as exc:
            raise KeyUnavailable(f"no usable keyring: {type(exc).__name__}") from None


class MemoryStore:
    """A key kept in this process only (tests)."""

    place = KeyPlace("memory")

    def __init__(self) -> None:
        self.value: str | None = None

    def get(self) -> str | None:
        return self.value

    def set(self, value: str) -> None:
        self.value = value


def key_file_path() -> Path:
    """Where the key file lives: the program's data folder."""
    return data_dir() / KEY_FILE_NAME


def _passphrase() -> bytes | None:
    value = os.environ.get(PASSPHRASE_ENV)
    return value.encode("utf-8") if value else None


class FileStore:
    """A PEM key file readable by its owner only, passphrase-protected when
    ``PORTAL_ADMIN_KEY_PASSPHRASE`` is set when it is made."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or key_file_path()

    @property
    def place(self) -> KeyPlace:
        """The file, and whether it is encrypted (read from its first line)."""
        return KeyPlace("file", self.path, self._encrypted())

    def _encrypted(self) -> bool:
        try:
            with self.path.open("rb") as fh:
                return b"ENCRYPTED" in fh.readline()
        except OSError:
            return _passphrase() is not None

    def exists(self) -> bool:
        """True when the key file is there."""
        return self.path.is_file()

    def get(self) -> str | None:
        try:
            with self.path.open("rb") as fh:
                pem = fh.read(MAX_KEY_FILE + 1)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise KeyUnavailable(
                f"the key file {self.path} cannot be read: {exc.strerror}"
            ) from None
        if len(pem) > MAX_KEY_FILE:
            raise KeyUnavailable(f"the key file {self.path} is not a signing key (too big)")
        encrypted = b"ENCRYPTED" in pem
        passphrase = _passphrase() if encrypted else None
        if encrypted and passphrase is None:
            raise KeyUnavailable(
                f"the key file {self.path} is protected by a passphrase: set {PASSPHRASE_ENV}"
            )
        try:
            key = serialization.load_pem_private_key(pem, password=passphrase)
        except (ValueError, TypeError):
            if encrypted:
                raise KeyUnavailable(
                    f"the passphrase in {PASSPHRASE_ENV} does not open the key file {self.path}"
                ) from None
            raise KeyUnavailable(f"the key file {self.path} is not a signing key") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KeyUnavailable(f"the key file {self.path} is not an Ed25519 signing key")
        return base64.b64encode(_raw(key)).decode("ascii")

    def set(self, value: str) -> None:
        """Write the key file whole, owner-only; an existing file is kept (never overwritten:
        another process made the key first)."""
        key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(value))
        passphrase = _passphrase()
        encryption: serialization.KeySerializationEncryption = (
            serialization.BestAvailableEncryption(passphrase)
            if passphrase
            else serialization.NoEncryption()
        )
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption
        )
        try:
            write_owner_only(self.path, pem, replace=False)
        except OSError as exc:
            raise KeyUnavailable(
                f"the key file {self.path} cannot be written: {exc.strerror or exc}"
            ) from None


class InstallationStore:
    """The installation's store: the keyring holding the key, else the key file when there is
    one, else the keyring when it works, else the key file (see the module's docstring)."""

    def __init__(self, keyring: SecretStore | None = None, file: FileStore | None = None) -> None:
        self.keyring: SecretStore = keyring if keyring is not None else KeyringStore()
        self.file = file if file is not None else FileStore()
        #: Where the key is, once known.
        self.chosen: SecretStore | None = None
        #: Why the keyring is not used (when it is not), for the doctor.
        self.keyring_problem: str | None = None

    @property
    def place(self) -> KeyPlace:
        """Where the key is (or would be made)."""
        if self.chosen is None:
            with contextlib.suppress(KeyUnavailable):
                self.get()
        if self.chosen is None:
            return self.file.place if self.keyring_problem else KeyPlace("keyring")
        return _place_of(self.chosen)

    def get(self) -> str | None:
        try:
            text = self.keyring.get()
        except KeyUnavailable as exc:
            self.keyring_problem = str(exc)
            text = None
        if text:
            self.chosen = self.keyring
            return text
        if self.file.exists():
            self.chosen = self.file
            return self.file.get()
        return None

    def set(self, value: str) -> None:
        if self.keyring_problem is None:
            try:
                self.keyring.set(value)
                if self.keyring.get() == value:
                    self.chosen = self.keyring
                    return
                self.keyring_problem = "the keyring did not keep the key"
            except KeyUnavailable as exc:
                self.keyring_problem = str(exc)
        self.file.set(value)
        self.chosen = self.file


def installation_store() -> InstallationStore:
    """The store of this installation's key (keyring or key file)."""
    return InstallationStore()


def _place_of(store: SecretStore) -> KeyPlace:
    place = getattr(store, "place", None)
    return place if isinstance(place, KeyPlace) else KeyPlace("memory")


def place_of(store: SecretStore | None = None) -> KeyPlace:
    """Where ``store`` (default: the installation's) keeps the key."""
    return _place_of(store if store is not None else installation_store())


def _raw(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )


def _load(text: str) -> Ed25519PrivateKey:
    try:
        return Ed25519PrivateKey.from_private_bytes(base64.b64decode(text, validate=True))
    except (ValueError, binascii.Error):
        raise KeyUnavailable("the stored signing key is damaged") from None


def signing_key(store: SecretStore | None = None) -> Ed25519PrivateKey:
    """The installation's key, made and stored on first use (``store``: default the
    installation's, keyring or key file). ``KeyUnavailable`` when it can be neither read nor
    made."""
    store = store if store is not None else installation_store()
    text = store.get()
    if text:
        return _load(text)
    key = Ed25519PrivateKey.generate()
    store.set(base64.b64encode(_raw(key)).decode("ascii"))
    kept = store.get()  # another process may have made one first: its key is the one kept
    if not kept:  # a store that accepts and forgets
        raise KeyUnavailable("the signing key was not kept")
    place = _place_of(store)
    if place.kind == "file":  # said once (the command line prints it on standard error)
        log.warning(
            "no usable keyring: this installation's signing key was made in %s; whoever can"
            " read that file can sign as this installation",
            place.describe(),
        )
    return _load(kept)


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
