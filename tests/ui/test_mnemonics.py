"""Every labelled field of a window has its own mnemonic (Alt+letter), in every language.

The program is started on the sandbox and signed in; the sign-in window, the main window with
each panel shown in turn, and the main dialogs are walked. In each window the mnemonics of the
visible labels with a buddy, buttons, group boxes, tabs and the menu bar are collected: a label
with a buddy and no mnemonic, or two controls with the same one, is a failure. CJK translations
write a mnemonic as a ``(&E)`` suffix; it counts the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QGroupBox,
    QLabel,
    QMenuBar,
    QTabBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from portal_admin.ui.app import Application
from portal_admin.ui.panels import register_all
from portal_admin.ui.panels.registry import PanelRegistry, wait_idle
from portal_admin.ui.session.sandbox_factory import create_sandbox_app
from support.program import build_program, sign_in_otp

T = TypeVar("T")
LANGUAGES = ("en", "zh_CN", "zh_TW", "ja", "vi")


def mnemonic(text: str) -> str | None:
    """The mnemonic letter of a Qt text (``&&`` is a literal ampersand), case-folded."""
    i = 0
    while i < len(text) - 1:
        if text[i] == "&":
            if text[i + 1] == "&":
                i += 2
                continue
            return text[i + 1].casefold()
        i += 1
    return None


def _shown(widget: QWidget, window: QWidget) -> bool:
    return widget.isVisibleTo(window) and widget.window() is window


def mnemonics(window: QWidget) -> tuple[dict[str, list[str]], list[str]]:
    """The window's mnemonics (letter -> the texts that use it) and its labelled fields
    without one."""
    used: dict[str, list[str]] = {}
    missing: list[str] = []

    def use(text: str, required: bool) -> None:
        letter = mnemonic(text)
        if letter is None:
            if required:
                missing.append(text)
            return
        used.setdefault(letter, []).append(text)

    for label in window.findChildren(QLabel):
        buddy = label.buddy()
        if buddy is not None and _shown(label, window) and _shown(buddy, window):
            # a field: its buddy takes the focus from the keyboard (a value shown as a label,
            # selectable by the mouse, does not)
            field = bool(buddy.focusPolicy() & Qt.FocusPolicy.TabFocus)
            use(label.text(), required=field and bool(label.text().strip()))
    for button in window.findChildren(QAbstractButton):
        # a tool button showing an action has no mnemonic of its own
        action = getattr(button, "defaultAction", lambda: None)()
        if _shown(button, window) and action is None:
            use(button.text(), required=False)
    for box in window.findChildren(QGroupBox):
        if _shown(box, window) and box.isCheckable():
            use(box.title(), required=False)
    for bar in window.findChildren(QTabBar):
        if _shown(bar, window):
            for i in range(bar.count()):
                if bar.isTabVisible(i):
                    use(bar.tabText(i), required=False)
    for menubar in window.findChildren(QMenuBar):
        if _shown(menubar, window):
            for action in menubar.actions():
                if action.isVisible():
                    use(action.text(), required=False)
    return used, missing


def problems(name: str, window: QWidget) -> list[str]:
    """What is wrong with ``window``'s mnemonics, as lines naming the window."""
    used, missing = mnemonics(window)
    found = [f"{name}: {texts} share Alt+{k}" for k, texts in used.items() if len(texts) > 1]
    found += [f"{name}: {text!r} has no mnemonic" for text in missing]
    return found


# -- the program on the sandbox ------------------------------------------------------------


def run(loop: qasync.QEventLoop, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
    return loop.run_until_complete(asyncio.wait_for(coro, timeout))


@pytest.fixture
def program(
    qapp: QApplication, loop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> Iterator[Application]:
    """The program with every panel, on the sandbox (the sign-in window shows)."""
    sandbox = create_sandbox_app(":memory:", seed_accounts=5, test_clock=True)
    app = build_program(qapp, tmp_path, sandbox, register_all(PanelRegistry()))
    yield app
    loop.run_until_complete(app.close())
    app.languages.set_language("en")
    # the panels' reloads cancelled by closing end on the loop's next turns
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    if pending:
        loop.run_until_complete(asyncio.wait(pending, timeout=5))


async def walk(app: Application, lang: str) -> list[str]:
    """Every window's problems in ``lang``."""
    app.languages.set_language(lang)
    await asyncio.sleep(0)
    assert app.workspace is not None
    workspace = app.workspace
    window = workspace.window
    found: list[str] = []
    for spec in window._specs:
        panel = window.show_panel(spec.id)
        await wait_idle(app.runner)
        await asyncio.sleep(0.05)
        found += problems(f"{lang} main window, {spec.id}", window)
        del panel
    for opener in (workspace.open_change_password, workspace.open_about):
        dialog = opener()
        # the loop's own turns, not a nested processEvents(): a wake-up scheduled inside a
        # nested Qt event pass can be lost by qasync's timers, leaving a task never resumed
        await asyncio.sleep(0.05)
        found += problems(f"{lang} {type(dialog).__name__}", dialog)
        dialog.close()
    for dialog in QApplication.topLevelWidgets():
        if isinstance(dialog, QDialog) and dialog.isVisible():
            found += problems(f"{lang} {type(dialog).__name__}", dialog)
    return found


def test_mnemonics_in_every_window_and_language(
    program: Application, loop: qasync.QEventLoop
) -> None:
    found: list[str] = []
    for lang in LANGUAGES:
        program.languages.set_language(lang)
        QApplication.processEvents()
        assert program.sign_in_window is not None
        found += problems(f"{lang} sign-in", program.sign_in_window)
    program.languages.set_language("en")
    run(loop, sign_in_otp(program))
    for lang in LANGUAGES:
        found += run(loop, walk(program, lang))
    assert not found, "\n".join(found)
