"""The lock: the overlay that covers the main window's work (Ctrl+L, or the idle time ran
out), and unlocking by signing in again. The work underneath is kept as it was."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QPushButton, QVBoxLayout, QWidget

from portal_admin.ui.mainwindow.idle import IdleMonitor
from portal_admin.ui.theme.icons import IconLabel, icon
from portal_admin.ui.widgets.plain import PlainLabel

log = logging.getLogger(__name__)

UnlockHook = Callable[[], Awaitable[bool]]


class LockOverlay(QWidget):
    """Covers the work area while locked; the work underneath is kept as it was."""

    unlockRequested = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("lockOverlay")
        self.setAutoFillBackground(True)
        self.icon = IconLabel(self, size=48)
        self.icon.set_icon("state.locked")
        self.title = PlainLabel(self)
        self.title.setStyleSheet("font-size: 16pt; font-weight: bold;")
        self.message = PlainLabel(self)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.button = QPushButton(self)
        self.button.setIcon(icon("action.unlock"))
        self.button.clicked.connect(self.unlockRequested)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(60, 12, 60, 12)
        layout.addStretch(1)
        layout.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.title, 0, Qt.AlignmentFlag.AlignHCenter)
        # No alignment flag: the layout then sizes the wrapped message by its height for the
        # width, so a translation that needs two lines gets them (the label centres its text).
        layout.addWidget(self.message)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.title.setText(QCoreApplication.translate("MainWindow", "Locked"))
        self.message.setText(
            QCoreApplication.translate(
                "MainWindow", "The window was locked. Sign in again to continue; your work is kept."
            )
        )
        self.button.setText(QCoreApplication.translate("MainWindow", "Sign in again\u2026"))
        self.button.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Sign in again to unlock")
        )
        self.title.setAccessibleName(QCoreApplication.translate("MainWindow", "Locked"))


class WindowLock(QObject):
    """Locks and unlocks a window: hides ``cover`` (the header and the work area) under the
    overlay, disables the work actions, pauses the idle timer, and asks ``unlock_hook`` (sign-in
    again) to unlock. The window keeps its own ``lock()``/``unlock()`` that call these."""

    #: True when locked, False when unlocked.
    changed = Signal(bool)

    def __init__(
        self,
        central: QWidget,
        cover: Sequence[QWidget],
        banner: QWidget,
        idle: IdleMonitor,
        work_actions: Callable[[], list[QAction]],
        palette: Callable[[], QDialog | None],
    ) -> None:
        super().__init__(central)
        self.central = central
        self.cover = list(cover)
        self.banner = banner
        self.idle = idle
        self.work_actions = work_actions
        self.palette = palette
        self.unlock_hook: UnlockHook | None = None
        self.locked = False
        self._focus_before_lock: QWidget | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.overlay = LockOverlay(central)
        self.overlay.hide()
        self.overlay.unlockRequested.connect(self.start_unlock)

    def lock(self) -> None:
        """Cover the work area and ask for sign-in again."""
        if self.locked:
            return
        self.locked = True
        self.idle.pause()
        palette = self.palette()
        if palette is not None and shiboken6.isValid(palette) and palette.isVisible():
            palette.reject()  # it lists panels and accounts: not over the lock
        self._focus_before_lock = self.central.window().focusWidget()
        for widget in reversed(self.cover):
            widget.hide()
        self.place()
        self.overlay.show()
        self.overlay.raise_()
        self.overlay.button.setFocus()
        for action in self.work_actions():
            action.setEnabled(False)
        self.changed.emit(True)

    def unlock(self) -> None:
        """Uncover the work area as it was."""
        if not self.locked:
            return
        self.locked = False
        self.overlay.hide()
        for widget in self.cover:
            widget.show()
        for action in self.work_actions():
            action.setEnabled(True)
        focus = self._focus_before_lock
        if focus is not None:
            focus.setFocus()
        self.idle.resume()
        self.changed.emit(False)

    def start_unlock(self) -> None:
        """The unlock button: runs :meth:`try_unlock` as a task."""
        task = asyncio.ensure_future(self.try_unlock())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def try_unlock(self) -> bool:
        """Ask the unlock hook (sign-in again); unlock when it says yes.

        Without a hook (before sign-in is wired in) the window simply unlocks.
        """
        hook = self.unlock_hook
        try:
            ok = True if hook is None else await hook()
        except Exception:
            log.exception("unlock hook failed")
            ok = False
        if ok:
            self.unlock()
        return ok

    def place(self) -> None:
        """Lay the overlay over the work area, below the environment banner."""
        top = self.banner.height() if self.banner.isVisible() else 0
        self.overlay.setGeometry(0, top, self.central.width(), self.central.height() - top)
