"""The installation key's file is used only while it is as the program wrote it: the file
itself (not a link), a regular file, the current user's, readable by its owner only (as ssh
refuses an unprotected private key). Otherwise ``KeyUnavailable`` names the file, what is wrong
and how to fix it; nothing blocks and no other key is made in its place. (Red-team findings 18
and 19; the check is ``files.owner_only.read_private``, shared with the command line's session
file.)"""

from __future__ import annotations

import base64
import contextlib
import os
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.evidence import keys
from portal_admin.files import owner_only

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX modes, owners and FIFOs")


@pytest.fixture(autouse=True)
def _folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(keys.PASSPHRASE_ENV, raising=False)


class Broken(keys.MemoryStore):
    """A keyring that is there but cannot be used: the key file is the key's place."""

    def get(self) -> str | None:
        raise keys.KeyUnavailable("no usable keyring: test")

    def set(self, value: str) -> None:
        raise keys.KeyUnavailable("no usable keyring: test")


def _pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _raw_b64(key: Ed25519PrivateKey) -> str:
    raw = key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    return base64.b64encode(raw).decode("ascii")


@posix_only
def test_a_world_readable_key_file_is_used_as_is(tmp_path: Path) -> None:
    """Attack/mistake: the key file is (or becomes: a restore from backup, a copy with ``cp``)
    mode 0644. ``FileStore.get`` read and used it, said nothing, and left it readable by
    every local user, any of whom could then sign packs, checkpoints and sign-offs as this
    installation. ssh refuses such a key ("UNPROTECTED PRIVATE KEY FILE"); so does the key
    file now, by name, saying how to fix it."""
    path = tmp_path / "signing-key.pem"
    key = Ed25519PrivateKey.generate()
    path.write_bytes(_pem(key))
    os.chmod(path, 0o644)
    with pytest.raises(keys.KeyUnavailable) as refused:
        keys.FileStore(path).get()
    said = str(refused.value)
    assert str(path) in said and "mode 0644" in said and f"chmod 600 {path}" in said
    assert path.stat().st_mode & 0o777 == 0o644  # not repaired behind the person's back
    os.chmod(path, 0o600)  # the fix it names
    assert keys.FileStore(path).get() == _raw_b64(key)


@posix_only
@pytest.mark.parametrize("mode", [0o640, 0o620, 0o604, 0o602, 0o660], ids=oct)
def test_a_key_file_open_to_its_group_or_others_is_refused(tmp_path: Path, mode: int) -> None:
    """Any group or other bit, read or write (a writer could plant a key of their own)."""
    keys.signing_key(keys.InstallationStore(Broken()))
    path = keys.key_file_path()
    os.chmod(path, mode)
    with pytest.raises(keys.KeyUnavailable, match=f"mode {mode:04o}"):
        keys.signing_key(keys.InstallationStore(Broken()))
    assert not list(path.parent.glob(".*.tmp")) and path.stat().st_mode & 0o777 == mode


@posix_only
def test_a_key_file_that_is_a_link_to_a_file_of_another_user_is_trusted(tmp_path: Path) -> None:
    """Attack: whoever could write the data folder once (or a folder made group-writable)
    replaces ``signing-key.pem`` with a symbolic link to a key file THEY own and know. The
    keyring not holding a key (no keyring, or it fails for a moment), the installation signed
    with the attacker's key, and ``trust.own_fingerprint`` called the attacker's key "own":
    their forged checkpoints and sign-offs verified as this installation's. Now a link is
    refused (``lstat``, then ``O_NOFOLLOW``), and so is a file of another user."""
    theirs = tmp_path / "elsewhere" / "their-key.pem"
    theirs.parent.mkdir()
    attacker_key = Ed25519PrivateKey.generate()
    theirs.write_bytes(_pem(attacker_key))
    os.chmod(theirs, 0o600)
    if os.geteuid() == 0:
        os.chown(theirs, 65534, 65534)  # another user's file (running as root: chown works)
    path = keys.key_file_path()
    path.parent.mkdir(parents=True)
    path.symlink_to(theirs)
    with pytest.raises(keys.KeyUnavailable, match="is a link") as refused:
        keys.signing_key(keys.InstallationStore(Broken()))
    assert str(path) in str(refused.value)
    assert path.is_symlink()  # no key of ours was made through or over the link
    # a working keyring that holds no key yet does not hide the link either: it is said
    with pytest.raises(keys.KeyUnavailable, match="is a link"):
        keys.signing_key(keys.InstallationStore(keys.MemoryStore()))


@posix_only
def test_a_dangling_link_in_place_of_the_key_file_is_refused() -> None:
    """A link to where a key file may appear later (the attacker writes it then)."""
    path = keys.key_file_path()
    path.parent.mkdir(parents=True)
    path.symlink_to(path.parent / "not-yet")
    with pytest.raises(keys.KeyUnavailable, match="is a link"):
        keys.signing_key(keys.InstallationStore(Broken()))
    assert not (path.parent / "not-yet").exists()


@posix_only
def test_a_key_file_of_another_user_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Owner-only but someone else's (here: the program runs as another user id)."""
    keys.signing_key(keys.InstallationStore(Broken()))
    monkeypatch.setattr(owner_only, "_current_uid", lambda: os.geteuid() + 1)
    with pytest.raises(keys.KeyUnavailable, match="belongs to another user"):
        keys.signing_key(keys.InstallationStore(Broken()))


@posix_only
def test_a_fifo_in_place_of_the_key_file_does_not_block() -> None:
    """A FIFO blocks whoever opens it for reading until a writer comes: refused at once."""
    path = keys.key_file_path()
    path.parent.mkdir(parents=True)
    os.mkfifo(path, 0o600)
    outcome: list[object] = []

    def read() -> None:
        try:
            keys.signing_key(keys.InstallationStore(Broken()))
        except keys.KeyUnavailable as exc:
            outcome.append(exc)
        outcome.append(keys.FileStore(path).place)  # its place is read without blocking too

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(3.0)
    blocked = worker.is_alive()
    while worker.is_alive():  # release the reader (each blocked open needs a writer)
        with contextlib.suppress(OSError):  # no reader at this moment
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(0.1)
    assert not blocked, "a FIFO in place of the key file blocked the reader"
    assert "is a FIFO" in str(outcome[0]) and outcome[1] == keys.KeyPlace("file", path, False)


def test_read_private_reads_what_write_owner_only_wrote(tmp_path: Path) -> None:
    """The two halves agree (on Windows too: there only the link, kind and size are checked);
    the limit is the most read."""
    path = tmp_path / "private"
    owner_only.write_owner_only(path, b"x" * 100, replace=True)
    assert owner_only.read_private(path, 100) == b"x" * 100
    with pytest.raises(owner_only.PrivateFileRefused, match="too big"):
        owner_only.read_private(path, 99)
    with pytest.raises(FileNotFoundError):
        owner_only.read_private(tmp_path / "none", 100)
