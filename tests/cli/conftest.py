"""Fixtures of the command-line tests: a data folder of each test's own (its built-in sandbox,
its jobs, its profiles), the operations a command sent, and sandboxes served over loopback."""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from portal_admin.cli import session
from portal_admin.cli.main import main
from portal_admin.client import PortalClient
from portal_admin.client.events import RequestFinished
from support.served import ServedSandbox

ADMIN = "admin@sandbox.test"
ADMIN_PASSWORD = "Sandbox-Admin-2026!"


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """User folders of this test's own: PORTAL_ADMIN_HOME for the program (on every system),
    the XDG variables for the libraries that follow them."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(tmp_path / "portal-admin"))
    return tmp_path / "portal-admin" / "data"


@pytest.fixture(autouse=True)
def no_keyring() -> Iterator[None]:
    """No usable keyring, as ``PYTHON_KEYRING_BACKEND=keyring.backends.fail.Keyring`` gives
    (a kiosk image, a server, a CI runner), unless a test sets a keyring of its own; the
    previous backend is put back after. Without it, keyring's own choice could fall on a test
    module's in-memory backend (a ``KeyringBackend`` subclass is a candidate once defined),
    and every later command would resume from it."""
    import keyring
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The operation id of every request the command line's clients finished."""
    operations: list[str] = []

    class Recorded(PortalClient):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.events.subscribe(
                lambda e: (
                    operations.append(e.operation_id) if isinstance(e, RequestFinished) else None
                )
            )

    monkeypatch.setattr(session, "PortalClient", Recorded)
    return operations


def rows(path: Path) -> list[dict[str, str]]:
    """A CSV the program wrote, as dictionaries."""
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


Query = Callable[..., list[dict[str, str]]]


@pytest.fixture
def query(tmp_path: Path) -> Query:
    """``accounts query`` on the built-in sandbox (or with ``connection`` options)."""

    def run(*filters: str, connection: tuple[str, ...] = ("--sandbox",)) -> list[dict[str, str]]:
        out = tmp_path / f"query-{time.monotonic_ns()}.json"
        argv = [*connection, "accounts", "query", *filters, "--format", "json", "--out", str(out)]
        assert main(argv) == 0
        return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]

    return run


class Terminal(io.StringIO):
    """Standard input that says it is a terminal, with the lines a person would type."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make standard input a terminal on which ``text`` is typed."""

    def type_(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", Terminal(text))

    return type_


@pytest.fixture(scope="module")
def served() -> Iterator[ServedSandbox]:
    """``portal-sandbox serve --port 0 --db :memory: --test-clock`` shared by a module."""
    server = ServedSandbox("--seed-accounts", "60")
    try:
        yield server
    finally:
        server.stop()


def loopback(served: ServedSandbox, *extra: str) -> list[str]:
    """The documented non-interactive sign-in to a sandbox on this computer."""
    return [
        "--server",
        served.base_url,
        "--access-code",
        "SANDBOX",
        "--user",
        ADMIN,
        "--password-env",
        "PORTAL_PASSWORD",
        "--sandbox-mfa",
        *extra,
    ]


@pytest.fixture
def password(monkeypatch: pytest.MonkeyPatch) -> str:
    """The sandbox administrator's password in ``PORTAL_PASSWORD``."""
    monkeypatch.setenv("PORTAL_PASSWORD", ADMIN_PASSWORD)
    return ADMIN_PASSWORD
