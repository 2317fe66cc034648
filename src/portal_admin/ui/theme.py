"""Light and dark themes, following the system's colour scheme (Qt 6.5+) unless overridden."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory


class ThemeMode(StrEnum):
    """Which theme to use."""

    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


def dark_palette() -> QPalette:
    """A dark palette for the Fusion style."""
    p = QPalette()
    role, group = QPalette.ColorRole, QPalette.ColorGroup
    colours = {
        role.Window: "#2b2b2b",
        role.WindowText: "#e6e6e6",
        role.Base: "#1e1e1e",
        role.AlternateBase: "#262626",
        role.ToolTipBase: "#3a3a3a",
        role.ToolTipText: "#e6e6e6",
        role.PlaceholderText: "#8a8a8a",
        role.Text: "#e6e6e6",
        role.Button: "#353535",
        role.ButtonText: "#e6e6e6",
        role.BrightText: "#ff6b6b",
        role.Light: "#4a4a4a",
        role.Midlight: "#3f3f3f",
        role.Mid: "#2f2f2f",
        role.Dark: "#191919",
        role.Shadow: "#000000",
        role.Link: "#6cb4ff",
        role.LinkVisited: "#b38cff",
        role.Highlight: "#2f6db5",
        role.HighlightedText: "#ffffff",
    }
    for r, colour in colours.items():
        p.setColor(r, QColor(colour))
    for r in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(group.Disabled, r, QColor("#7a7a7a"))
    return p


class ThemeManager(QObject):
    """Applies the Fusion style with a light or dark palette and follows system changes."""

    themeChanged = Signal(bool)  # True when dark

    def __init__(self, app: QApplication, mode: ThemeMode = ThemeMode.SYSTEM) -> None:
        super().__init__(app)
        self._app = app
        self._mode = mode
        self._dark: bool | None = None
        style = QStyleFactory.create("Fusion")
        if style is not None:
            app.setStyle(style)
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._system_changed)
        self.apply()

    @property
    def is_dark(self) -> bool:
        """True while the dark palette is applied."""
        return bool(self._dark)

    def set_mode(self, mode: ThemeMode) -> None:
        """Use ``mode`` from now on."""
        self._mode = mode
        self.apply()

    def apply(self) -> None:
        """Apply the palette the mode (and, for SYSTEM, the system) asks for."""
        if self._mode is ThemeMode.SYSTEM:
            dark = QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark
        else:
            dark = self._mode is ThemeMode.DARK
        if dark == self._dark:
            return
        self._dark = dark
        self._app.setPalette(dark_palette() if dark else self._app.style().standardPalette())
        self.themeChanged.emit(dark)

    def _system_changed(self, _scheme: Qt.ColorScheme) -> None:
        if self._mode is ThemeMode.SYSTEM:
            self.apply()
