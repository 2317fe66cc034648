"""Screenshots of the security panels in English and Vietnamese (saved to /tmp/shots/panels)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import qasync
from PySide6.QtGui import QColor

from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.panels.security.backup_codes import MASK
from portal_admin.ui.panels.security.history import LoginHistoryPanel
from portal_admin.ui.panels.security.ip_whitelist import IpWhitelistPanel
from portal_admin.ui.panels.security.ip_whitelist_model import ENTRY
from portal_admin.ui.panels.security.mfa import MfaPanel
from portal_admin.ui.panels.security.sessions import SessionsPanel
from portal_admin.ui.theme.tones import tone_color

from ..panel_support import ADMIN, SHOTS, SignIn, answer_box, run
from .support import shot, show


@pytest.fixture(params=["en", "vi"])
def language(request: pytest.FixtureRequest, qapp: Any) -> Iterator[str]:
    """The UI and server language of the shots."""
    manager = LanguageManager()
    manager.set_language(request.param)
    try:
        yield request.param
    finally:
        manager.set_language("en")


@pytest.fixture
def client(language: str, signed_in: SignIn) -> Any:
    """The administrator, signed in with the server speaking ``language`` (closed before the
    language is set back)."""
    return signed_in(ADMIN, language)


def _has_color(widget: Any, color: str) -> bool:
    image = widget.grab().toImage()
    wanted = QColor(color)
    return any(
        image.pixelColor(x, y) == wanted
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    )


def test_shots(
    loop: qasync.QEventLoop,
    client: Any,
    language: str,
    panel_context: Callable[..., Any],
    qtbot: Any,
) -> None:
    ctx = panel_context(client, tour=True)
    sessions = SessionsPanel(ctx)
    history = LoginHistoryPanel(ctx)
    mfa = MfaPanel(ctx)
    whitelist = IpWhitelistPanel(ctx)
    for panel in (sessions, history, mfa, whitelist):
        qtbot.addWidget(panel)
        run(loop, show(panel, 1000, 600))
        run(loop, panel.wait_idle())
        assert panel.loaded and panel.error_line.info is None
    assert shot(sessions, "sessions", language).stat().st_size > 0
    assert shot(history, "login-history", language).stat().st_size > 0
    success, failure = (tone_color(t, history.chart.palette()).name() for t in ("success", "error"))
    assert _has_color(history.chart, success) and _has_color(history.chart, failure)
    assert shot(mfa, "mfa", language).stat().st_size > 0
    if language == "vi":
        assert mfa.model.index(0, 0).data() == "Mã qua email"  # the server's label

    async def codes() -> None:
        task = asyncio.ensure_future(mfa.generate_codes())
        await answer_box(True)
        dialog = await task
        assert dialog is not None
        await asyncio.sleep(0.05)
        assert {label.text() for label in dialog.code_labels} == {MASK}
        shot(dialog, "backup-codes-generated", language)
        dialog.close()

    run(loop, codes())
    assert shot(whitelist, "ip-whitelist", language).stat().st_size > 0

    whitelist.model.setData(whitelist.model.index(1, ENTRY), "198.51.100.300")
    whitelist.model.add_entry("10.0.0.1/8")
    whitelist.add_edit.setText("2001:db8::/200")
    run(loop, asyncio.sleep(0.05))
    assert not whitelist.save_button.isEnabled()
    shot(whitelist, "ip-whitelist-invalid", language)

    whitelist.model.setData(whitelist.model.index(1, ENTRY), "198.51.100.30")
    whitelist.model.remove_row(3)
    whitelist.add_edit.clear()
    suffix = "" if language == "en" else f".{language}"

    async def lockout() -> None:
        task = asyncio.ensure_future(whitelist.enable())
        await answer_box(False, SHOTS / f"ip-whitelist-lockout-warning{suffix}.png")
        assert not await task

    run(loop, lockout())


def test_tour_hooks(
    loop: qasync.QEventLoop,
    client: Any,
    language: str,
    panel_context: Callable[..., Any],
    qtbot: Any,
) -> None:
    """``tour_ready`` loads; ``tour_steps`` open the masked codes and the lockout warning."""
    ctx = panel_context(client, tour=True)
    mfa, whitelist = MfaPanel(ctx), IpWhitelistPanel(ctx)
    for panel in (mfa, whitelist):
        qtbot.addWidget(panel)

    async def tour() -> list[str]:
        names = []
        for panel in (mfa, whitelist):
            await panel.tour_ready()
            assert panel.loaded
            for step in await panel.tour_steps():
                widget: Any = await step.prepare()
                names.append(step.name)
                if step.name == "mfa-backup-codes-generated":
                    assert {label.text() for label in widget.code_labels} == {MASK}
                if step.name == "ip-whitelist-lockout-warning":
                    assert "127.0.0.1" in widget.text()  # the address, in any language
                assert step.cleanup is not None
                await step.cleanup(widget)
        await mfa.wait_idle()
        await whitelist.wait_idle()
        return names

    assert run(loop, tour()) == [
        "mfa-backup-codes-generated",
        "ip-whitelist-invalid",
        "ip-whitelist-lockout-warning",
    ]
    assert whitelist.model.all_valid and not whitelist.model.dirty
    assert not run(loop, client.security.ip_whitelist()).enabled
    assert mfa.codes_dialog is None
