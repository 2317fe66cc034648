"""Driving the real program as a person does: clicks, keys and typing on its widgets, waiting
for what the window shows, answering its questions by their buttons, and pictures.

Every helper acts through a widget (``QTest`` events on the real button, field or table); none
calls the engine. The walk is a coroutine on the program's loop (the program's ``main`` runs
beside it); each key and click is sent from Qt's own event dispatch (``person``), as a
person's input comes.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QInputMethodEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QFileDialog,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStyle,
    QTableView,
    QWidget,
)

from portal_admin.ui.tour.screenshots import save_screenshot

W = TypeVar("W", bound=QWidget)

#: Where the scenarios' pictures go (unset: none are saved).
SHOTS_ENV = "PORTAL_ADMIN_SCENARIO_SHOTS"


class Steps:
    """The steps of one walk, with the time each took (printed at the end of the walk)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.started = time.monotonic()
        self.last = self.started
        self.done: list[tuple[str, float]] = []

    def step(self, what: str) -> None:
        now = time.monotonic()
        self.done.append((what, now - self.last))
        self.last = now

    def report(self) -> str:
        lines = [f"{self.name}: {time.monotonic() - self.started:.1f} s"]
        lines += [f"  {seconds:5.1f} s  {what}" for what, seconds in self.done]
        return "\n".join(lines)


async def until(condition: Callable[[], object], timeout: float = 20.0, what: str = "") -> None:
    """Wait, the program's loop turning, until ``condition()`` is true (AssertionError after
    ``timeout`` seconds, naming ``what``)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not seen in {timeout:.0f} s: {what or condition}")
        await asyncio.sleep(0.02)


async def settle(seconds: float = 0.15) -> None:
    """Let the window paint and queued work run for ``seconds``."""
    await asyncio.sleep(seconds)


async def person(action: Callable[[], object]) -> None:
    """Do ``action`` (keys, clicks) from Qt's own event dispatch, as a person's input comes,
    not from inside this task; wait until it was done (its exception raised here)."""
    done: list[BaseException | None] = []

    def act() -> None:
        try:
            action()
        except BaseException as exc:  # raised in the scenario, not lost in a Qt callback
            done.append(exc)
        else:
            done.append(None)

    QTimer.singleShot(0, act)
    while not done:
        await asyncio.sleep(0.01)
    if done[0] is not None:
        raise done[0]


def _click(button: QAbstractButton) -> None:
    assert button.isVisible(), f"{button.objectName() or button.text()!r} is not shown"
    assert button.isEnabled(), f"{button.objectName() or button.text()!r} is not enabled"
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


async def click(button: QAbstractButton) -> None:
    """A left click in the middle of ``button``, which must be visible and enabled."""
    await person(lambda: _click(button))


def _type(field: QLineEdit, text: str, replace: bool) -> None:
    assert field.isVisible() and field.isEnabled(), field.objectName()
    QTest.mouseClick(field, Qt.MouseButton.LeftButton)
    if replace:
        QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClick(field, Qt.Key.Key_Delete)
    if text.isascii():
        QTest.keyClicks(field, text)
    else:  # as an input method (Japanese, Chinese) hands over what was composed
        composed = QInputMethodEvent()
        composed.setCommitString(text)
        QApplication.sendEvent(field, composed)


async def type_into(field: QLineEdit, text: str, replace: bool = True) -> None:
    """Click into ``field``, select what it holds (when ``replace``) and type ``text``."""
    await person(lambda: _type(field, text, replace))


async def press(
    widget: QWidget, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    """Press ``key`` on ``widget`` (it gets the focus first, as a person's click gives it)."""

    def act() -> None:
        window = widget.window()
        if not window.isActiveWindow():  # a person's keys go to the window in front
            window.activateWindow()
        widget.setFocus()
        QTest.keyClick(widget, key, modifier)

    await person(act)


async def from_menu_bar(window: QMainWindow, menu: QMenu, action: QAction) -> None:
    """Click the title of ``menu`` in the window's menu bar, then ``action`` in the menu."""
    bar = window.menuBar()

    def open_menu() -> None:
        where = bar.actionGeometry(menu.menuAction()).center()
        QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, where)

    await person(open_menu)
    await until(menu.isVisible, 10, "the menu open")

    def choose() -> None:
        where = menu.actionGeometry(action).center()
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, where)

    await person(choose)
    await until(lambda: not menu.isVisible(), 10, "the menu closed")


async def click_row(view: QAbstractItemView, row: int, column: int = 0, ctrl: bool = False) -> None:
    """Click on a cell of a table (with Ctrl held to add it to the selection)."""

    def act() -> None:
        index = view.model().index(row, column)
        view.scrollTo(index)
        where: QPoint = view.visualRect(index).center()
        modifier = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, where)

    await person(act)


def cut_off(view: QAbstractItemView, column: int) -> list[str]:
    """The texts of ``column``'s shown cells too wide for it (Qt draws them elided, "…")."""
    style = view.style()
    margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1)
    width = view.columnWidth(column) if hasattr(view, "columnWidth") else 0
    model = view.model()
    texts = {str(model.index(r, column).data() or "") for r in range(model.rowCount())}
    metrics = view.fontMetrics()
    return sorted(t for t in texts if t and metrics.horizontalAdvance(t) + margin > width)


def headers_cut(view: QTableView) -> list[str]:
    """The titles of ``view``'s shown columns narrower than their title (drawn cut off); the
    last column is left out when it stretches."""
    header = view.horizontalHeader()
    columns = [c for c in range(header.count()) if not header.isSectionHidden(c)]
    if header.stretchLastSection() and columns:
        columns = columns[:-1]
    model = view.model()
    return [
        str(model.headerData(c, Qt.Orientation.Horizontal))
        for c in columns
        if header.sectionSize(c) < header.sectionSizeHint(c)
    ]


def shown(kind: type[W], condition: Callable[[W], bool] = lambda _w: True) -> W | None:
    """The visible top-level window of ``kind`` that meets ``condition``, if any."""
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, kind) and widget.isVisible() and condition(widget):
            return widget
    return None


async def wait_window(
    kind: type[W], condition: Callable[[W], bool] = lambda _w: True, timeout: float = 20.0
) -> W:
    """Wait for a window of ``kind`` to show; return it."""
    await until(lambda: shown(kind, condition) is not None, timeout, f"a {kind.__name__}")
    found = shown(kind, condition)
    assert found is not None
    return found


async def answer(box: QMessageBox, role: QMessageBox.ButtonRole) -> str:
    """Click the button of ``box`` in ``role``; its text."""
    button = button_of(box, role)
    text = button.text()
    await click(button)
    return text


def button_of(box: QMessageBox, role: QMessageBox.ButtonRole) -> QAbstractButton:
    """The button of ``box`` in ``role`` (the confirming one: AcceptRole)."""
    found = [b for b in box.buttons() if box.buttonRole(b) == role]
    assert found, f"no button in role {role} among {[b.text() for b in box.buttons()]}"
    return found[0]


async def choose_file(path: Path, timeout: float = 20.0) -> None:
    """In the file window the program opened, type ``path`` into its name field and press
    Enter (the program's own save/open dialog, not a native one)."""
    dialog = await wait_window(QFileDialog, timeout=timeout)
    field = dialog.findChild(QLineEdit, "fileNameEdit")
    assert field is not None, "the file window has no name field (a native dialog?)"
    await type_into(field, str(path))
    await press(field, Qt.Key.Key_Return)
    await until(lambda: not dialog.isVisible(), timeout, "the file window closing")


async def pick_from_menu(button: QAbstractButton, entry_name: str) -> None:
    """Click ``button`` whose menu pops up, then click the entry named ``entry_name`` in it.

    The menu runs its own event loop while open (QToolButton's instant popup): the click on
    its entry is queued before the button is clicked.
    """
    menu = button.menu() if hasattr(button, "menu") else None
    assert isinstance(menu, QMenu), "the button has no menu"
    action = next((a for a in menu.actions() if a.objectName() == entry_name), None)
    assert action is not None, f"no entry {entry_name} in the menu"
    clicked: list[bool] = []

    def choose() -> None:
        if not menu.isVisible():
            QTimer.singleShot(20, choose)
            return
        where = menu.actionGeometry(action).center()
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, where)
        clicked.append(True)

    QTimer.singleShot(20, choose)
    await click(button)
    await until(lambda: clicked and not menu.isVisible(), 10, f"the menu entry {entry_name}")


def shots_folder() -> Path | None:
    """The folder named by ``PORTAL_ADMIN_SCENARIO_SHOTS`` (made), or None."""
    folder = os.environ.get(SHOTS_ENV)
    if not folder:
        return None
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


async def picture(widget: QWidget, name: str) -> Path | None:
    """Save ``widget`` as ``<name>.png`` in the pictures folder (if one is set)."""
    folder = shots_folder()
    if folder is None:
        return None
    await settle(0.2)
    return save_screenshot(widget, folder / f"{name}.png")
