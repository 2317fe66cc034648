"""Sign-in tests: the real widgets, the real client, the in-process sandbox."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest
import qasync
from pytestqt.qtbot import QtBot

from portal_admin.client import MemoryTokenStore
from portal_admin.ui.profiles.store import sandbox_profile
from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.session.sandbox_factory import create_sandbox_app, transport_for_app
from portal_admin.ui.session.sandbox_tools import MailItem, SandboxTools
from portal_admin.ui.signin.flow import SignInFlow
from portal_admin.ui.signin.window import SignInWindow

T = TypeVar("T")

ADMIN = "admin@sandbox.test"
ADMIN_PASSWORD = "Sandbox-Admin-2026!"
AUDITOR = "auditor@sandbox.test"
AUDITOR_PASSWORD = "Sandbox-Audit-2026!"
APPROVAL = "approval@sandbox.test"
APPROVAL_PASSWORD = "Sandbox-Approval-2026!"
NEWUSER = "newuser@sandbox.test"


class FakeClock:
    """The flow's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class Runner(Protocol):
    def __call__(self, coro: Coroutine[Any, Any, T], timeout: float = ...) -> T: ...


@pytest.fixture
def run(loop: qasync.QEventLoop) -> Runner:
    """Run one coroutine on the qasync loop, with a time limit."""

    def runner(coro: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        return loop.run_until_complete(asyncio.wait_for(coro, timeout))

    return runner


@pytest.fixture
def sandbox_app() -> Any:
    return create_sandbox_app(":memory:", seed_accounts=10, test_clock=True)


@pytest.fixture
def service(loop: qasync.QEventLoop, sandbox_app: Any) -> Iterator[ClientService]:
    svc = ClientService(
        sandbox_profile(),
        language="en",
        transport_factory=lambda _profile: transport_for_app(sandbox_app),
        token_store=MemoryTokenStore(),
    )
    yield svc
    loop.run_until_complete(svc.close())


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def window(qtbot: QtBot, service: ClientService, clock: FakeClock) -> SignInWindow:
    flow = SignInFlow(service, clock=clock)
    win = SignInWindow(flow, [sandbox_profile()])
    qtbot.addWidget(win)
    win.show()
    return win


@pytest.fixture
def shot_dir(shots: Path) -> Path:
    return shots


def tools(service: ClientService) -> SandboxTools:
    found = service.sandbox_tools()
    assert found is not None
    return found


async def settle(window: Any) -> None:
    """Wait until every task the window (or dialog) started has finished."""
    for _ in range(50):
        tasks = list(window.runner.tasks)
        if not tasks:
            return
        await asyncio.gather(*tasks)
    raise AssertionError("tasks kept coming")


async def latest_mail(service: ClientService, to: str) -> MailItem:
    mail = await tools(service).mailbox(to)
    assert mail, f"no mail to {to}"
    return mail[0]
