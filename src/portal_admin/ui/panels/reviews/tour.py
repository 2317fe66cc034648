"""The Campaigns panel's stops of ``--tour``: the review queue (a campaign made from a
snapshot of the sandbox, a few items decided, the next one chosen with its justification
typed) and, signed in as an administrator, the question before signing off (naming the
items left undecided), the remediation dialog (the signers, their keys and trust), the
question before closing, and the closing check. The kiosk tour
shows the queue (without Remediate). Files go to a folder of their own, removed after."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any, cast

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QMessageBox, QPushButton, QWidget

from portal_admin.evidence import snapshot as snapshots
from portal_admin.reviews import Decision, Settings
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.tour.screenshots import TourStep

#: Turns of 20 ms a stop waits for its question to show (30 s).
QUESTION_WAIT = 1500


def steps(panel: Any, *, kiosk: bool) -> list[TourStep]:
    """The queue, then (not in the kiosk) the closing check (``panel``: the CampaignsPanel;
    not imported here, which imports this module)."""
    folder: list[Path] = []

    async def queue() -> QWidget:
        await panel.reload()  # who reviews: this installation's key, the signed-in account
        account = panel.identity.account_email if panel.identity is not None else ""
        folder.append(Path(await in_worker(tempfile.mkdtemp, "", "portal-admin-")))
        scope = folder[0] / "scope.sqlite"
        await snapshots.take_snapshot(
            panel.client, scope, server=str(panel.client.base_url), account=account
        )
        name = QCoreApplication.translate("CampaignsTour", "Q4 access review")
        settings = Settings(name, "2026-12-31", reviewer=account)
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

    async def question(button: QPushButton) -> QWidget:
        """Click ``button`` and show the question it asks (answered by ``confirmed``)."""
        button.click()
        for _ in range(QUESTION_WAIT):
            if panel.question is not None and panel.question.isVisible():
                return cast(QWidget, panel.question)
            await asyncio.sleep(0.02)
        return cast(QWidget, panel)  # refused before asking: its message says why

    async def confirmed(box: QWidget) -> None:
        """Confirm the question shown and wait for its step to end."""
        if isinstance(box, QMessageBox):
            confirm = next(
                b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole
            )
            confirm.click()
        await panel.wait_idle()

    async def sign_off() -> QWidget:
        return await question(panel.sign_button)

    async def remediation() -> QWidget:
        """Remediate…: who signed, their key and its trust (the administrator's own here)."""
        panel.remediate_button.click()
        await panel.wait_idle()
        dialog = panel.remediation_dialog
        return cast(QWidget, dialog if dialog is not None and dialog.isVisible() else panel)

    async def dismissed(widget: QWidget) -> None:
        if isinstance(widget, QDialog):
            widget.reject()

    async def close() -> QWidget:
        return await question(panel.close_button)

    async def closing() -> QWidget:
        return cast(QWidget, panel)

    async def tidy(_widget: QWidget) -> None:
        for made in folder:
            await in_worker(shutil.rmtree, made, True)
        folder.clear()

    if kiosk:
        return [TourStep("campaigns-queue", queue, tidy)]
    return [
        TourStep("campaigns-queue", queue),
        TourStep("campaigns-sign-off", sign_off, confirmed),
        TourStep("campaigns-remediation", remediation, dismissed),
        TourStep("campaigns-close", close, confirmed),
        TourStep("campaigns-closing", closing, tidy),
    ]
