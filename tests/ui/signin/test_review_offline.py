"""The sign-in window offers reviewing a campaign file without signing in (docs/reviews.md),
except while unlocking, which is for the signed-in person only."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import qasync
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from portal_admin.ui.signin.window import SignInWindow


def test_review_a_campaign_file_is_offered_before_signing_in(
    qtbot: QtBot, window: SignInWindow
) -> None:
    window.show()
    assert window.review_button.isVisible()
    assert window.review_button.text() == "Re&view a campaign file\u2026"
    with qtbot.waitSignal(window.campaignReviewRequested, timeout=1000):
        window.review_button.click()
    window.pin_email("admin@sandbox.test")
    assert not window.review_button.isVisible()


def test_the_offline_window_opens_a_file_with_its_decisions_in_view(
    qapp: Any, loop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> None:
    """The program started, its sign-in window's button opens the offline review window
    (1,100 px wide) and its own file dialog; the file chosen opens in a worker thread and the
    queue's Decision column is within the window."""
    from tests.reviews.support import account, make_snapshot

    from portal_admin.reviews import Settings, create_campaign
    from portal_admin.ui.panels import register_all
    from portal_admin.ui.panels.registry import PanelRegistry
    from portal_admin.ui.panels.reviews.queue_model import DECISION_COLUMN
    from portal_admin.ui.session.sandbox_factory import create_sandbox_app
    from support.program import build_program

    scope = make_snapshot(tmp_path / "scope.sqlite3", [account(n) for n in range(1, 6)])
    path = tmp_path / "q4.review"
    create_campaign(path, scope, Settings("Q4 review", "2026-12-15")).close()
    sandbox = create_sandbox_app(":memory:", seed_accounts=5, test_clock=True)
    app = build_program(qapp, tmp_path, sandbox, register_all(PanelRegistry()))
    try:
        window = app.sign_in_window
        assert window is not None
        window.review_button.click()
        review = app.offline_reviews[-1]
        assert review.isVisible() and review.width() == 1100
        panel = review.panel
        dialog = next(d for d in panel.findChildren(QFileDialog) if d.isVisible())
        dialog.selectFile(str(path))
        dialog.accept()
        loop.run_until_complete(asyncio.wait_for(panel.wait_idle(), 30))
        assert panel.campaign is not None and panel.campaign.name == "Q4 review"
        header = panel.table.horizontalHeader()
        left = header.sectionViewportPosition(DECISION_COLUMN)
        assert left >= 0
        assert left + header.sectionSize(DECISION_COLUMN) <= panel.table.viewport().width()
        words = panel.table.fontMetrics().horizontalAdvance("Don't know")
        assert header.sectionSize(DECISION_COLUMN) >= words  # wide enough to read
    finally:
        loop.run_until_complete(app.close())
