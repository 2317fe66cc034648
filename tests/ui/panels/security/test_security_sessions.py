"""Sessions panel against the in-process sandbox: sessions, current one marked, settings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import qasync
from PySide6.QtCore import QModelIndex, Qt

from portal_admin.client import PortalClient
from portal_admin.ui.panels import security
from portal_admin.ui.panels.registry import PANELS, PanelRegistry
from portal_admin.ui.panels.security.sessions import AGENT, DEVICE, IP, SessionsPanel

from ..panel_support import run


def test_register_lists_the_four_panels() -> None:
    registry = PanelRegistry()
    security.register(registry)
    assert [s.id for s in registry] == ["sessions", "login-history", "mfa", "ip-whitelist"]
    assert registry.get("mfa") is not None
    assert all(s.display_title() for s in registry)
    assert len(PANELS) >= 0


def test_factories_build_the_panels(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any]
) -> None:
    registry = PanelRegistry()
    security.register(registry)
    names = {}
    for spec in registry:
        widget = spec.factory(panel_context(admin))
        names[spec.id] = widget.objectName()
        widget.deleteLater()
    assert names == {
        "sessions": "sessionsPanel",
        "login-history": "loginHistoryPanel",
        "mfa": "mfaPanel",
        "ip-whitelist": "ipWhitelistPanel",
    }


def test_sessions_lists_what_the_sandbox_has(
    loop: qasync.QEventLoop,
    admin: PortalClient,
    panel_context: Callable[..., Any],
    qtmodeltester: Any,
) -> None:
    panel = SessionsPanel(panel_context(admin))
    assert run(loop, panel.reload())
    expected = run(loop, admin.security.sessions())
    model = panel.model
    qtmodeltester.check(model)
    assert model.rowCount() == len(expected) >= 2
    assert [model.index(r, IP).data() for r in range(model.rowCount())] == [
        s.client_ip for s in expected
    ]
    current = [r for r in range(model.rowCount()) if model.rows[r].is_current]
    assert len(current) == 1
    row = current[0]
    assert model.index(row, DEVICE).data() == "This device"
    assert model.index(row, IP).data(Qt.ItemDataRole.FontRole).bold()
    other = next(r for r in range(model.rowCount()) if r != row)
    assert model.index(other, DEVICE).data() == ""
    assert model.index(other, IP).data(Qt.ItemDataRole.FontRole) is None
    # shortened agent with the full one in the tooltip
    agent = model.rows[other].user_agent
    assert model.index(other, AGENT).data(Qt.ItemDataRole.ToolTipRole) == agent
    assert len(model.index(other, AGENT).data()) < len(agent)
    assert "ago" in model.index(other, 3).data() or "just now" in model.index(other, 3).data()
    assert model.data(QModelIndex()) is None
    assert panel.current_session is not None and panel.current_session.client_ip == "127.0.0.1"


def test_sessions_shows_the_session_settings(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any]
) -> None:
    panel = SessionsPanel(panel_context(admin))
    run(loop, panel.reload())
    config = run(loop, admin.security.sessions_config())
    values = {k: v.text() for k, v in panel.config_values.items()}
    assert values["sso"] == ("Yes" if config.sso_enabled else "No")
    assert values["max"] == str(config.max_sessions)
    assert values["last_ip"] == config.last_login_ip
    assert values["last_login"] and values["password"]
    assert panel.config_values["sso"].accessibleName() == "Single sign-on"


def test_sessions_load_failure_shows_code_and_request_id(
    loop: qasync.QEventLoop, admin: PortalClient, panel_context: Callable[..., Any]
) -> None:
    panel = SessionsPanel(panel_context(admin))
    run(loop, admin.auth.logout())
    assert not run(loop, panel.reload())
    info = panel.error_line.info
    assert info is not None and info.code == "ACCESS.TOKEN_MISSING"
    assert "ACCESS.TOKEN_MISSING" in panel.error_line.text()
