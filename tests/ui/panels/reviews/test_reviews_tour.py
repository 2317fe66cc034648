"""The Campaigns panel's tour stops in English and Japanese (saved to
/tmp/shots/panels/campaigns-<language>/): the review queue and the closing check; the kiosk
tour's queue without Remediate."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync

from portal_admin.evidence import keys
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.reviews.panel import CampaignsPanel
from portal_admin.ui.profiles.store import sandbox_profile
from portal_admin.ui.tour.screenshots import run_tour

from ..panel_support import ADMIN, AUDITOR, SHOTS, run, sign_in_as


@pytest.fixture(params=["en", "ja"])
def language(request: pytest.FixtureRequest, qapp: Any) -> Iterator[str]:
    manager = LanguageManager()
    manager.set_language(request.param)
    try:
        yield request.param
    finally:
        manager.set_language("en")


@pytest.mark.parametrize("kiosk", [False, True])
def test_tour_stops(
    loop: qasync.QEventLoop,
    qtbot: Any,
    sandbox_app: Any,
    runner: OperationRunner,
    tmp_path: Path,
    language: str,
    kiosk: bool,
) -> None:
    who = AUDITOR if kiosk else ADMIN
    client = run(loop, sign_in_as(sandbox_app, *who, language, read_only=kiosk))
    try:
        extras = {"kiosk": True} if kiosk else {}
        context = PanelContext(runner, sandbox_profile(), client, extras)
        panel = CampaignsPanel(context, folder=tmp_path, key_store=keys.MemoryStore())
        qtbot.addWidget(panel)
        panel.resize(1366, 768)
        panel.show()
        steps = run(loop, panel.kiosk_tour_steps() if kiosk else panel.tour_steps())
        folder = SHOTS / f"campaigns-{language}{'-kiosk' if kiosk else ''}"
        saved = run(loop, run_tour(steps, folder))
        names = [p.name for p in saved]
        if kiosk:
            assert names == ["campaigns-queue.png"]
            assert not panel.remediate_button.isVisible()
        else:
            assert names == [
                "campaigns-queue.png",
                "campaigns-sign-off.png",
                "campaigns-remediation.png",
                "campaigns-close.png",
                "campaigns-closing.png",
            ]
            assert panel.closing.isVisible() and panel.closing.rowCount() >= 1
        assert panel.stats.decided >= 4
    finally:
        run(loop, client.aclose())
