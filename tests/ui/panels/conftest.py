"""Fixtures for panel tests: the in-process sandbox and signed-in clients on the qasync loop.

def test_something(loop, admin, panel_context):
    panel = build_panel(panel_context(admin))
    loop.run_until_complete(panel.reload())
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import qasync

from portal_admin.client import PortalClient
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.profiles.store import sandbox_profile

from .panel_support import ADMIN, AUDITOR, sign_in_as


@pytest.fixture
def sandbox_app() -> Any:
    """A fresh in-memory sandbox with 120 generated accounts and a test clock."""
    return create_app(SandboxConfig(db=":memory:", seed_accounts=120, test_clock=True))


def _signed_in(
    loop: qasync.QEventLoop, app: Any, who: tuple[str, str], **kwargs: Any
) -> Iterator[PortalClient]:
    client = loop.run_until_complete(sign_in_as(app, *who, **kwargs))
    try:
        yield client
    finally:
        loop.run_until_complete(client.aclose())


@pytest.fixture
def admin(loop: qasync.QEventLoop, sandbox_app: Any) -> Iterator[PortalClient]:
    """The demo administrator (OWNER of the primary workspace), signed in."""
    yield from _signed_in(loop, sandbox_app, ADMIN)


@pytest.fixture
def auditor(loop: qasync.QEventLoop, sandbox_app: Any) -> Iterator[PortalClient]:
    """The demo auditor (read permissions only), signed in."""
    yield from _signed_in(loop, sandbox_app, AUDITOR)


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
