"""Helpers for the Campaigns panel tests (no tests here); the shared ones are in
``panel_support``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import qasync
from PySide6.QtWidgets import QAbstractButton, QFileDialog

from portal_admin.ui.panels.registry import LiveProfile

from ..panel_support import answer_box, run

#: Where the campaign screenshots go (looked at in English and Japanese).
CAMPAIGN_SHOTS = Path("/tmp/shots/campaign-desktop")


def click_and_answer(
    loop: qasync.QEventLoop,
    panel: Any,
    button: QAbstractButton,
    accept: bool = True,
    shot: Path | None = None,
) -> str:
    """Click ``button`` as a person does, answer the question it asks (confirm or Cancel),
    and wait for the panel to finish; returns the question's text."""
    assert button.isVisible() and button.isEnabled(), button.objectName()
    button.click()
    text = run(loop, answer_box(accept, shot))
    run(loop, panel.wait_idle())
    return text


def open_through_dialog(loop: qasync.QEventLoop, panel: Any, path: Path) -> None:
    """Click "Open a campaign file…", choose ``path`` in its file dialog, and wait for the
    panel to finish."""
    panel.open_button.click()
    dialog = next(d for d in panel.findChildren(QFileDialog) if d.isVisible())
    dialog.selectFile(str(path))
    dialog.accept()
    run(loop, panel.wait_idle())


def signed_in_as(email: str, account_id: str) -> LiveProfile:
    """The live profile of a signed-in account (what ``GET /profile`` says), for a panel's
    context without a client."""

    async def fetch() -> Any:
        return SimpleNamespace(biz_id=account_id, account_email=email)

    return LiveProfile(fetch)
