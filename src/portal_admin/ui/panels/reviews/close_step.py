"""Closing a campaign: asked first (naming the signed-off Revokes not carried out), then the
closing snapshot is taken, every decision checked against it in a worker thread and the
campaign closed; the check's outcomes are listed below the queue."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QAbstractItemView, QTableWidget, QTableWidgetItem, QWidget

from portal_admin.evidence import snapshot as snapshots
from portal_admin.reviews import CampaignError
from portal_admin.ui import enum_labels
from portal_admin.ui.error_info import ErrorInfo, describe_error
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

from . import confirmations, refusals, work
from .host import CampaignsHost

OUTCOMES = {
    "revoked and done": QT_TRANSLATE_NOOP("Campaigns", "Revoked and done"),
    "revoked, not done": QT_TRANSLATE_NOOP("Campaigns", "Revoked, not done"),
    "kept, changed meanwhile": QT_TRANSLATE_NOOP("Campaigns", "Kept, changed meanwhile"),
    "appeared after the scope": QT_TRANSLATE_NOOP("Campaigns", "Appeared after the scope"),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("Campaigns", text)


def closing_table(parent: QWidget) -> QTableWidget:
    """The table of the closing check's rows (hidden until there is one)."""
    table = QTableWidget(0, 4, parent)
    table.setObjectName("campaignClosing")
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.horizontalHeader().setStretchLastSection(True)
    table.verticalHeader().setVisible(False)
    table.setWordWrap(False)
    for column, width in enumerate((260, 220, 140)):
        table.setColumnWidth(column, width)
    table.setVisible(False)
    return table


def retranslate(table: QTableWidget) -> None:
    """The closing table's headers and name in the current language."""
    table.setHorizontalHeaderLabels(
        [
            QCoreApplication.translate("Campaigns", "Item"),
            QCoreApplication.translate("Campaigns", "Outcome"),
            QCoreApplication.translate("Campaigns", "State at closing"),
            QCoreApplication.translate("Campaigns", "Detail"),
        ]
    )
    table.setAccessibleName(QCoreApplication.translate("Campaigns", "Closing check"))


async def close_campaign(panel: CampaignsHost) -> dict[str, int] | None:
    """Ask first, naming the signed-off Revokes not carried out (closing leaves them for
    good); then take the closing snapshot, check every decision against it (a worker
    thread) and close the campaign; show the check. Any failure is said on screen."""
    campaign, client = panel.campaign, panel.client
    if campaign is None or client is None:
        return None
    path = campaign.path
    summary = QCoreApplication.translate("Campaigns", "The campaign was not closed.")
    try:
        not_done = await in_worker(work.revokes_not_done, path)
    except CampaignError as exc:
        panel.message.show_error(refusals.refusal(summary, exc, path.name))
        return None
    box, button = confirmations.close_box(panel.as_panel(), campaign.name, not_done)
    if not await panel.ask(box, button) or panel.campaign is not campaign:
        return None
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H%M%S")
    taken_path = path.with_name(f"{path.name}.closing-{stamp}.sqlite3")
    try:
        me = await panel.context.live_profile()
        account = str(getattr(me, "account_email", "") or "")
        await snapshots.take_snapshot(
            client, taken_path, profile=panel.context.profile.name,
            server=str(client.base_url), account=account,
        )  # fmt: skip
        counts = await in_worker(work.check_closing, path, taken_path, account)
        campaign.reload_meta()
    except CampaignError as exc:
        panel.message.show_error(refusals.refusal(summary, exc, path.name))
        return None
    except Exception as exc:  # the server, the snapshot file: said, never only logged
        info = describe_error(exc)
        panel.message.show_error(ErrorInfo(summary, info.summary, code=info.code))
        return None
    panel.message.show_notice(
        fill(
            QCoreApplication.translate(
                "Campaigns",
                "Closed. Revoked and done: %1; not done: %2; kept, changed meanwhile: %3;"
                " appeared after the scope: %4.",
            ),
            *counts.values(),
        )
    )
    await panel.show_closing()
    await panel.update_progress()
    return counts


async def show_closing(panel: CampaignsHost) -> None:
    """The closing check's rows below the queue."""
    if panel.campaign is None:
        return
    rows = await in_worker(work.closing_rows, panel.campaign.path)
    panel.closing.setRowCount(len(rows))
    for r, row in enumerate(rows):
        outcome = _tr(OUTCOMES[row.outcome]) if row.outcome in OUTCOMES else row.outcome
        state = enum_labels.own_label(enum_labels.ACCOUNT_STATUS, row.current) or row.current
        for c, text in enumerate((row.label, outcome, state, row.detail)):
            panel.closing.setItem(r, c, QTableWidgetItem(text))
    panel.closing.setVisible(True)
