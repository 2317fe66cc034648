"""The tour's revert stop (#30): two accounts suspended, one of them changed again afterwards,
and the plan of reverting both from the Journal panel: one line set back, one skipped as
changed since, with its value before, after and now (``revert-journal.png``,
``revert-plan.png``). Not in the kiosk, which offers no revert."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from portal_admin.client import before

from .screenshots import settle

if TYPE_CHECKING:
    from portal_admin.ui.mainwindow.workspace import Workspace

    from .runner import Application, Tour

log = logging.getLogger(__name__)


async def make_changes(client: Any) -> tuple[str, str]:
    """Suspend two active accounts (their status before recorded), then change the first
    again as someone else would after it: deactivated. Returns the two ids."""
    me = await client.auth.profile()
    page = await client.accounts.query(status="ACTIVE", size=20)
    first, second = [a for a in page.items if a.biz_id != me.biz_id][:2]
    for account in (first, second):
        await before.described(
            before.account_status(account, "SUSPEND"),
            client.accounts.change_status(account.biz_id, "SUSPEND"),
        )
    # The same target changed again (as a second client would): the revert must leave it.
    await client.accounts.change_status(first.biz_id, "DEACTIVATE")
    return first.biz_id, second.biz_id


async def visit_revert(app: Application, workspace: Workspace, tour: Tour) -> None:
    """The Journal panel with the two suspensions selected, then the revert's plan."""
    from .runner import quiet

    main = workspace.window
    try:
        ids = set(await make_changes(workspace.service.client))
    except Exception as exc:
        tour.problem(f"revert stop: the changes failed: {type(exc).__name__}: {exc}")
        return
    panel: Any = main.show_panel("journal")
    if panel is None or not hasattr(panel, "open_revert"):
        tour.problem("revert stop: no journal panel")
        return
    await panel.reload()
    await quiet(app)
    table = panel.table
    table.clearSelection()
    mode = table.selectionMode()
    table.setSelectionMode(table.SelectionMode.MultiSelection)
    for n, record in enumerate(panel.shown_rows):
        suspended = (record.get("before") or {}).get("status") == "ACTIVE"
        if record.get("kind") == "change" and suspended and set(record.get("targets") or []) & ids:
            table.selectRow(n)
    table.setSelectionMode(mode)
    await tour.shot(main, "revert-journal", 0.3)
    window = panel.open_revert()
    if window is None:
        tour.problem("revert stop: Revert… is not offered")
        return
    try:
        if window.planning is not None:
            await window.planning
        await settle(0.2)
        if window.job is None:
            tour.problem(f"revert stop: no plan: {window.summary.text()}")
        await tour.shot(window, "revert-plan", 0.3)
    finally:
        window.close()  # the plan is not run: it is not kept
        window.deleteLater()
