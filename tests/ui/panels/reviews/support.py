"""Helpers for the Campaigns panel tests (no tests here); the shared ones are in
``panel_support``."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import qasync
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QFileDialog

from portal_admin.ui.panels.registry import LiveProfile
from portal_admin.ui.panels.reviews.panel import CampaignsPanel

from ..panel_support import answer_box, run

#: The account of the reviewer of the campaign files the tests make.
REVIEWER = "rev@example.test"

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


def opened(loop: qasync.QEventLoop, panel: CampaignsPanel, path: Path) -> CampaignsPanel:
    """The panel with the campaign file ``path`` open."""
    assert run(loop, panel.open_file(path)) is not None
    return panel


def row_of(panel: CampaignsPanel, label: str) -> int:
    """The queue's row of the item ``label``."""
    for row in range(panel.model.rowCount()):
        item = panel.model.item(row)
        if item is not None and item.label == label:
            return row
    raise AssertionError(label)


def select(panel: CampaignsPanel, *labels: str) -> None:
    """Select the items ``labels`` in the queue, as a person does."""
    panel.table.clearSelection()
    for n, label in enumerate(labels):
        row = row_of(panel, label)
        if n == 0:
            panel.table.selectRow(row)
        else:
            panel.table.selectionModel().select(
                panel.model.index(row, 0),
                panel.table.selectionModel().SelectionFlag.Select
                | panel.table.selectionModel().SelectionFlag.Rows,
            )
    panel._current_changed()  # what the zero timer does on the next turn of the loop


def decision(path: Path, label: str) -> str | None:
    """The decision the campaign file ``path`` holds for the item ``label``."""
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT decision FROM items WHERE label = ?", (label,)).fetchone()[0]


def key(loop: qasync.QEventLoop, panel: CampaignsPanel, which: Qt.Key) -> None:
    """Press the key ``which`` in the queue and wait for the panel."""
    panel.table.setFocus()
    QTest.keyClick(panel.table, which)
    run(loop, panel.wait_idle())
