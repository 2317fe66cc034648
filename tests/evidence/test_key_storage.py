"""Where the installation key is kept: the OS keyring where one works, otherwise a key file
readable by its owner only (optionally passphrase-protected), made whole or not at all."""

from __future__ import annotations

import logging
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from portal_admin.evidence import keys

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(tmp_path / "portal-admin"))
    monkeypatch.delenv(keys.PASSPHRASE_ENV, raising=False)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    """The fail backend, as on a kiosk image, a server or a CI runner."""
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    yield
    keyring.set_keyring(before)


class KeyringLike(keys.MemoryStore):
    """A working keyring, as far as the key's storage can tell."""

    place = keys.KeyPlace("keyring")


class Broken(keys.MemoryStore):
    """A keyring that is there but cannot be used."""

    place = keys.KeyPlace("keyring")

    def get(self) -> str | None:
        raise keys.KeyUnavailable("no usable keyring: test")

    def set(self, value: str) -> None:
        raise keys.KeyUnavailable("no usable keyring: test")


def test_without_a_keyring_the_key_lives_in_an_owner_only_file(
    no_keyring: None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="portal_admin.evidence.keys"):
        first = keys.signing_key()
        again = keys.signing_key()
    made = [r.getMessage() for r in caplog.records if "signing key was made in" in r.getMessage()]
    path = tmp_path / "portal-admin" / "data" / keys.KEY_FILE_NAME
    assert keys.key_file_path() == path and path.is_file()
    assert keys.fingerprint(first.public_key()) == keys.fingerprint(again.public_key())
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert len(made) == 1 and str(path) in made[0]  # told once, when it is made
    place = keys.place_of()
    assert place.kind == "file" and place.path == path and not place.passphrase
    assert str(path) in place.describe()
    assert not list(path.parent.glob(".*.tmp"))


def test_an_existing_keyring_key_keeps_being_used() -> None:
    ring = KeyringLike()
    first = keys.signing_key(keys.InstallationStore(ring))
    assert ring.value
    store = keys.InstallationStore(ring)
    again = keys.signing_key(store)
    assert keys.fingerprint(first.public_key()) == keys.fingerprint(again.public_key())
    assert store.place.kind == "keyring"
    assert not keys.key_file_path().exists()


def test_a_key_file_keeps_being_used_once_a_keyring_appears() -> None:
    in_file = keys.signing_key(keys.InstallationStore(Broken()))
    ring = KeyringLike()
    store = keys.InstallationStore(ring)
    later = keys.signing_key(store)
    assert keys.fingerprint(in_file.public_key()) == keys.fingerprint(later.public_key())
    assert ring.value is None and store.place.kind == "file"


def test_a_keyring_that_forgets_sends_the_key_to_the_file() -> None:
    class Forgetful(KeyringLike):
        def set(self, value: str) -> None:
            del value

    store = keys.InstallationStore(Forgetful())
    key = keys.signing_key(store)
    assert store.place.kind == "file" and store.keyring_problem
    assert keys.fingerprint(key.public_key()) == keys.fingerprint(
        keys.signing_key(keys.InstallationStore(Broken())).public_key()
    )


def test_a_passphrase_protects_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(keys.PASSPHRASE_ENV, "correct horse battery staple")
    key = keys.signing_key(keys.InstallationStore(Broken()))
    pem = keys.key_file_path().read_bytes()
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    assert keys.place_of(keys.FileStore()).passphrase
    again = keys.signing_key(keys.InstallationStore(Broken()))
    assert keys.fingerprint(key.public_key()) == keys.fingerprint(again.public_key())
    monkeypatch.setenv(keys.PASSPHRASE_ENV, "wrong")
    with pytest.raises(keys.KeyUnavailable, match="does not open"):
        keys.signing_key(keys.InstallationStore(Broken()))
    monkeypatch.delenv(keys.PASSPHRASE_ENV)
    with pytest.raises(keys.KeyUnavailable, match=keys.PASSPHRASE_ENV):
        keys.signing_key(keys.InstallationStore(Broken()))
    assert keys.key_file_path().read_bytes() == pem  # never replaced by a new key


def _plant(path: Path, content: bytes) -> None:
    """A key file of this content, owner-only as the program keeps one (its content is what is
    judged: ``test_key_file_private.py`` tries the file's mode, owner and kind)."""
    path.write_bytes(content)
    os.chmod(path, 0o600)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"", "not a signing key"),
        (b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "not a signing key"),
        (b"x" * (keys.MAX_KEY_FILE + 1), "too big"),
    ],
)
def test_a_damaged_key_file_is_refused_by_name_never_replaced(content: bytes, said: str) -> None:
    path = keys.key_file_path()
    path.parent.mkdir(parents=True)
    _plant(path, content)
    with pytest.raises(keys.KeyUnavailable, match=said):
        keys.signing_key(keys.InstallationStore(Broken()))
    assert path.read_bytes() == content


def test_a_key_file_of_another_kind_is_refused() -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = keys.key_file_path()
    path.parent.mkdir(parents=True)
    other = ec.generate_private_key(ec.SECP256R1())
    _plant(
        path,
        other.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
    )
    with pytest.raises(keys.KeyUnavailable, match="not an Ed25519"):
        keys.signing_key(keys.InstallationStore(Broken()))


def test_an_unwritable_folder_is_named() -> None:
    folder = keys.key_file_path().parent
    folder.parent.mkdir(parents=True)
    folder.write_text("a file where the folder should be", encoding="utf-8")
    with pytest.raises(keys.KeyUnavailable, match="cannot be written"):
        keys.signing_key(keys.InstallationStore(Broken()))


def test_two_makers_at_once_keep_one_key() -> None:
    path = keys.key_file_path()
    one = keys.FileStore(path)
    mine = keys.signing_key(keys.InstallationStore(Broken(), one))
    # another process's key arrives second: it must not replace the first
    other = keys.MemoryStore()
    keys.signing_key(other)
    assert other.value is not None
    keys.FileStore(path).set(other.value)
    kept = keys.signing_key(keys.InstallationStore(Broken(), keys.FileStore(path)))
    assert keys.fingerprint(kept.public_key()) == keys.fingerprint(mine.public_key())


MAKER = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
from portal_admin.evidence import keys

class Broken(keys.MemoryStore):
    def get(self):
        raise keys.KeyUnavailable("none")
    set = get

real_fsync = os.fsync
def slow_fsync(fd):
    print("SYNCING", flush=True)
    time.sleep(float(sys.argv[2]))
    return real_fsync(fd)
os.fsync = slow_fsync
keys.signing_key(keys.InstallationStore(Broken()))
print("MADE", flush=True)
time.sleep(30)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX")
@pytest.mark.parametrize("pause", [0.0, 0.05, 0.3, 2.0])
def test_a_process_killed_while_making_the_key_leaves_none_or_a_whole_one(
    tmp_path: Path, pause: float
) -> None:
    """Killed while the key is written (in its fsync), or right after: no key or a whole
    one, never a truncated file; the next run reads or makes it."""
    script = tmp_path / "maker.py"
    script.write_text(MAKER, encoding="utf-8")
    env = {**os.environ, "PORTAL_ADMIN_HOME": str(tmp_path / "portal-admin")}
    child = subprocess.Popen(
        [sys.executable, str(script), str(ROOT / "src"), "1.5"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "SYNCING"
    time.sleep(pause)
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    child.stdout.close()
    path = tmp_path / "portal-admin" / "data" / keys.KEY_FILE_NAME
    if path.exists():
        assert keys.FileStore(path).get()  # whole: it reads
    assert path.exists() == (pause > 1.5)  # killed before the link, or after it
    key = keys.signing_key(keys.InstallationStore(Broken(), keys.FileStore(path)))
    assert keys.FileStore(path).get() is not None
    again = keys.signing_key(keys.InstallationStore(Broken(), keys.FileStore(path)))
    assert keys.fingerprint(key.public_key()) == keys.fingerprint(again.public_key())
