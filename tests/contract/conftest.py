"""Fixtures of the contract suite: the real `portal-sandbox serve` command over loopback HTTP.

One server is shared by the whole session (``sandbox``) for tests that do not disturb each
other; ``start_sandbox`` starts a fresh one (stopped at the end of the test) for tests that
advance the clock, exhaust a rate limit, change a demo password or need other flags.
"""

from __future__ import annotations

import signal
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


DEFAULT_FRESH_ARGS = ("--port", "0", "--db", ":memory:", "--seed-accounts", "20", "--test-clock")


class _Pool:
    """Fresh servers with the default fresh arguments, started ahead of need in the background.

    Starting and stopping a server takes seconds of mostly idle waiting; overlapping it with
    the other tests keeps the suite fast. Servers handed out are stopped in the background too
    and their exit statuses checked when the session ends.
    """

    def __init__(self, size: int = 2) -> None:
        self.size = size
        self.ready: list[SandboxProcess] = []
        self.retired: list[tuple[str, SandboxProcess]] = []

    def _launch(self) -> None:
        while len(self.ready) < self.size:
            self.ready.append(SandboxProcess(DEFAULT_FRESH_ARGS, wait=False))

    def take(self) -> SandboxProcess:
        if not self.ready:
            self._launch()
        server = self.ready.pop(0)
        self._launch()
        if server.wait_listening(timeout=90) is None:
            server.kill()
            raise RuntimeError(
                f"sandbox did not print its listening line: {server.args}\n"
                f"stdout: {server.stdout_text()}\nstderr: {server.stderr_text()}"
            )
        return server

    def retire(self, name: str, server: SandboxProcess) -> None:
        if server.proc.poll() is None:
            server.proc.send_signal(signal.SIGTERM)
        self.retired.append((name, server))

    def close(self) -> list[str]:
        for server in self.ready:
            server.kill()
        failures = []
        for name, server in self.retired:
            rc = server.wait_exit()
            if rc != 0 or "Traceback" in server.stderr_text():
                failures.append(f"{name}: exit {rc}\n{server.stderr_text()[-2000:]}")
        return failures


@pytest.fixture(scope="session")
def sandbox_pool() -> Iterator[_Pool]:
    pool = _Pool()
    yield pool
    failures = pool.close()
    assert not failures, "a fresh sandbox did not stop cleanly on SIGTERM:\n" + "\n".join(failures)


def _starter(pool: _Pool | None = None) -> tuple[StartSandbox, list[SandboxProcess]]:
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
        if pool is not None and tuple(args) == DEFAULT_FRESH_ARGS and wait and env is None:
            server = pool.take()
        else:
            server = SandboxProcess(args, wait=wait, env=env)
        started.append(server)
        return server

    return start, started


@pytest.fixture
def start_sandbox(sandbox_pool: _Pool, request: pytest.FixtureRequest) -> Iterator[StartSandbox]:
    """Start fresh servers (``--seed-accounts 20`` unless told otherwise); stopped after."""
    start, started = _starter(sandbox_pool)
    yield start
    for server in started:
        if server.stopped_rc is not None or server.listening_line is None:
            server.kill()
            continue
        sandbox_pool.retire(request.node.nodeid, server)


@pytest.fixture(scope="module")
def module_sandbox() -> Iterator[SandboxProcess]:
    """A fresh server for one module (with the test clock), for tests that move its clock."""
    start, _ = _starter()
    server = start()
    yield server
    rc = server.stop()
    assert_clean_exit(server, rc)
