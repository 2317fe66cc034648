"""The Journal panel with intents and checkpoints: a change sent whose outcome was not
recorded shows as such (an intent with its outcome is not shown twice), and a journal that
disagrees with its signed checkpoints is shown broken, with the reason."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from portal_admin.evidence import journal as jr
from portal_admin.evidence import keys
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.panels.evidence.journal_panel import JournalPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import save_screenshot
from support.forgery import append_forged

from ..panel_support import SHOTS, run


@pytest.fixture
def make_panel(
    qtbot: QtBot, panel_context: Callable[..., PanelContext], key_store: keys.MemoryStore
) -> Iterator[Callable[[Path], JournalPanel]]:
    made: list[JournalPanel] = []

    def make(path: Path) -> JournalPanel:
        panel = JournalPanel(panel_context(None, kiosk=True), path=path, key_store=key_store)
        qtbot.addWidget(panel)
        made.append(panel)
        return panel

    yield make
    for panel in made:
        panel.close_tasks()


def change(target: str, intent_seq: int) -> dict[str, Any]:
    return {
        "operation": "accounts.status",
        "targets": [target],
        "outcome": "ok",
        "intent_seq": intent_seq,
        "request_id": f"req-{target}",
    }


def intent(target: str) -> dict[str, Any]:
    return {"kind": "intent", "operation": "accounts.status", "targets": [target]}


def test_an_intent_without_its_outcome_shows_as_sent_and_not_recorded(
    loop: qasync.QEventLoop, make_panel: Callable[[Path], JournalPanel], tmp_path: Path
) -> None:
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path)
    for record in (intent("ACC1"), change("ACC1", 1), intent("ACC2")):  # a kill after seq 3
        journal.append(record)
    panel = make_panel(path)
    run(loop, panel.reload())
    assert panel.table.rowCount() == 2
    rows = [[panel.table.item(r, c).text() for c in (0, 4, 6)] for r in range(2)]  # type: ignore[union-attr]
    assert rows == [["3", "ACC2", "Sent, outcome not recorded"], ["2", "ACC1", "Succeeded"]]
    assert "The chain verifies: 3 records" in panel.chain.text()


def test_a_journal_cut_below_its_checkpoint_is_shown_broken(
    loop: qasync.QEventLoop,
    make_panel: Callable[[Path], JournalPanel],
    tmp_path: Path,
    key_store: keys.MemoryStore,
) -> None:
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path, signer=lambda: keys.signing_key(key_store))
    for i in range(4):
        journal.append(intent(f"ACC{i}"))
    journal.close()  # a checkpoint of seq 4
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:2]))
    panel = make_panel(path)
    run(loop, panel.reload())
    assert panel.chain.text() == (
        "The journal does not match its signed checkpoints: truncated: the last checkpoint"
        " names seq 4, the journal ends at 2."
    )


@pytest.mark.parametrize("language", ["en", "ja"])
def test_records_no_one_vouches_for_are_said_to_be_not_authenticated(
    loop: qasync.QEventLoop,
    make_panel: Callable[[Path], JournalPanel],
    tmp_path: Path,
    key_store: keys.MemoryStore,
    language: str,
) -> None:
    """Two correctly chained records appended by another hand after a clean stop: the chain
    verifies, but the panel says they are not authenticated (a warning, not a success)."""
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path, signer=lambda: keys.signing_key(key_store))
    for record in (intent("ACC1"), change("ACC1", 1)):
        journal.append(record)
    journal.close()  # its checkpoint vouches for seq 1 and 2
    append_forged(path, change("NEVER1", 1), change("NEVER2", 1))
    languages = LanguageManager()
    languages.set_language(language)
    try:
        panel = make_panel(path)
        panel.resize(1000, 400)
        panel.show()
        run(loop, panel.reload())
        text = panel.chain.text()
        english = "But 2 record(s) are not authenticated (the first: record 3)"
        assert (english in text) == (language == "en"), text
        assert "2" in text and "3" in text
        assert panel.chain.property("tone") == "warning"
        save_screenshot(panel, SHOTS / f"journal-unauthenticated-{language}.png")
    finally:
        languages.set_language("en")
