"""Fixtures of every panel test (each area folder, mirroring ``ui/panels/<area>/``, gets them):
the in-process sandbox and clients signed in to it on the qasync loop, the panel context, the
test's own data folder and journal, the evidence key store, trusted keys and keyring guard.

def test_something(loop, admin, panel_context):
    panel = build_panel(panel_context(admin))
    loop.run_until_complete(panel.reload())

Fixtures a file's every test needs are named in its ``pytestmark``
(``pytest.mark.usefixtures("own_data_folder")``), never made autouse here: what one file
needs must not change what the others see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync

from portal_admin.client import PortalClient
from portal_admin.evidence import keys
from portal_admin.evidence.recorder import attach
from portal_admin.evidence.trust import TrustStore
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.profiles.store import sandbox_profile

from .panel_support import ADMIN, AUDITOR, PROFILE, SignIn, sign_in_as


@pytest.fixture
def sandbox_app() -> Any:
    """A fresh in-memory sandbox with 120 generated accounts and a test clock."""
    return create_app(SandboxConfig(db=":memory:", seed_accounts=120, test_clock=True))


@pytest.fixture
def signed_in(loop: qasync.QEventLoop, sandbox_app: Any) -> Iterator[SignIn]:
    """Sign in to the sandbox: ``signed_in(AUDITOR, "ja", read_only=True)`` is a client of
    the auditor speaking Japanese, read-only as the kiosk's; each is closed after the test."""
    made: list[PortalClient] = []

    def sign_in(who: tuple[str, str], language: str = "en", *, read_only: bool = False) -> Any:
        client = loop.run_until_complete(
            sign_in_as(sandbox_app, *who, language, read_only=read_only)
        )
        made.append(client)
        return client

    yield sign_in
    for client in reversed(made):
        loop.run_until_complete(client.aclose())


@pytest.fixture
def admin(signed_in: SignIn) -> PortalClient:
    """The demo administrator (OWNER of the primary workspace), signed in."""
    return signed_in(ADMIN)


@pytest.fixture
def auditor(signed_in: SignIn) -> PortalClient:
    """The demo auditor (read permissions only), signed in."""
    return signed_in(AUDITOR)


@pytest.fixture
def runner() -> OperationRunner:
    """An operation runner whose failures are recorded instead of shown in a window."""
    shown: list[Any] = []
    r = OperationRunner(presenter=lambda info, title, parent: shown.append(info))
    r.shown = shown  # type: ignore[attr-defined]
    return r


@pytest.fixture
def panel_context(runner: OperationRunner) -> Callable[..., PanelContext]:
    """Build a PanelContext around a signed-in client."""

    def make(client: PortalClient, **extras: Any) -> PanelContext:
        return PanelContext(runner=runner, profile=sandbox_profile(), client=client, extras=extras)

    return make


@pytest.fixture
def own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The program's folders (the journal, jobs, checkpoints) in this test's ``tmp_path``:
    ``XDG_DATA_HOME`` for the libraries, ``PORTAL_ADMIN_HOME`` for the program on every system
    (on Windows it is the only one the program reads)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(tmp_path / "portal-admin"))


@pytest.fixture
def journaled(own_data_folder: None, admin: PortalClient) -> Iterator[PortalClient]:
    """The admin, whose changes go to this test's journal (as the program's client)."""
    stop = attach(admin, profile=PROFILE, server=str(admin.base_url))
    yield admin
    stop()


@pytest.fixture
def key_store() -> keys.MemoryStore:
    """This installation's evidence key (made on first use, in memory)."""
    return keys.MemoryStore()


@pytest.fixture
def trusted(tmp_path: Path) -> TrustStore:
    """This installation's trusted keys (none yet), in a file under ``tmp_path``."""
    return TrustStore(tmp_path / "trusted_keys.json")


@pytest.fixture
def no_real_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """The OS keyring is out of bounds: any use of it fails the test."""

    def refuse(*_args: object) -> None:
        raise AssertionError("a test reached the real keyring")

    monkeypatch.setattr(keys.KeyringStore, "get", refuse)
    monkeypatch.setattr(keys.KeyringStore, "set", refuse)
