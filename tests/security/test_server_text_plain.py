"""The reported attacks on the window, through the real program and the sandbox:

- a stranger's failed sign-in to the administrator's address, with ``<img
  src=file:///dev/zero>`` as its User-Agent, lands in the administrator's login history; hovering
  that row made Qt read /dev/zero until the program died. The tooltips must hold the text
  escaped (checked on the strings: nothing is rendered, so a regression fails instead of
  killing the run);
- the same with a harmless marker, hovered for real, and pictured (``shots``);
- the sign-in window shows the server's error message (markup in it) as text.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QToolTip

from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox import errors as sandbox_errors
from portal_admin.ui.app import Application
from portal_admin.ui.panels import register_all
from portal_admin.ui.panels.registry import PanelRegistry, panel_ready
from portal_admin.ui.startup.options import StartOptions
from portal_admin.ui.tour.screenshots import save_screenshot
from support.accounts import ADMIN_EMAIL
from support.hostile import MARKER, stranger_fails_to_sign_in
from support.program import build_program, make_program, sign_in_otp

DEV_ZERO = "<img src=file:///dev/zero>"


@pytest.fixture
def started() -> Iterator[list[Application]]:
    """The programs a test starts; their translators (kept by the QApplication) are taken
    away after it, so a test in Japanese leaves the next one in English."""
    apps: list[Application] = []
    yield apps
    for app in apps:
        app.languages.set_language("en")


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where the pictures go (set PORTAL_ADMIN_SHOTS to keep them)."""
    keep = os.environ.get("PORTAL_ADMIN_SHOTS")
    path = Path(keep) if keep else tmp_path / "shots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def run(loop: qasync.QEventLoop, coro: object, timeout: float = 120) -> object:
    return loop.run_until_complete(asyncio.wait_for(coro, timeout))  # type: ignore[arg-type]


async def login_history(app: Application) -> tuple[object, object]:
    """The signed-in administrator's login history panel and its list's model, loaded."""
    assert app.workspace is not None
    panel = app.workspace.window.show_panel("login-history")
    assert panel is not None
    await panel_ready(panel, app.runner)
    view = panel.list_view
    return panel, view.model


def agent_tooltips(model: object, agent: str) -> list[str]:
    """The ToolTipRole of every cell of the rows whose user agent holds ``agent``."""
    found: list[str] = []
    m = model  # a PagedTableModel of LoginHistoryItem
    for row in range(m.rowCount(QModelIndex())):  # type: ignore[attr-defined]
        item = m.row_at(row)  # type: ignore[attr-defined]
        if agent not in (item.user_agent or ""):
            continue
        for column in range(m.columnCount(QModelIndex())):  # type: ignore[attr-defined]
            tip = m.index(row, column).data(Qt.ItemDataRole.ToolTipRole)  # type: ignore[attr-defined]
            if isinstance(tip, str) and "img" in tip:
                found.append(tip)
    return found


def test_a_strangers_dev_zero_user_agent_is_escaped_in_the_login_history(
    qapp: QApplication, loop: qasync.QEventLoop, tmp_path: Path
) -> None:
    sandbox = create_app(SandboxConfig(seed_accounts=4, test_clock=True))
    run(loop, stranger_fails_to_sign_in(sandbox, ADMIN_EMAIL, DEV_ZERO, "203.0.113.9"))
    app = build_program(qapp, tmp_path, sandbox, register_all(PanelRegistry()))

    async def check() -> list[str]:
        await sign_in_otp(app)
        _panel, model = await login_history(app)
        tips = agent_tooltips(model, DEV_ZERO)
        await app.logout()
        return tips

    tips = run(loop, check())
    assert isinstance(tips, list) and tips, "the stranger's row is not in the login history"
    for tip in tips:
        assert "<img" not in tip and "&lt;img src=file:///dev/zero&gt;" in tip


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hovering_a_hostile_user_agent_shows_it_as_text(
    qapp: QApplication,
    loop: qasync.QEventLoop,
    tmp_path: Path,
    shots: Path,
    lang: str,
    started: list[Application],
) -> None:
    sandbox = create_app(SandboxConfig(seed_accounts=4, test_clock=True))
    run(loop, stranger_fails_to_sign_in(sandbox, ADMIN_EMAIL))
    app = make_program(
        qapp,
        StartOptions(sandbox=True, lang=lang),
        sandbox,
        tmp_path,
        register_all(PanelRegistry()),
    )
    started.append(app)
    app.start()

    async def hover() -> str:
        await sign_in_otp(app)
        assert app.workspace is not None
        main = app.workspace.window
        main.resize(1366, 768)
        panel, model = await login_history(app)
        view = panel.list_view
        for row in range(model.rowCount(QModelIndex())):  # type: ignore[attr-defined]
            if MARKER in (model.row_at(row).user_agent or ""):  # type: ignore[attr-defined]
                break
        else:
            raise AssertionError("the stranger's row is not in the login history")
        column = next(
            c
            for c in range(model.columnCount(QModelIndex()))
            if model.columns[c].key == "device"  # type: ignore[attr-defined]
        )
        index = model.index(row, column)  # type: ignore[attr-defined]
        view.table.selectRow(row)
        await asyncio.sleep(0.2)
        where = view.table.viewport().mapToGlobal(view.table.visualRect(index).center())
        QToolTip.showText(where, index.data(Qt.ItemDataRole.ToolTipRole), view.table)
        await asyncio.sleep(0.1)
        tip = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "qtooltip_label")
        assert isinstance(tip, QLabel) and tip.isVisible()
        save_screenshot(main, shots / f"login-history-hostile-tooltip-{lang}.png", popups=(tip,))
        shown = tip.text()
        QToolTip.hideText()
        await app.logout()
        return shown

    shown = run(loop, hover())
    assert isinstance(shown, str) and MARKER not in shown
    document = QTextDocument()
    document.setHtml(shown)
    assert document.toPlainText() == f"Mozilla/5.0 {MARKER}"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_sign_in_window_shows_the_servers_error_as_text(
    qapp: QApplication,
    loop: qasync.QEventLoop,
    tmp_path: Path,
    shots: Path,
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    started: list[Application],
) -> None:
    localized = sandbox_errors.error_message
    monkeypatch.setattr(
        sandbox_errors, "error_message", lambda code, lg: f"{localized(code, lg)} {MARKER}"
    )
    sandbox = create_app(SandboxConfig(seed_accounts=4, test_clock=True))
    app = make_program(
        qapp,
        StartOptions(sandbox=True, lang=lang),
        sandbox,
        tmp_path,
        register_all(PanelRegistry()),
    )
    started.append(app)
    app.start()
    window = app.sign_in_window
    assert window is not None
    window.credentials.email.setText(ADMIN_EMAIL)
    window.credentials.password.setText("not-the-password")
    assert run(loop, window.submit_credentials()) is False
    run(loop, asyncio.sleep(0.2))
    showing = [
        label
        for label in window.findChildren(QLabel)
        if MARKER in label.text() and label.isVisible()
    ]
    assert showing, "the server's message is not shown"
    for label in showing:
        assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName()
    save_screenshot(window, shots / f"sign-in-server-error-{lang}.png")
