"""The command palette: fuzzy matching, Ctrl+K, keyboard-only choosing, both languages."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from pytestqt.qtbot import QtBot

from portal_admin.ui.mainwindow.command_palette import Entry, fuzzy_score, rank

from .test_main_window import make_window


def test_fuzzy_score_needs_the_characters_in_order() -> None:
    assert fuzzy_score("lgn hist", "Login history") is not None
    assert fuzzy_score("hist lgn", "Login history") is None
    assert fuzzy_score("", "anything") == 0
    assert fuzzy_score("ROLES", "roles") is not None  # case is ignored
    assert fuzzy_score("履歴", "ログイン履歴") is not None  # and it works for any script


def test_word_starts_and_runs_rank_first() -> None:
    def entry(title: str) -> Entry:
        return Entry("panel", title, title, lambda: None)

    entries = [entry("Notification channels"), entry("Constants"), entry("Accounts")]
    assert rank("con", entries)[0].title == "Constants"  # a run at a word start
    assert rank("acc", entries)[0].title == "Accounts"
    assert [e.title for e in rank("chan", entries)] == ["Notification channels"]
    assert rank("zzz", entries) == []


def test_an_entry_matches_by_its_english_title_too() -> None:
    entry = Entry("panel", "ロール", "Roles", lambda: None)
    assert rank("roles", [entry]) == [entry]
    assert rank("ロール", [entry]) == [entry]


def test_ctrl_k_opens_it_and_the_keyboard_alone_opens_a_panel(qtbot: QtBot) -> None:
    window = make_window(qtbot)
    assert window.palette_action in window.view_menu.actions()
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.command_palette is not None, timeout=2000)
    palette = window.command_palette
    assert palette is not None and palette.isVisible()
    titles = [e.title for e in palette.shown]
    assert "Accounts" in titles and "Roles" in titles and "Lock the window" in titles
    qtbot.keyClicks(palette.search, "rol")
    assert palette.shown[0].title == "Roles"
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    assert not palette.isVisible()
    assert window.nav.currentItem().text() == "Roles"


def test_arrows_move_and_a_command_runs(qtbot: QtBot) -> None:
    window = make_window(qtbot)
    palette = window.open_palette()
    qtbot.keyClicks(palette.search, "lock")
    assert palette.shown[0].title == "Lock the window"
    qtbot.keyClick(palette.search, Qt.Key.Key_Down)
    qtbot.keyClick(palette.search, Qt.Key.Key_Up)
    assert palette.results.currentRow() == 0
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    assert window.locked


def test_nothing_matches_says_so(qtbot: QtBot) -> None:
    window = make_window(qtbot)
    palette = window.open_palette()
    qtbot.keyClicks(palette.search, "qqqq")
    assert palette.shown == [] and palette.status.text() == "Nothing matches."
    assert palette.lookup is None  # no client: no account lookup


def test_in_another_language_both_names_find_a_panel(qtbot: QtBot) -> None:
    class Marked(QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):  # type: ignore[no-untyped-def]
            return f"«{source}»" if context in {"Panels", "Palette"} else ""

        def isEmpty(self) -> bool:
            return False

    marked = Marked()
    QCoreApplication.installTranslator(marked)
    try:
        qtbot.wait(20)
        window = make_window(qtbot)
        palette = window.open_palette()
        assert "«Roles»" in [e.title for e in palette.shown]
        qtbot.keyClicks(palette.search, "roles")  # the English name
        assert palette.shown[0].title == "«Roles»"
        palette.search.clear()
        qtbot.keyClicks(palette.search, "«rol")  # the shown one
        assert palette.shown[0].title == "«Roles»"
    finally:
        QCoreApplication.removeTranslator(marked)
        qtbot.wait(20)


def test_a_locked_window_opens_no_palette(qtbot: QtBot) -> None:
    window = make_window(qtbot)
    window.lock()
    assert not window.palette_action.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert window.command_palette is None
    window.unlock()
    assert window.palette_action.isEnabled()


def test_locking_closes_an_open_palette(qtbot: QtBot) -> None:
    window = make_window(qtbot)
    palette = window.open_palette()
    qtbot.keyClicks(palette.search, "acc")
    window.lock()
    assert not palette.isVisible()
    window.unlock()
