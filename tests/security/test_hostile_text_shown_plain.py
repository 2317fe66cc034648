"""Text from a server, a file or a person is shown as plain text, everywhere (docs/threat-model.md,
"Text shown in the window").

The sandbox is given markup in every text field it keeps (accounts' names and remarks, roles,
workspaces, institutions, portals, invitations, channels and channel types, sessions) and a
stranger's failed sign-in to the administrator's address with markup in its User-Agent and
CF-Connecting-IP (recorded in the administrator's login history: no account needed). The
administrator's own name carries it too, so the campaign made by the tour names a hostile
reviewer; the tour's campaign title and justifications are made hostile as well, and a profile
with a hostile name is kept. Then the program's tour visits every window, panel and dialog, and
at each stop every visible window is walked: no label or message box may interpret the
markup, no widget's tooltip and no item view's ``ToolTipRole`` (every loaded row) may hold it
unescaped, and every escaped tooltip renders as the literal text.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QApplication,
    QWidget,
)
from pytestqt.qtbot import QtBot

from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.ui.panels import register_all
from portal_admin.ui.panels.registry import PanelRegistry
from portal_admin.ui.panels.reviews import tour as campaigns_tour
from portal_admin.ui.profiles.store import Profile, ProfileStore
from portal_admin.ui.tour import runner as tour_module
from portal_admin.ui.tour.runner import run_program_tour
from support.accounts import ADMIN_EMAIL
from support.hostile import MARKER, Walk, stranger_fails_to_sign_in
from support.program import build_program

#: A main-window bug that is not about text (tests/reliability/test_known_bugs.py).
KNOWN_QT_ERRORS = ("Internal C++ object (PySide6.QtWidgets.QProgressBar) already deleted",)
#: The text columns of the sandbox a person or a server can fill, by table.
HOSTILE_COLUMNS = {
    "accounts": ("name", "remark"),
    "institutions": ("name",),
    "workspaces": ("name",),
    "roles": ("role_name", "description"),
    "auth_sessions": ("user_agent", "client_ip"),
    "login_history": ("user_agent", "client_ip"),
    "invitations": ("message", "cancel_reason"),
    "notification_channel_types": ("type_name", "type_description"),
    "notification_channels": ("channel_name", "description"),
    "portals": ("remark",),
}


def make_hostile(sandbox: Any) -> None:
    """Markup appended to every text field the sandbox keeps (rows seeded before sign-in)."""
    db = sandbox.state.sandbox.db
    with db.transaction():
        for table, columns in HOSTILE_COLUMNS.items():
            sets = ", ".join(f"{c} = COALESCE({c}, '') || ' ' || ?" for c in columns)
            db.execute(f"UPDATE {table} SET {sets}", (MARKER,) * len(columns))


@pytest.fixture
def hostile_translations(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The campaign the tour makes: a hostile title and justifications (as a file passed from
    hand to hand could hold)."""

    class Words:
        @staticmethod
        def translate(context: str, text: str, *args: Any) -> str:
            return f"{QCoreApplication.translate(context, text, *args)} {MARKER}"

    monkeypatch.setattr(campaigns_tour, "QCoreApplication", Words)
    yield


@pytest.mark.qt_no_exception_capture
def test_every_window_shows_hostile_text_as_text(
    qapp: QApplication,
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    hostile_translations: None,
) -> None:
    raised: list[str] = []
    monkeypatch.setattr(
        sys, "excepthook", lambda kind, exc, tb: raised.append(f"{kind.__name__}: {exc}")
    )
    sandbox = create_app(SandboxConfig(seed_accounts=12, test_clock=True))
    make_hostile(sandbox)
    loop.run_until_complete(stranger_fails_to_sign_in(sandbox, ADMIN_EMAIL))
    ProfileStore(tmp_path / "profiles.json").save(
        [Profile(name=f"Staging {MARKER}", base_url="https://staging.example.com")]
    )
    walk = Walk()
    original_save = tour_module.save_screenshot  # type: ignore[attr-defined]

    def save(widget: QWidget, path: Path, *args: Any, **kwargs: Any) -> Path:
        walk.windows(path.stem)
        result: Path = original_save(widget, path, *args, **kwargs)
        return result

    monkeypatch.setattr(tour_module, "save_screenshot", save)
    shots = tmp_path / "tour"
    app = build_program(qapp, tmp_path, sandbox, register_all(PanelRegistry()), tour=shots)

    async def session() -> None:
        await run_program_tour(app, shots)
        assert app.workspace is not None
        panel = app.workspace.window.show_panel("login-history")
        assert panel is not None
        walk.windows("login-history-again")
        await app.logout()

    loop.run_until_complete(session())
    assert not walk.problems, "\n".join(walk.problems)
    # The marker was shown, as text, in the lists of the server's records and the campaign.
    shown = {
        "AccountsPanel",
        "RolesPanel",
        "SessionsPanel",
        "LoginHistoryPanel",
        "InvitationsPanel",
        "ChannelsPanel",
        "ChannelTypesPanel",
        "CampaignsPanel",
    }
    assert shown <= walk.views, walk.views
    assert {"accounts", "login-history"} <= walk.tooltips, walk.tooltips
    assert [r for r in raised if not r.startswith(KNOWN_QT_ERRORS)] == []
