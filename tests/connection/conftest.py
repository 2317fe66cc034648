"""Fixtures of the connection doctor's tests: sandboxes in process, under uvicorn (TLS too) and
as ``portal-sandbox serve``; no proxy from the environment unless a test sets one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from portal_admin.client import sandbox_transport
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.faults import FaultConfig
from support.served import ServedSandbox

from .servers import Certs, ThreadedServer, make_certs

ACCESS_CODE = "SANDBOX"
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture(autouse=True)
def no_proxy_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy variable from the machine running the tests."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


def sandbox_app(**settings: Any) -> Any:
    """An in-memory sandbox app; ``settings`` are fault settings (FaultConfig fields),
    ``sc_algorithm`` and ``access_code``."""
    algorithm = settings.pop("sc_algorithm", None)
    code = settings.pop("access_code", ACCESS_CODE)
    options: dict[str, Any] = {"db": ":memory:", "seed_accounts": 0, "test_clock": True}
    options["portal_access_code"] = code
    if settings:
        options["faults"] = FaultConfig(**settings).specs()
    if algorithm:
        options["sc_algorithm"] = algorithm
    return create_app(SandboxConfig(**options))


@pytest.fixture
def in_process() -> Callable[..., httpx.AsyncBaseTransport]:
    """An in-process transport to a fresh sandbox with these fault settings."""

    def make(**settings: Any) -> httpx.AsyncBaseTransport:
        return sandbox_transport(sandbox_app(**settings))

    return make


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    """A private CA and a server certificate for 127.0.0.1 and portal.test."""
    return make_certs(Path(tmp_path_factory.mktemp("certs")))


@pytest.fixture(scope="module")
def tls_sandbox(certs: Certs) -> Iterator[ThreadedServer]:
    """The sandbox over HTTPS (uvicorn, the test CA's certificate) on 127.0.0.1."""
    server = ThreadedServer(sandbox_app(), certs).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def served() -> Iterator[ServedSandbox]:
    """``portal-sandbox serve --port 0 --db :memory: --test-clock`` shared by a module."""
    server = ServedSandbox("--seed-accounts", "0")
    try:
        yield server
    finally:
        server.stop()
