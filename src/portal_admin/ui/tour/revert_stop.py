"""The tour's revert stop (#30): two accounts' status changed, one of them changed again
afterwards, and the plan of reverting both from the Journal panel: one line set back, one
skipped as changed since, with its value before, after and now (``revert-journal.png``,
``revert-plan.png``). Not in the kiosk, which offers no revert."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtWidgets import QTableWidget, QWidget

from portal_admin.client import before

from .screenshots import settle

if TYPE_CHECKING:
    from portal_admin.ui.mainwindow.workspace import Workspace
    from portal_admin.ui.panels.jobs.revert_plan import RevertWindow

log = logging.getLogger(__name__)


#: The change each stop makes, by the status the account has (the tour's earlier stops may
#: have suspended the active ones).
WAY = {"ACTIVE": "SUSPEND", "SUSPENDED": "ACTIVATE"}


async def make_changes(client: Any) -> dict[str, str]:
    """Change two accounts' status (suspend an active one, activate a suspended one; the
    status before recorded), then change the first again as someone else would after it:
    deactivated. Returns each account's id and the action the revert sets back."""
    me = await client.auth.profile()
    page = await client.accounts.query(size=100)
    chosen = [
        a
        for a in page.items
        if a.biz_id != me.biz_id and a.account_status and a.account_status.code in WAY
    ][:2]
    if len(chosen) < 2:
        raise RuntimeError("no two accounts to change")
    done = {}
    for account in chosen:
        action = WAY[account.account_status.code]
        await before.described(
            before.account_status(account, action),
            client.accounts.change_status(account.biz_id, action),
        )
        done[account.biz_id] = action
    # The same target changed again (as a second client would): the revert must leave it.
    await client.accounts.change_status(chosen[0].biz_id, "DEACTIVATE")
    return done


class Stops(Protocol):
    """What the revert stop uses of the tour's runner (``runner.Tour``, which imports this
    module): noting a problem, and saving a picture."""

    def problem(self, text: str) -> None: ...

    async def shot(self, widget: QWidget, name: str, delay: float = ...) -> object: ...


class JournalView(Protocol):
    """What the revert stop uses of the Journal panel (``ui/panels/evidence/journal_panel.py``):
    its table and the records it shows (newest first), reading the journal, and its Revert."""

    @property
    def table(self) -> QTableWidget: ...

    @property
    def shown_rows(self) -> Sequence[Mapping[str, Any]]: ...

    async def reload(self) -> object: ...

    def open_revert(self) -> RevertWindow | None: ...


def select_changes(panel: JournalView, changes: dict[str, str]) -> int:
    """Select in the Journal panel the newest record of each change; how many."""
    table = panel.table
    table.clearSelection()
    mode = table.selectionMode()
    table.setSelectionMode(table.SelectionMode.MultiSelection)
    left = dict(changes)
    for n, record in enumerate(panel.shown_rows):  # newest first
        targets = record.get("targets") or []
        action = (record.get("fields") or {}).get("action")
        hit = next((t for t in targets if left.get(t) == action), None)
        if record.get("kind") == "change" and hit is not None:
            table.selectRow(n)
            del left[hit]
    table.setSelectionMode(mode)
    return len(changes) - len(left)


async def visit_revert(
    workspace: Workspace, tour: Stops, quiet: Callable[[], Awaitable[None]]
) -> None:
    """The Journal panel with the two changes selected, then the revert's plan. ``tour`` is
    the runner's ``Tour``; ``quiet()`` waits until the program is idle."""
    main = workspace.window
    try:
        changes = await make_changes(workspace.service.client)
    except Exception as exc:
        tour.problem(f"revert stop: the changes failed: {type(exc).__name__}: {exc}")
        return
    from portal_admin.ui.panels.evidence.journal_panel import JournalPanel

    shown = main.show_panel("journal")
    if not isinstance(shown, JournalPanel):
        tour.problem("revert stop: no journal panel")
        return
    panel: JournalView = shown
    await panel.reload()
    await quiet()
    if select_changes(panel, changes) != len(changes):
        tour.problem("revert stop: the changes are not in the journal")
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
