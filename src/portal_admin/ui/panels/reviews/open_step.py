"""Opening a campaign: a file chosen (its checks in a worker thread, with a time limit, so
a hostile file never holds the window; a refusal in the reader's language), or a new one
made from a snapshot in the Create dialog."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication

from portal_admin.reviews import Campaign, CampaignError
from portal_admin.ui.error_info import ErrorInfo, describe_error
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.widgets import file_dialogs

from . import refusals, work
from .create_dialog import CreateDialog
from .host import CampaignsHost

#: Seconds the engine's checks of a file may take when the panel opens it (a 100,000-item
#: file takes well under one); past them, and a few more, the panel gives up waiting.
OPEN_LIMIT = 10.0
OPEN_GRACE = 5.0


def ask_open(panel: CampaignsHost) -> None:
    """Ask which campaign file to open; open it."""
    file_dialogs.ask_open(
        panel.as_panel(),
        QCoreApplication.translate("Campaigns", "Campaigns (*.review);;All files (*)"),
        lambda path: panel.spawn(panel.open_file(path)),
    )


async def open_file(panel: CampaignsHost, path: Path) -> Campaign | None:
    """Show the campaign at ``path``: the engine's checks of the file run in a worker
    thread, with a time limit (a hostile file never holds the window); a refusal says
    its cause in the reader's language."""
    summary = QCoreApplication.translate("Campaigns", "This file cannot be used as a campaign.")
    try:
        checking = in_worker(work.check_open, path, OPEN_LIMIT)
        await asyncio.wait_for(checking, OPEN_LIMIT + OPEN_GRACE)
        # checked: the loop's own connection (the queue's SQL runs on it) opens at once
        campaign = Campaign.reopen(path)
    except TimeoutError:  # the engine's own limit did not stop it: given up all the same
        exc = CampaignError("TOO_SLOW", f"{path.name} was not read in time")
        panel.message.show_error(refusals.refusal(summary, exc, path.name))
        return None
    except CampaignError as exc:
        panel.message.show_error(refusals.refusal(summary, exc, path.name))
        return None
    except OSError as exc:
        panel.message.show_error(ErrorInfo(summary, describe_error(exc).summary))
        return None
    if panel.campaign is not None:
        panel.campaign.close()
    panel.campaign = campaign
    panel.message.clear()
    panel.filters.fill(campaign)
    panel.mark_own()
    panel.model.set_campaign(campaign, panel.query())
    panel.closing.setVisible(False)
    if campaign.meta.get("closing"):
        await panel.show_closing()
    panel.enable()
    await panel.update_progress()
    panel.retranslateUi()
    if panel.model.rowCount():
        panel.table.selectRow(0)
    return campaign


def open_create(panel: CampaignsHost, snapshot: Path | None = None) -> CreateDialog:
    """The dialog that makes a campaign from a snapshot (``snapshot`` chosen; not modal)."""
    if panel.create_dialog is None:
        panel.create_dialog = CreateDialog(panel.folder, panel.as_panel())
        panel.create_dialog.createRequested.connect(
            lambda path, snap, settings: panel.spawn(panel.create_campaign(path, snap, settings))
        )
    panel.create_dialog.fill_snapshots(snapshot)
    panel.create_dialog.show()
    panel.create_dialog.raise_()
    return panel.create_dialog


async def create_campaign(
    panel: CampaignsHost, path: Path, snapshot: Path, settings: Any
) -> Campaign | None:
    """Make the campaign from ``snapshot`` (a worker thread) and open it."""
    try:
        await in_worker(work.create, path, snapshot, settings)
    except CampaignError as exc:
        summary = QCoreApplication.translate("Campaigns", "The campaign could not be created.")
        info = refusals.refusal(summary, exc, path.name)
        if panel.create_dialog is not None:
            panel.create_dialog.show_error(info.message)
        panel.message.show_error(info)
        return None
    if panel.create_dialog is not None:
        panel.create_dialog.hide()
    return await panel.open_file(path)
