"""The Campaigns panel (ui/panels/reviews/) on campaign files, signed out: create from a
snapshot, keyboard deciding, required justification, multi-select, filters, progress,
overdue, the own account refused, sign-off freezing, verification naming an edited item."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import qasync
from panel_support import SHOTS, run
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_reviews_support import (
    CAMPAIGN_SHOTS,
    click_and_answer,
    open_through_dialog,
    signed_in_as,
)
from tests.reviews.support import INVITATIONS, ROLES, account, make_snapshot

from portal_admin.evidence import keys
from portal_admin.evidence.trust import TrustStore
from portal_admin.reviews import Campaign, Settings, create_campaign
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.reviews.panel import CampaignsPanel
from portal_admin.ui.panels.reviews.queue_model import QueueModel
from portal_admin.ui.profiles.store import sandbox_profile
from portal_admin.ui.tour.screenshots import save_screenshot

REVIEWER = "rev@example.test"


@pytest.fixture
def scope(tmp_path: Path) -> Path:
    return make_snapshot(
        tmp_path / "scope.sqlite3",
        [
            account(1),
            account(2),
            account(3, portal="SYSTEM"),  # flagged ADMIN
            account(4, updated="2025-01-01T00:00:00+00:00"),  # flagged STALE
            account(6, email=REVIEWER),  # the reviewer's own
            account(9, status="SUSPENDED", portal="PARTNER", institution="INS2"),
        ],
        ROLES,
        INVITATIONS,
    )


@pytest.fixture
def campaign_path(tmp_path: Path, scope: Path) -> Path:
    create_campaign(tmp_path / "q4.review", scope, Settings("Q4 review", "2026-12-15")).close()
    return tmp_path / "q4.review"


@pytest.fixture
def make_panel(
    loop: qasync.QEventLoop, qtbot: Any, tmp_path: Path, runner: OperationRunner
) -> Callable[..., CampaignsPanel]:
    """A panel whose reviewer is this installation's key and the account REVIEWER (the
    profile the server would give: ``signed_in_as``)."""
    store = keys.MemoryStore()

    def make(client: Any = None, **extras: Any) -> CampaignsPanel:
        extras.setdefault("live_profile", signed_in_as(REVIEWER, "ACC000006"))
        extras.setdefault("evidence_trust_store", TrustStore(tmp_path / "trusted_keys.json"))
        context = PanelContext(runner, sandbox_profile(), client, extras)
        panel = CampaignsPanel(context, folder=tmp_path, key_store=store)
        qtbot.addWidget(panel)
        panel.resize(1100, 700)
        panel.show()
        run(loop, panel.wait_idle())  # shown: it reads who reviews
        assert panel.identity is not None
        return panel

    return make


def opened(loop: qasync.QEventLoop, panel: CampaignsPanel, path: Path) -> CampaignsPanel:
    assert run(loop, panel.open_file(path)) is not None
    return panel


def row_of(panel: CampaignsPanel, label: str) -> int:
    for row in range(panel.model.rowCount()):
        item = panel.model.item(row)
        if item is not None and item.label == label:
            return row
    raise AssertionError(label)


def select(panel: CampaignsPanel, *labels: str) -> None:
    panel.table.clearSelection()
    for n, label in enumerate(labels):
        row = row_of(panel, label)
        if n == 0:
            panel.table.selectRow(row)
        else:
            panel.table.selectionModel().select(
                panel.model.index(row, 0),
                panel.table.selectionModel().SelectionFlag.Select
                | panel.table.selectionModel().SelectionFlag.Rows,
            )
    panel._current_changed()  # what the zero timer does on the next turn of the loop


def decision(path: Path, label: str) -> str | None:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT decision FROM items WHERE label = ?", (label,)).fetchone()[0]


def key(loop: qasync.QEventLoop, panel: CampaignsPanel, which: Qt.Key) -> None:
    panel.table.setFocus()
    QTest.keyClick(panel.table, which)
    run(loop, panel.wait_idle())


def test_model_passes_qtmodeltester(
    loop: qasync.QEventLoop, qtmodeltester: Any, campaign_path: Path
) -> None:
    model = QueueModel()
    with Campaign.open(campaign_path) as campaign:
        model.set_campaign(campaign)
        assert model.rowCount() == campaign.count()
        qtmodeltester.check(model)


def test_create_from_a_snapshot(
    loop: qasync.QEventLoop, tmp_path: Path, scope: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    (tmp_path / "snaps").mkdir()
    scope.rename(tmp_path / "snaps" / "scope.sqlite")
    panel = make_panel()
    panel.folder = tmp_path / "snaps"
    panel.new_button.click()  # as a person does: the button's click passes no snapshot
    dialog = panel.create_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.snapshot.count() == 1
    dialog.name.setText("Spring review")
    dialog.file.setText(str(tmp_path / "spring.review"))
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    run(loop, panel.wait_idle())
    assert panel.campaign is not None and panel.campaign.name == "Spring review"
    assert panel.model.rowCount() == panel.campaign.count() > 0
    assert "0 of" in panel.progress.text()


def test_keyboard_decides_and_moves_to_the_next_undecided(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = opened(loop, make_panel(), campaign_path)
    select(panel, "user1@example.test")
    key(loop, panel, Qt.Key.Key_K)  # unflagged: Keep needs no justification
    assert decision(campaign_path, "user1@example.test") == "KEEP"
    current = panel.model.item(panel.table.currentIndex().row())
    assert current is not None and current.label == "user2@example.test"
    key(loop, panel, Qt.Key.Key_J)
    assert panel.justification.hasFocus()
    panel.justification.setText("left in October")
    key(loop, panel, Qt.Key.Key_R)
    assert decision(campaign_path, "user2@example.test") == "REVOKE"
    assert panel.justification.text() == ""  # cleared once recorded
    panel.justification.setText("ask the team lead")
    key(loop, panel, Qt.Key.Key_D)
    assert decision(campaign_path, "user3@example.test") == "DONT_KNOW"
    run(loop, panel.update_progress())
    assert panel.progress.text().startswith("3 of ")
    assert f"{REVIEWER}: 3" in panel.progress.text()  # per reviewer
    undecided = [r for r in range(panel.model.rowCount()) if panel.model.item(r).decision is None]
    panel.table.selectRow(undecided[1])  # the next button goes on after it, not from the top
    panel.next_button.click()  # the button (its click passes no row)
    assert panel.table.currentIndex().row() == undecided[2]


@pytest.mark.parametrize(
    ("label", "which", "words"),
    [
        ("user1@example.test", Qt.Key.Key_R, "to revoke"),
        ("user1@example.test", Qt.Key.Key_D, "Don't know"),
        ("user3@example.test", Qt.Key.Key_K, "to keep a flagged item"),
    ],
)
def test_a_justification_is_required(
    loop: qasync.QEventLoop,
    campaign_path: Path,
    make_panel: Callable[..., CampaignsPanel],
    label: str,
    which: Qt.Key,
    words: str,
) -> None:
    panel = opened(loop, make_panel(), campaign_path)
    select(panel, label)
    key(loop, panel, which)
    assert decision(campaign_path, label) is None
    assert words in panel.required.text()
    assert panel.justification.hasFocus()


def test_a_refusal_keeps_what_was_typed(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = opened(loop, make_panel(), campaign_path)
    select(panel, "user1@example.test", REVIEWER)
    panel.justification.setText("contract ended")
    key(loop, panel, Qt.Key.Key_R)
    assert decision(campaign_path, "user1@example.test") is None  # all or nothing
    assert panel.justification.text() == "contract ended"
    assert "your own account" in panel.message.text
    assert REVIEWER in panel.message.text


def test_own_account_flagged_and_refused(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = opened(loop, make_panel(), campaign_path)
    row = row_of(panel, REVIEWER)
    assert "Own account" in panel.model.index(row, 6).data()
    select(panel, REVIEWER)
    assert "Your own account" in panel.detail.text()
    panel.justification.setText("still here")
    key(loop, panel, Qt.Key.Key_K)
    assert decision(campaign_path, REVIEWER) is None
    assert "another reviewer decides it" in panel.message.text


def test_multi_select_decides_many_with_one_justification(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = opened(loop, make_panel(), campaign_path)
    select(panel, "user1@example.test", "user2@example.test", "user9@example.test")
    assert "3 items selected" in panel.detail.text()
    panel.justification.setText("the partner contract ended")
    panel.revoke_button.click()
    run(loop, panel.wait_idle())
    with sqlite3.connect(campaign_path) as conn:
        rows = conn.execute(
            "SELECT i.label, d.justification FROM items i JOIN decisions d"
            " ON d.seq = i.decision_seq ORDER BY i.seq"
        ).fetchall()
    assert rows == [(f"user{n}@example.test", "the partner contract ended") for n in (1, 2, 9)]


def test_filters(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = opened(loop, make_panel(), campaign_path)
    total = panel.model.rowCount()
    select(panel, "user1@example.test")
    key(loop, panel, Qt.Key.Key_K)

    def show(code: str) -> int:
        panel.show_filter.setCurrentIndex(panel.show_filter.findData(code))
        panel.apply_filters()
        return panel.model.rowCount()

    assert show("UNDECIDED") == total - 1
    assert show("KEEP") == 1
    assert show("FLAGGED") == panel.campaign.count(panel.query()) > 0  # type: ignore[union-attr]
    assert show("") == total
    panel.flag_filter.setCurrentIndex(panel.flag_filter.findData("ADMIN"))
    panel.apply_filters()
    assert [panel.model.item(r).label for r in range(panel.model.rowCount())] == [  # type: ignore[union-attr]
        "user3@example.test"
    ]
    panel.flag_filter.setCurrentIndex(0)
    panel.decision_portal.setCurrentIndex(panel.decision_portal.findData("PARTNER"))
    panel.apply_filters()
    assert panel.model.rowCount() == 1
    panel.decision_portal.setCurrentIndex(0)
    panel.institution_filter.setCurrentIndex(panel.institution_filter.findData("INS2"))
    panel.apply_filters()
    assert panel.model.rowCount() == 1
    panel.institution_filter.setCurrentIndex(0)
    panel.text_filter.setText("user2@")
    panel.apply_filters()
    assert panel.model.rowCount() == 1


def test_overdue_marked(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = opened(loop, make_panel(), campaign_path)
    run(loop, panel.update_progress(today=date(2026, 12, 1)))
    assert panel.due.property("overdue") is False
    assert "overdue" not in panel.due.text()
    run(loop, panel.update_progress(today=date(2027, 1, 5)))
    assert panel.due.property("overdue") is True
    assert f"{panel.stats.items} items late" in panel.due.text()


def test_sign_off_freezes_then_verify_names_an_edited_item(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = opened(loop, make_panel(), campaign_path)
    select(panel, "user1@example.test")
    key(loop, panel, Qt.Key.Key_K)
    click_and_answer(loop, panel, panel.sign_button)
    assert "Signed off by" in panel.message.text
    assert not panel.keep_button.isEnabled()
    select(panel, "user2@example.test")
    key(loop, panel, Qt.Key.Key_K)  # refused: frozen
    assert decision(campaign_path, "user2@example.test") is None
    assert "frozen" in panel.message.text
    check = run(loop, panel.verify())
    assert check.status == "intact"
    with sqlite3.connect(campaign_path) as conn:  # someone edits the file afterwards
        conn.execute("UPDATE decisions SET justification = 'edited' WHERE item LIKE 'account:%'")
    check = run(loop, panel.verify())
    assert check.status == "changed"
    assert "changed: account:ACC000001" in panel.message.text


def test_not_a_campaign_is_said_plainly(
    loop: qasync.QEventLoop, tmp_path: Path, scope: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = make_panel()
    assert run(loop, panel.open_file(scope)) is None
    assert "not a campaign file" in panel.message.text


def test_a_campaign_carrying_a_trigger_is_refused_and_said_so(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    with sqlite3.connect(campaign_path) as conn:  # it would turn each Revoke into a Keep
        conn.execute(
            "CREATE TRIGGER soften AFTER INSERT ON decisions BEGIN"
            " UPDATE items SET decision = 'KEEP' WHERE id = NEW.item; END"
        )
    panel = make_panel()
    panel.resize(900, 400)
    panel.show()
    assert run(loop, panel.open_file(campaign_path)) is None
    assert panel.campaign is None
    assert "carries triggers, views, tables or indexes" in panel.message.text
    assert "behind your back" in panel.message.text
    save_screenshot(panel, SHOTS / "campaign-foreign-sql.png")
    languages = LanguageManager()
    languages.set_language("ja")
    try:
        assert run(loop, panel.open_file(campaign_path)) is None
        assert "トリガー" in panel.message.text
        save_screenshot(panel, SHOTS / "campaign-foreign-sql-ja.png")
    finally:
        languages.set_language("en")


def test_a_row_damaged_after_opening_is_refused_by_name_not_a_crash(
    loop: qasync.QEventLoop,
    qtbot: Any,
    campaign_path: Path,
    make_panel: Callable[..., CampaignsPanel],
) -> None:
    """A row edited behind the program's back once the file is open (its detail no longer
    JSON): the queue's lazy read of that page is refused by the engine (DAMAGED). The panel
    says so, in the reader's language, once; the view gets no rows of that page and no
    exception; the repaint does not read the failing page again."""
    panel = opened(loop, make_panel(), campaign_path)
    assert panel.model.rowCount() > 1
    with sqlite3.connect(campaign_path) as conn:  # another program edits the open file
        conn.execute("UPDATE items SET detail = '{not json' WHERE label = 'user2@example.test'")
    refused: list[Any] = []
    panel.model.refused.connect(refused.append)
    languages = LanguageManager()
    languages.set_language("ja")
    try:
        panel.refresh()  # F5: the queue is read again, a page at a time
        index = panel.model.index(0, 0)
        for _ in range(5):  # a view asks again at each repaint
            assert panel.model.data(index) is None
        assert panel.model.item(0) is None
        assert [e.code for e in refused] == ["DAMAGED"]  # once, not at each repaint
        panel.table.viewport().repaint()
        qtbot.waitUntil(lambda: panel.message.isVisible(), timeout=2000)
        assert "破損" in panel.message.text, panel.message.text
        assert campaign_path.name in panel.message.text
        assert "DAMAGED" in panel.message.text  # the engine's code, said with its sentence
        panel._current_changed()  # the item's detail asks nothing that raises
    finally:
        languages.set_language("en")
    panel.show_unreadable(refused[0])
    assert "is damaged" in panel.message.text


def test_access_reviews_starts_a_campaign_of_the_selected_snapshot(
    loop: qasync.QEventLoop,
    qtbot: Any,
    tmp_path: Path,
    scope: Path,
    runner: OperationRunner,
    make_panel: Callable[..., CampaignsPanel],
) -> None:
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from portal_admin.ui.panels.evidence.snapshots_panel import SnapshotsPanel

    scope.rename(tmp_path / "scope.sqlite")
    campaigns = make_panel()

    class Window(QWidget):
        def show_panel(self, panel_id: str) -> QWidget | None:
            return campaigns if panel_id == "campaigns" else None

    window = Window()
    qtbot.addWidget(window)
    snapshots = SnapshotsPanel(PanelContext(runner, sandbox_profile()), window, folder=tmp_path)
    QVBoxLayout(window).addWidget(snapshots)
    run(loop, snapshots.reload())
    assert not snapshots.campaign_button.isEnabled()
    snapshots.table.selectRow(0)
    assert snapshots.campaign_button.isEnabled()
    snapshots.campaign_button.click()
    dialog = campaigns.create_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.snapshot.currentData() == tmp_path / "scope.sqlite"


def test_flag_reasons_are_said_in_the_interface_language(qapp: Any) -> None:
    from portal_admin.reviews import Flag
    from portal_admin.ui.i18n.translators import LanguageManager
    from portal_admin.ui.panels.reviews.queue_model import reason_words

    stale = Flag("STALE", "not updated for 256 days (since 2026-03-15)")
    assert reason_words(stale) == stale.reason  # English as the engine wrote it
    languages = LanguageManager()
    languages.set_language("ja")
    try:
        assert reason_words(stale) == "256 日間更新なし（2026-03-15 以降）"
        assert reason_words(Flag("ADMIN", "a system-portal (administrator) account")) == (
            "システムポータル（管理者）アカウント"
        )
        assert reason_words(Flag("NEW", "something new")) == "something new"  # as written
    finally:
        languages.set_language("en")


@pytest.mark.parametrize("width", [1100, 800])
def test_the_decision_stays_in_view_at_any_width(
    loop: qasync.QEventLoop, qtbot: Any, campaign_path: Path, runner: OperationRunner, width: int
) -> None:
    from portal_admin.ui.panels.reviews.offline import OfflineReviewWindow
    from portal_admin.ui.panels.reviews.queue_model import DECISION_COLUMN

    store = {"evidence_key_store": keys.MemoryStore()}  # not the real keyring
    window = OfflineReviewWindow(runner, sandbox_profile(), extras=store)
    qtbot.addWidget(window)
    window.show()
    window.resize(width, 720)
    panel = window.panel
    assert run(loop, panel.open_file(campaign_path)) is not None
    select(panel, "user1@example.test")
    key(loop, panel, Qt.Key.Key_K)
    qtbot.waitUntil(lambda: window.width() == width)
    header = panel.table.horizontalHeader()
    left = header.sectionViewportPosition(DECISION_COLUMN)
    size = header.sectionSize(DECISION_COLUMN)
    row = row_of(panel, "user1@example.test")
    words = panel.model.index(row, DECISION_COLUMN).data()
    assert words == "Keep"
    assert left >= 0 and left + size <= panel.table.viewport().width()
    metrics = panel.table.fontMetrics()
    assert size >= max(metrics.horizontalAdvance(w) for w in ("Keep", "Revoke", "Don't know"))
    assert panel.table.horizontalScrollBar().value() == 0


def test_text_from_the_file_is_shown_as_written(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    from PySide6.QtGui import Qt as GuiQt
    from PySide6.QtGui import QTextDocument

    title = "<b>x</b><img src=file:///dev/zero>"
    reviewer = "<b>rev</b>"
    justification = "<img src=file:///dev/zero> <b>gone</b>"
    reason = "<i>crafted</i> reason"
    with sqlite3.connect(campaign_path) as conn:  # a crafted file: written by hand
        conn.execute("UPDATE meta SET value = ? WHERE key = 'name'", (json.dumps(title),))
        conn.execute("UPDATE meta SET value = ? WHERE key = 'due'", (json.dumps("<u>soon</u>"),))
        conn.execute("UPDATE items SET id = 'account:<b>A1</b>' WHERE label = 'user1@example.test'")
        conn.execute(
            "INSERT INTO decisions (item, decision, justification, reviewer, fingerprint,"
            " decided_at, source) VALUES ('account:<b>A1</b>', 'REVOKE', ?, ?, 'ab', ?, 'cli')",
            (justification, reviewer, "2026-11-20T10:00:00.000+00:00"),
        )
        conn.execute(
            "UPDATE items SET decision = 'REVOKE', decision_seq = last_insert_rowid(),"
            " flags = 1 WHERE id = 'account:<b>A1</b>'"
        )
        conn.execute(
            "INSERT INTO flags (item, code, reason) SELECT seq, 'ADMIN', ? FROM items"
            " WHERE id = 'account:<b>A1</b>'",
            (reason,),
        )
    panel = make_panel()
    labels = (panel.title, panel.due, panel.progress, panel.detail, panel.reviewer)
    for label in labels:  # checked first: rendered as HTML, the title would read /dev/zero
        assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName()
    opened(loop, panel, campaign_path)
    run(loop, panel.update_progress())
    select(panel, "user1@example.test")
    shown = {
        panel.title: title,
        panel.due: "<u>soon</u>",
        panel.progress: f"{reviewer}: 1",
        panel.detail: justification,
    }
    for label, text in shown.items():
        assert GuiQt.mightBeRichText(text)  # Qt would render it, unless told not to
        assert text in label.text()
        assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName()
    assert reason in panel.detail.text()
    # the title as drawn is as wide as its literal text (HTML would draw a bold "x" only)
    assert panel.title.sizeHint().width() >= panel.title.fontMetrics().horizontalAdvance(title)
    tip = panel.model.index(row_of(panel, "user1@example.test"), 0).data(
        Qt.ItemDataRole.ToolTipRole
    )
    document = QTextDocument()
    document.setHtml(tip)  # a tooltip that looks like HTML is drawn as HTML
    assert document.toPlainText() == "account:<b>A1</b>"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_signing_off_with_undecided_items_is_asked_first(
    loop: qasync.QEventLoop,
    campaign_path: Path,
    make_panel: Callable[..., CampaignsPanel],
    language: str,
) -> None:
    languages = LanguageManager()
    languages.set_language(language)
    try:
        panel = opened(loop, make_panel(), campaign_path)
        select(panel, "user1@example.test")
        key(loop, panel, Qt.Key.Key_K)
        undecided = panel.campaign.count() - 1  # type: ignore[union-attr]
        shot = CAMPAIGN_SHOTS / f"sign-off-confirm-{language}.png"
        asked = click_and_answer(loop, panel, panel.sign_button, accept=False, shot=shot)
        assert str(undecided) in asked
        if language == "en":
            assert f"Items still undecided: {undecided}." in asked
        assert panel.campaign is not None and not panel.campaign.is_signed()  # Cancel: nothing
        assert panel.keep_button.isEnabled()
        asked = click_and_answer(loop, panel, panel.sign_button, accept=True)
        assert panel.campaign.is_signed()
        assert not panel.keep_button.isEnabled()
        with sqlite3.connect(campaign_path) as conn:  # signed as they were: undecided
            left = conn.execute("SELECT count(*) FROM items WHERE decision IS NULL").fetchone()
        assert left[0] == undecided
    finally:
        languages.set_language("en")


def test_signing_off_with_every_item_decided_asks_plainly(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    panel = opened(loop, make_panel(), campaign_path)
    with sqlite3.connect(campaign_path) as conn:
        rows = conn.execute("SELECT id FROM items WHERE id NOT LIKE ?", (f"%{REVIEWER}%",))
        ids = [r[0] for r in rows]
    for label in [panel.model.item(r).label for r in range(panel.model.rowCount())]:  # type: ignore[union-attr]
        if label != REVIEWER:
            select(panel, label)
            panel.justification.setText("still needed")
            key(loop, panel, Qt.Key.Key_K)
    assert ids
    run(loop, panel.update_progress())
    undecided = panel.stats.items - panel.stats.decided
    asked = click_and_answer(loop, panel, panel.sign_button, accept=True)
    if undecided == 0:
        assert "Every item is decided" in asked
    else:  # the reviewer's own account is left to another reviewer
        assert f"Items still undecided: {undecided}." in asked
    assert panel.campaign is not None and panel.campaign.is_signed()


def endless_meta(path: Path) -> Path:
    """A file whose ``meta`` is a view without end (a recursive CTE): reading it never stops."""
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE VIEW meta AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"
            " SELECT 'k' || i AS key, '1' AS value FROM n"
        )
    conn.close()
    return path


def test_a_hostile_file_never_holds_the_window(
    loop: qasync.QEventLoop,
    tmp_path: Path,
    make_panel: Callable[..., CampaignsPanel],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine's checks of a file run in a worker thread: made a second slower here (the
    real checks, after a pause), the window's loop keeps turning while they run, and the
    engine's named refusal of the file is said."""
    import threading

    from PySide6.QtCore import QTimer

    checked_on: list[threading.Thread] = []
    real_open = Campaign.open.__func__  # type: ignore[attr-defined]

    def slow_open(cls: type[Campaign], path: Path, **kwargs: Any) -> Campaign:
        checked_on.append(threading.current_thread())
        time.sleep(1.0)
        return real_open(cls, path, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Campaign, "open", classmethod(slow_open))
    panel = make_panel()
    hostile = endless_meta(tmp_path / "endless.review")
    ticks: list[float] = []
    timer = QTimer(panel)
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    started = time.monotonic()
    open_through_dialog(loop, panel, hostile)
    took = time.monotonic() - started
    timer.stop()
    assert panel.campaign is None
    assert checked_on and threading.main_thread() not in checked_on
    assert "This file cannot be used as a campaign." in panel.message.text
    assert "carries triggers, views, tables or indexes" in panel.message.text  # by name
    assert "FOREIGN_SQL" in panel.message.text
    # the loop ran all along: no gap between two ticks much longer than the interval
    gaps = [b - a for a, b in zip([started, *ticks], [*ticks, time.monotonic()], strict=True)]
    assert took >= 1.0 and max(gaps) < 0.3, (took, max(gaps))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_file_past_its_time_limit_is_given_up_by_name(
    loop: qasync.QEventLoop,
    campaign_path: Path,
    make_panel: Callable[..., CampaignsPanel],
    monkeypatch: pytest.MonkeyPatch,
    language: str,
) -> None:
    from portal_admin.ui.panels.reviews import open_step

    monkeypatch.setattr(open_step, "OPEN_LIMIT", 0.0)  # any file is too slow now
    languages = LanguageManager()
    languages.set_language(language)
    try:
        panel = make_panel()
        open_through_dialog(loop, panel, campaign_path)
        assert panel.campaign is None
        assert "TOO_SLOW" in panel.message.text
        if language == "en":
            assert "Reading q4.review took too long: it was given up." in panel.message.text
        else:
            assert "took too long" not in panel.message.text  # said in Japanese
    finally:
        languages.set_language("en")


def test_settings_that_cannot_be_read_are_said_not_logged(
    loop: qasync.QEventLoop, campaign_path: Path, make_panel: Callable[..., CampaignsPanel]
) -> None:
    """The file's settings become unreadable while it is open (a value that is not JSON: the
    JSONDecodeError once only logged): deciding, F5 and signing off each say the file is
    damaged, by name and code, and change nothing."""
    panel = opened(loop, make_panel(), campaign_path)
    with sqlite3.connect(campaign_path) as conn:
        conn.execute("UPDATE meta SET value = '{not json' WHERE key = 'due'")
    conn.close()
    select(panel, "user1@example.test")
    key(loop, panel, Qt.Key.Key_K)
    assert decision(campaign_path, "user1@example.test") is None
    assert "q4.review is damaged" in panel.message.text and "DAMAGED" in panel.message.text
    panel.message.clear()
    panel.refresh()  # F5
    assert "q4.review is damaged" in panel.message.text
    panel.message.clear()
    panel.sign_button.click()
    run(loop, panel.wait_idle())
    assert "DAMAGED" in panel.message.text
    assert panel.question is None  # refused before asking


def test_without_a_keyring_nobody_decides_and_it_is_said(
    loop: qasync.QEventLoop,
    campaign_path: Path,
    tmp_path: Path,
    runner: OperationRunner,
    qtbot: Any,
) -> None:
    """No usable keyring: the reviewer is a key, so the panel says there is none (the
    reviewer's line and the message bar) and records nothing."""

    class Locked:
        def get(self) -> str | None:
            raise keys.KeyUnavailable("locked")

        def set(self, value: str) -> None:
            raise keys.KeyUnavailable("locked")

    context = PanelContext(runner, sandbox_profile(), None, {})
    panel = CampaignsPanel(context, folder=tmp_path, key_store=Locked())
    qtbot.addWidget(panel)
    panel.show()
    run(loop, panel.wait_idle())
    assert panel.identity is None and "No key" in panel.reviewer.text()
    assert "signing key cannot be read" in panel.message.text
    opened(loop, panel, campaign_path)
    select(panel, "user1@example.test")
    key(loop, panel, Qt.Key.Key_K)
    assert decision(campaign_path, "user1@example.test") is None
    assert "signing key cannot be read" in panel.message.text
