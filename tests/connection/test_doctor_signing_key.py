"""The doctor's last step: where the installation's signing key is kept, and its fingerprint,
without making a key or showing a secret; a key that cannot be read is a warning."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from portal_admin.connection.doctor import Status, diagnose, signing_key
from portal_admin.evidence import keys


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A data folder of the test's own, and no usable keyring (the fail backend)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(keys.PASSPHRASE_ENV, raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    yield
    keyring.set_keyring(previous)


def test_no_keyring_no_key_yet_names_the_file_and_makes_nothing() -> None:
    step = signing_key.check()
    assert step.status is Status.OK and step.code == "key.none.file"
    assert step.details["path"] == str(keys.key_file_path())
    assert not keys.key_file_path().exists()


def test_a_key_in_the_file_is_shown_by_place_and_fingerprint() -> None:
    made = keys.fingerprint(keys.signing_key().public_key())
    step = signing_key.check()
    assert step.code == "key.file" and step.status is Status.OK
    assert step.details["fingerprint"] == made and made in step.summary
    assert str(keys.key_file_path()) in step.summary
    pem = keys.key_file_path().read_text(encoding="ascii")
    body = "".join(pem.splitlines()[1:-1])
    assert body not in step.summary + step.advice + str(step.details)


def test_a_locked_key_file_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(keys.PASSPHRASE_ENV, "s3cret passphrase")
    keys.signing_key()
    monkeypatch.delenv(keys.PASSPHRASE_ENV)
    step = signing_key.check()
    assert step.status is Status.WARNING and step.code == "key.unavailable"
    assert keys.PASSPHRASE_ENV in step.summary + step.advice
    assert "s3cret" not in step.summary + step.advice + str(step.details)


def test_a_key_in_the_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    ring = keys.MemoryStore()
    monkeypatch.setattr(keys, "KeyringStore", lambda: _Ring(ring))
    made = keys.fingerprint(keys.signing_key().public_key())
    step = signing_key.check()
    assert step.code == "key.keyring" and step.details["fingerprint"] == made
    assert "path" not in step.details and not keys.key_file_path().exists()


class _Ring:
    place = keys.KeyPlace("keyring")

    def __init__(self, memory: keys.MemoryStore) -> None:
        self.memory = memory

    def get(self) -> str | None:
        return self.memory.get()

    def set(self, value: str) -> None:
        self.memory.set(value)


async def test_the_step_ends_every_report_even_an_unreachable_server() -> None:
    report = await diagnose("http://127.0.0.1:9", timeout=2.0)
    assert report.steps[-1].name == "signing_key"
    assert report.steps[-1].code == "key.none.file"
