"""The sign-in window offers reviewing a campaign file without signing in (docs/reviews.md),
except while unlocking, which is for the signed-in person only."""

from __future__ import annotations

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
