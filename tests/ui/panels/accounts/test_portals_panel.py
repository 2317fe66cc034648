"""Portals panel: type picker from the constants, 255-character limits checked as you type,
creation with the record shown, this session's table, errors 4000 / 4040 / 4010 / 403,
qtmodeltester; screenshots."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from portal_admin.client import AuthenticationError, PortalClient
from portal_admin.ui.panels.accounts.portals_panel import PortalsPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.permissions import Permissions

from ..panel_support import run
from .builders import build_portals as build
from .builders import fill_form
from .support import settle, shot

Make = Callable[..., PanelContext]


@pytest.fixture
def panel(loop: qasync.QEventLoop, qtbot: QtBot, admin: PortalClient, panel_context: Make) -> Any:
    p = build(loop, qtbot, panel_context(admin))
    yield p
    p.close_tasks()


def test_form_limits_checked_as_you_type(qtbot: QtBot, panel: PortalsPanel) -> None:
    assert panel.type.codes() == ["SYSTEM", "TENANT", "PARTNER", "CONSUMER"]
    assert "server offers no way to list portals" in panel.intro.text()
    assert not panel.create_button.isEnabled()  # nothing chosen yet
    assert "Choose a portal type." in panel.problems.text()
    panel.type.set_code("TENANT")
    assert "The domain is required." in panel.problems.text()
    qtbot.keyClicks(panel.domain, "a" * 250)
    assert panel.create_button.isEnabled()
    assert panel.domain_counter.text() == "250 / 255"
    qtbot.keyClicks(panel.domain, "b" * 6)  # 256: over, typing is not cut off
    assert panel.domain.text().endswith("b" * 6)
    assert panel.domain_counter.text() == "256 / 255" and panel.domain_counter.over
    assert not panel.create_button.isEnabled()
    assert "longer than 255" in panel.problems.text()
    qtbot.keyClick(panel.domain, "\b")
    assert panel.create_button.isEnabled()
    panel.remark.setText("r" * 256)
    assert panel.remark_counter.over and not panel.create_button.isEnabled()
    panel.remark.setText("r" * 255)
    assert panel.create_button.isEnabled()


def test_create_shows_the_record_and_keeps_it_in_the_session_table(
    loop: qasync.QEventLoop, panel: PortalsPanel, runner: Any, qtmodeltester: Any
) -> None:
    changed: list[frozenset[str]] = []
    runner.changed.connect(changed.append)
    shot(panel, "portals.png")
    fill_form(panel, "TENANT", "shop.example.test", "Spring campaign")
    record = run(loop, panel.submit())
    assert record is not None and changed == [frozenset({"portals"})]
    values = {k: v.text() for k, v in panel.created_values.items()}
    assert values["id"] == str(record.id)
    assert values["type"] == "Tenant portal (TENANT)"
    assert values["domain"] == "shop.example.test"
    assert values["status"] == "Active (ACTIVE)"
    assert values["remark"] == "Spring campaign"
    assert values["created"] and values["institution"]
    assert panel.created_box.isVisible()
    assert panel.domain.text() == ""  # ready for the next one
    fill_form(panel, "PARTNER", "partners.example.test")
    second = run(loop, panel.submit())
    model = panel.controller.model
    assert model.rowCount() == 2
    assert model.index(0, 2).data() == "partners.example.test"  # newest first
    assert model.index(1, 0).data() == str(record.id)
    assert model.index(0, 3).data() == "Active (ACTIVE)"
    assert second.portal_status.code == "ACTIVE"
    qtmodeltester.check(model)
    run(loop, settle())
    shot(panel, "portal-created.png")


def test_error_4000_is_explained_and_the_input_kept(
    loop: qasync.QEventLoop, panel: PortalsPanel
) -> None:
    fill_form(panel, "TENANT", "has spaces.example.test")
    assert panel.create_button.isEnabled()
    assert run(loop, panel.submit()) is None
    text = panel.message.text
    assert "did not accept the portal (code 4000)" in text and "Error code: 4000" in text
    assert panel.domain.text() == "has spaces.example.test"
    assert panel.controller.model.rowCount() == 0


def test_error_4040_unknown_institution(loop: qasync.QEventLoop, panel: PortalsPanel) -> None:
    fill_form(panel, "CONSUMER", "shop.example.test")
    panel.institution.setText("INSNOTTHERE")
    assert run(loop, panel.submit()) is None
    text = panel.message.text
    assert "institution was not found (code 4040)" in text and "Error code: 4040" in text


def test_error_4010_expired_sign_in(
    loop: qasync.QEventLoop, panel: PortalsPanel, admin: PortalClient
) -> None:
    class Expired:
        async def create(self, *_args: Any, **_kwargs: Any) -> Any:
            raise AuthenticationError(
                "token expired", code="4010", http_status=401, request_id="req-4010"
            )

    fill_form(panel, "TENANT", "late.example.test")
    original = admin.portals
    admin.portals = Expired()  # type: ignore[assignment]
    try:
        assert run(loop, panel.submit()) is None
    finally:
        admin.portals = original  # type: ignore[assignment]
    text = panel.message.text
    assert "no longer valid (code 4010)" in text and "req-4010" in text


def test_auditor_disabled_and_a_403_explained(
    loop: qasync.QEventLoop, qtbot: QtBot, auditor: PortalClient, panel_context: Make
) -> None:
    panel = build(loop, qtbot, panel_context(auditor))
    fill_form(panel, "TENANT", "audit.example.test")
    assert not panel.create_button.isEnabled()
    assert "institution:portal:write" in panel.problems.text()
    assert run(loop, panel.submit()) is None  # refused before sending
    panel.permissions = Permissions(None)
    panel.validate()
    assert panel.create_button.isEnabled()
    assert run(loop, panel.submit()) is None
    text = panel.message.text
    assert "does not allow" in text and "ACCESS.PERMISSION_DENIED" in text
    panel.close_tasks()
