"""A campaign file passed from hand to hand, with markup in every text it carries (title,
reviewer, the accounts' ids, names and e-mails from its snapshot, justifications), opened in the
Campaigns panel signed out: nothing is interpreted (docs/threat-model.md, "Text shown in the
window")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from tests.reviews.support import ROLES, account, make_snapshot

from portal_admin.evidence import keys
from portal_admin.evidence.trust import TrustStore
from portal_admin.reviews import Settings, create_campaign
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.reviews.panel import CampaignsPanel
from portal_admin.ui.profiles.store import sandbox_profile
from support.hostile import MARKER, Walk

from ..panel_support import run
from .support import signed_in_as

REVIEWER = f"rev@example.test {MARKER}"


def hostile_campaign(folder: Path) -> Path:
    rows = []
    for n in range(1, 5):
        row = list(account(n))
        row[0] = f"{row[0]}{MARKER}"  # the id
        row[1] = f"user{n}@example.test{MARKER}"  # the e-mail
        row[2] = f"User {n} {MARKER}"  # the name
        rows.append(tuple(row))
    scope = make_snapshot(folder / "scope.sqlite3", rows, ROLES)
    path = folder / "hostile.review"
    settings = Settings(f"Q4 {MARKER}", "2026-12-15", reviewer=REVIEWER)
    create_campaign(path, scope, settings).close()
    return path


def test_a_hostile_campaign_file_is_shown_as_text(
    loop: qasync.QEventLoop, qtbot: Any, tmp_path: Path, runner: OperationRunner
) -> None:
    path = hostile_campaign(tmp_path)
    extras = {
        "live_profile": signed_in_as(REVIEWER, "ACC000009"),
        "evidence_trust_store": TrustStore(tmp_path / "trusted_keys.json"),
    }
    context = PanelContext(runner, sandbox_profile(), None, extras)
    panel = CampaignsPanel(context, folder=tmp_path, key_store=keys.MemoryStore())
    qtbot.addWidget(panel)
    panel.resize(1100, 700)
    panel.show()
    run(loop, panel.wait_idle())  # shown: it reads who reviews
    assert run(loop, panel.open_file(path)) is not None
    walk = Walk()
    for row in range(panel.model.rowCount()):
        panel.table.selectRow(row)
        panel._current_changed()
        panel.justification.setText(f"Left in October {MARKER}")
        walk.windows(f"row-{row}")
    assert not walk.problems, "\n".join(walk.problems)
    assert walk.literal, "the marker was not shown anywhere"
    assert walk.tooltips, "no tooltip carried the marker"
