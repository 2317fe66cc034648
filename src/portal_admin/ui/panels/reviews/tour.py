"""The Campaigns panel's stops of ``--tour``: the review queue (a campaign made from a
snapshot of the sandbox, a few items decided, the next one chosen with its justification
typed) and, signed in as an administrator, the closing check after sign-off. The kiosk tour
shows the queue (without Remediate). Files go to a folder of their own, removed after."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any, cast

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from portal_admin.evidence import snapshot as snapshots
from portal_admin.reviews import Decision, Settings
from portal_admin.ui.tour.screenshots import TourStep


def steps(panel: Any, *, kiosk: bool) -> list[TourStep]:
    """The queue, then (not in the kiosk) the closing check (``panel``: the CampaignsPanel;
    not imported here, which imports this module)."""
    folder: list[Path] = []

    async def queue() -> QWidget:
        await panel.reload()  # the reviewer's name from the signed-in account
        folder.append(Path(await asyncio.to_thread(tempfile.mkdtemp, prefix="portal-admin-")))
        scope = folder[0] / "scope.sqlite"
        await snapshots.take_snapshot(
            panel.client, scope, server=str(panel.client.base_url), account=panel.reviewer.text()
        )
        name = QCoreApplication.translate("CampaignsTour", "Q4 access review")
        settings = Settings(name, "2026-12-31", reviewer=panel.reviewer.text())
        await panel.create_campaign(folder[0] / "q4.review", scope, settings)
        for _ in range(3):  # Keep three items, each the next undecided after the last
            item = panel.model.item(panel.table.currentIndex().row())
            if item is not None and item.id in panel.model.own:  # another reviewer's to decide
                panel.next_undecided(after=item.seq)
                item = panel.model.item(panel.table.currentIndex().row())
            if item is not None and item.flag_count:
                panel.justification.setText(
                    QCoreApplication.translate("CampaignsTour", "Still on the support team")
                )
            await panel.decide(Decision.KEEP)
        panel.justification.setText(
            QCoreApplication.translate("CampaignsTour", "Left the company in October")
        )
        await panel.decide(Decision.REVOKE)
        panel.justification.setText(
            QCoreApplication.translate("CampaignsTour", "Contractor: ask the project lead")
        )
        await panel.update_progress()
        panel.table.setFocus()
        return cast(QWidget, panel)

    async def closing() -> QWidget:
        await panel.sign_off()
        await panel.close_campaign()
        return cast(QWidget, panel)

    async def tidy(_widget: QWidget) -> None:
        for made in folder:
            await asyncio.to_thread(shutil.rmtree, made, True)
        folder.clear()

    if kiosk:
        return [TourStep("campaigns-queue", queue, tidy)]
    return [TourStep("campaigns-queue", queue), TourStep("campaigns-closing", closing, tidy)]
