"""The focus goes back where it was when the command palette closes (#31): a keyboard user
always sees which control has it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from .test_main_window import make_window


def test_escape_gives_the_focus_back_to_where_it_was(qtbot: QtBot) -> None:
    window = make_window(qtbot)
    window.nav.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.nav, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.command_palette is not None, timeout=2000)
    palette = window.command_palette
    assert palette is not None
    qtbot.waitUntil(lambda: QApplication.focusWidget() is palette.search, timeout=2000)
    qtbot.keyClick(palette.search, Qt.Key.Key_Escape)
    assert not palette.isVisible()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.nav, timeout=2000)


def test_a_command_that_hides_the_focused_control_leaves_the_focus_in_the_window(
    qtbot: QtBot,
) -> None:
    window = make_window(qtbot)
    window.nav.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.nav, timeout=2000)
    palette = window.open_palette()
    qtbot.keyClicks(palette.search, "rol")
    window.nav.hide()  # as a command that switches the view away from the focused control
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    assert not palette.isVisible()

    def shown_in_window() -> bool:
        focused = QApplication.focusWidget()
        return focused is not None and focused.isVisible() and focused.window() is window

    qtbot.waitUntil(shown_in_window, timeout=2000)
