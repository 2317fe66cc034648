"""Files of the Snapshots panel with markup in every text they carry, shown as text
(docs/threat-model.md, "Text shown in the window"): a pack whose label, summary and rows are
hostile, signed by a key the trust file names with markup; the list of trusted keys; the
question before removing one."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from pytestqt.qtbot import QtBot

from portal_admin.evidence import keys, pack
from portal_admin.evidence.trust import TrustStore
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.evidence.snapshots_panel import SnapshotsPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.profiles.store import sandbox_profile
from support.hostile import MARKER, Walk

from ..accounts.support import settle
from ..panel_support import run

pytestmark = pytest.mark.usefixtures("no_real_keyring")


@pytest.fixture
def panel(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    runner: OperationRunner,
    tmp_path: Path,
    trusted: TrustStore,
) -> Iterator[SnapshotsPanel]:
    context = PanelContext(runner=runner, profile=sandbox_profile(), client=None)
    snapshots = SnapshotsPanel(
        context, folder=tmp_path / "snapshots", key_store=keys.MemoryStore(), trust_store=trusted
    )
    qtbot.addWidget(snapshots)
    snapshots.resize(1000, 640)
    snapshots.show()
    run(loop, snapshots.reload())
    yield snapshots
    snapshots.close_tasks()


def test_a_hostile_pack_and_trust_file_are_shown_as_text(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, tmp_path: Path, trusted: TrustStore
) -> None:
    colleague = Ed25519PrivateKey.generate()
    trusted.add(keys.fingerprint(colleague.public_key()), f"Audit team {MARKER}")
    # Windows forbids < and > in file names: there the name carries the rest of the marker.
    named = MARKER[:4] if sys.platform != "win32" else "img src=x"
    path = tmp_path / f"pack {named}.zip"
    tables = {"accounts": (["id", "email"], [[f"u1{MARKER}", f"ann@example.com{MARKER}"]])}
    pack.write_pack(path, f"snapshot {MARKER}", tables, {"snapshot of": MARKER}, colleague)
    check = run(loop, panel.verify_file(path))
    assert check.trust == "trusted"
    run(loop, settle(0.1))
    walk = Walk()
    walk.windows("pack-check")
    dialog = run(loop, panel.open_trusted_keys())
    dialog.select(keys.fingerprint(colleague.public_key()))
    run(loop, settle(0.1))
    walk.windows("trusted-keys")
    box = dialog.ask_remove()
    assert box is not None
    run(loop, settle(0.1))
    walk.windows("remove-key")
    box.reject()
    dialog.close()
    assert not walk.problems, "\n".join(walk.problems)
    assert {"pack-check", "trusted-keys", "remove-key"} <= walk.literal, walk.literal


def test_a_hostile_journal_is_shown_as_text(
    loop: qasync.QEventLoop, qtbot: QtBot, runner: OperationRunner, tmp_path: Path
) -> None:
    """Every field of a journal record (local malware or a colleague's copy can write any)."""
    from portal_admin.evidence import journal as jr
    from portal_admin.ui.panels.evidence.journal_panel import JournalPanel

    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path)
    journal.append(
        {
            "operation": f"accounts.status{MARKER}",
            "targets": [f"ACC1{MARKER}", f"ann@example.com{MARKER}"],
            "outcome": f"ok{MARKER}",
            "field": f"status{MARKER}",
            "before": f"ACTIVE{MARKER}",
            "after": f"SUSPENDED{MARKER}",
            "reason": f"left {MARKER}",
            "request_id": f"req{MARKER}",
        }
    )
    journal.close()
    context = PanelContext(runner=runner, profile=sandbox_profile(), client=None)
    panel = JournalPanel(context, path=path, key_store=keys.MemoryStore())
    qtbot.addWidget(panel)
    panel.resize(1000, 640)
    panel.show()
    try:
        run(loop, panel.reload())
        panel.table.selectRow(0)
        run(loop, settle(0.1))
        walk = Walk()
        walk.windows("journal")
    finally:
        panel.close_tasks()
    assert not walk.problems, "\n".join(walk.problems)
    assert "journal" in walk.literal and "journal" in walk.tooltips


def test_a_diff_of_hostile_snapshots_is_shown_as_text(qtbot: QtBot, tmp_path: Path) -> None:
    """Two snapshots (a colleague's files) whose accounts carry markup, compared."""
    from tests.reviews.support import account, make_snapshot

    from portal_admin.evidence.diff import diff_snapshots
    from portal_admin.ui.panels.evidence.diff_view import DiffView

    def hostile(n: int, status: str) -> tuple[object, ...]:
        row = list(account(n, status=status, email=f"user{n}@example.test{MARKER}"))
        row[2] = f"User {n} {MARKER}"
        return tuple(row)

    old = make_snapshot(tmp_path / "old.sqlite3", [hostile(1, "ACTIVE"), hostile(2, "ACTIVE")])
    new = make_snapshot(
        tmp_path / "new.sqlite3",
        [hostile(1, "SUSPENDED"), hostile(3, f"ACTIVE{MARKER}")],
    )
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    view.show_diff(diff_snapshots(old, new))
    walk = Walk()
    walk.windows("diff")
    assert not walk.problems, "\n".join(walk.problems)
    assert "diff" in walk.literal and "diff" in walk.tooltips
