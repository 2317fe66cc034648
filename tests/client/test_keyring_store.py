"""The refresh token in the OS keyring, or in memory (and the caller told) without one."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from portal_admin.client import KeyringTokenStore, KeyringUnavailable

from .conftest import ClientFactory, sign_in
from .fake_server import ADMIN, FakePortal


class DictKeyring(KeyringBackend):
    """An in-memory keyring backend, through keyring's real API."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.secrets: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        from keyring.errors import PasswordDeleteError

        if (service, username) not in self.secrets:
            raise PasswordDeleteError(username)
        del self.secrets[(service, username)]


@pytest.fixture
def backend() -> Iterator[DictKeyring]:
    previous = keyring.get_keyring()
    ring = DictKeyring()
    keyring.set_keyring(ring)
    yield ring
    keyring.set_keyring(previous)


@pytest.fixture
def no_backend() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    yield
    keyring.set_keyring(previous)


async def test_token_kept_in_the_keyring(
    backend: DictKeyring, make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client(token_store=KeyringTokenStore(), profile="work")
    notices: list[object] = []
    client.events.subscribe(notices.append, KeyringUnavailable)
    await sign_in(client)
    assert list(backend.secrets) == [("portal-admin", f"work|{ADMIN}")]
    assert backend.secrets[("portal-admin", f"work|{ADMIN}")] in fake.refresh_tokens
    assert notices == [] and client.auth.tokens_persistent
    restarted = make_client(token_store=KeyringTokenStore(), profile="work")
    assert await restarted.auth.resume(ADMIN) is not None
    await restarted.auth.logout()
    assert backend.secrets == {}


async def test_memory_only_without_a_backend(
    no_backend: None, make_client: ClientFactory, tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(str(tmp_path))
    store = KeyringTokenStore()
    assert not store.persistent and store.unavailable_reason
    client = make_client(token_store=store)
    notices: list[object] = []
    client.events.subscribe(notices.append, KeyringUnavailable)
    await sign_in(client)
    await client.auth.refresh()
    assert len(notices) == 1  # told once
    assert not client.auth.tokens_persistent
    profile = str(client.base_url).rstrip("/")
    assert await store.load(profile, ADMIN) in client._tokens.__dict__.values()
    from pathlib import Path

    assert list(Path(str(tmp_path)).iterdir()) == []  # nothing written to disk
