"""Every reason a file cannot be used as a snapshot has its own translated sentence."""

from __future__ import annotations

import re
from pathlib import Path

from portal_admin.evidence import snapshot
from portal_admin.ui.panels.evidence import snapshots_panel

SOURCE = Path(snapshot.__file__).read_text(encoding="utf-8")


def test_every_snapshot_error_code_has_its_sentence() -> None:
    raised = set(re.findall(r'SnapshotError\(\s*"([A-Z_]+)"', SOURCE))
    assert raised <= set(snapshot.CODES), raised - set(snapshot.CODES)
    assert set(snapshot.CODES) == set(snapshots_panel.NOT_USABLE)


def test_the_sentence_names_the_file_and_its_reason(qtbot: object) -> None:
    error = snapshot.SnapshotError("DAMAGED", "x", Path("q4.sqlite3"))
    said = snapshots_panel.not_usable(error, Path("q4.sqlite3"))
    assert "q4.sqlite3" in said.message and "integrity" in said.message
