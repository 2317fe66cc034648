"""Idle detection: no keyboard or mouse input for a configured time emits ``expired``."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication

_INPUT = frozenset(
    {
        QEvent.Type.KeyPress,
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseMove,
        QEvent.Type.Wheel,
        QEvent.Type.TouchBegin,
        QEvent.Type.TabletPress,
    }
)


class IdleMonitor(QObject):
    """Watches the application's input; 0 minutes disables it."""

    expired = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.expired)
        self._enabled = False
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    @property
    def interval_ms(self) -> int:
        """The idle time in milliseconds (0: off)."""
        return self._timer.interval() if self._enabled else 0

    def set_minutes(self, minutes: float) -> None:
        """Lock after ``minutes`` of no input (0 turns it off)."""
        self.set_interval_ms(int(minutes * 60_000))

    def set_interval_ms(self, ms: int) -> None:
        """Lock after ``ms`` milliseconds of no input (0 turns it off)."""
        self._enabled = ms > 0
        self._timer.stop()
        if self._enabled:
            self._timer.setInterval(ms)
            self._timer.start()

    def pause(self) -> None:
        """Stop counting (while locked)."""
        self._timer.stop()

    def resume(self) -> None:
        """Start counting again from now."""
        if self._enabled:
            self._timer.start()

    def stop(self) -> None:
        """Stop watching for good."""
        self._enabled = False
        self._timer.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self._enabled and event.type() in _INPUT and self._timer.isActive():
            self._timer.start()
        return False
