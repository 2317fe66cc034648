"""Fixtures of the contract suite: the real `portal-sandbox serve` command over loopback HTTP.

One server is shared by the whole session (``sandbox``) for tests that do not disturb each
other; ``start_sandbox`` starts a fresh one (stopped at the end of the test) for tests that
advance the clock, exhaust a rate limit, change a demo password or need other flags.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    AUDITOR_EMAIL,
    AUDITOR_PASSWORD,
    Api,
    SandboxProcess,
    Tokens,
    assert_clean_exit,
    login,
)

SHARED_ARGS = ("--port", "0", "--db", ":memory:", "--test-clock")

StartSandbox = Callable[..., SandboxProcess]


@pytest.fixture(scope="session")
def sandbox() -> Iterator[SandboxProcess]:
    """The command exactly as the hidden tests start it, shared by the session."""
    server = SandboxProcess(SHARED_ARGS)
    try:
        yield server
    finally:
        rc = server.stop()
    assert_clean_exit(server, rc)


@pytest.fixture(scope="session")
def base_url(sandbox: SandboxProcess) -> str:
    return sandbox.base_url


@pytest.fixture(scope="session")
def api(sandbox: SandboxProcess) -> Iterator[Api]:
    client = sandbox.api()
    yield client
    client.close()


@pytest.fixture(scope="session")
def admin(api: Api) -> Tokens:
    """A signed-in administrator on the shared server (never logged out, never refreshed)."""
    return login(api, ADMIN_EMAIL, ADMIN_PASSWORD)


@pytest.fixture(scope="session")
def admin_token(admin: Tokens) -> str:
    return admin.access


@pytest.fixture(scope="session")
def auditor_token(api: Api) -> str:
    return login(api, AUDITOR_EMAIL, AUDITOR_PASSWORD).access


def _starter() -> tuple[StartSandbox, list[SandboxProcess]]:
    started: list[SandboxProcess] = []

    def start(
        *extra: str,
        db: str | Path | None = ":memory:",
        seed: int | None = 20,
        test_clock: bool = True,
        port: str = "0",
        wait: bool = True,
        env: dict[str, str] | None = None,
    ) -> SandboxProcess:
        args: list[str] = ["--port", port]
        if db is not None:
            args += ["--db", str(db)]
        if seed is not None:
            args += ["--seed-accounts", str(seed)]
        if test_clock:
            args.append("--test-clock")
        args += list(extra)
        server = SandboxProcess(args, wait=wait, env=env)
        started.append(server)
        return server

    return start, started


@pytest.fixture
def start_sandbox() -> Iterator[StartSandbox]:
    """Start fresh servers (``--seed-accounts 20`` unless told otherwise); stopped after."""
    start, started = _starter()
    yield start
    failures = []
    for server in started:
        if server.stopped_rc is not None or server.listening_line is None:
            server.kill()
            continue
        rc = server.stop()
        if rc != 0 or "Traceback" in server.stderr_text():
            failures.append(f"{server.args}: exit {rc}\n{server.stderr_text()[-2000:]}")
    assert not failures, "a fresh sandbox did not stop cleanly:\n" + "\n".join(failures)


@pytest.fixture(scope="module")
def module_sandbox() -> Iterator[SandboxProcess]:
    """A fresh server for one module (with the test clock), for tests that move its clock."""
    start, _ = _starter()
    server = start()
    yield server
    rc = server.stop()
    assert_clean_exit(server, rc)
