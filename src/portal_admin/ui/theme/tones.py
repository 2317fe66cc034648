"""Light and dark themes, following the system's colour scheme (Qt 6.5+) unless overridden.

Text that carries a meaning (an error, a warning, a success, a muted note) takes its colour
from the theme: a widget says which with :func:`set_tone`, and the application style sheet
the theme installs colours it, so it stays readable when the theme changes. Every colour pair
reaches WCAG 2.2 AA (4.5:1 for text) in both themes (``tests/ui/theme/test_contrast.py``).
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory, QWidget


class ThemeMode(StrEnum):
    """Which theme to use."""

    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


#: Text colours by tone, for the light and the dark theme (each at least 4.5:1 against the
#: window, base and alternate-base colours of its theme).
TONES: dict[bool, dict[str, str]] = {
    False: {"error": "#b00020", "warning": "#8a5300", "success": "#1b6e1b", "muted": "#595959"},
    True: {"error": "#ff8a80", "warning": "#ffb74d", "success": "#81c784", "muted": "#a6a6a6"},
}
#: The light theme's selection colour: Fusion's own (#308cc6) gives white text only 3.7:1.
LIGHT_HIGHLIGHT = "#1f6aa5"


def light_palette(base: QPalette) -> QPalette:
    """Fusion's light palette with a selection colour white text reads on."""
    p = QPalette(base)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        p.setColor(group, QPalette.ColorRole.Highlight, QColor(LIGHT_HIGHLIGHT))
        p.setColor(group, QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    return p


def is_dark(palette: QPalette) -> bool:
    """True for a palette whose window is dark."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def tone_color(tone: str, palette: QPalette | None = None) -> QColor:
    """The colour of ``tone`` text for ``palette`` (the application's by default)."""
    palette = palette if palette is not None else QGuiApplication.palette()
    return QColor(TONES[is_dark(palette)][tone])


def tone_sheet(dark: bool) -> str:
    """The application style sheet rules that colour toned text."""
    return "\n".join(
        f'*[tone="{tone}"] {{ color: {colour}; }}' for tone, colour in TONES[dark].items()
    )


def set_tone(widget: QWidget, tone: str | None) -> None:
    """Colour ``widget``'s text as ``tone`` (error, warning, success, muted), or plainly."""
    if (widget.property("tone") or None) == tone:
        return
    widget.setProperty("tone", tone or "")
    widget.style().unpolish(widget)
    widget.style().polish(widget)


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
        role.PlaceholderText: "#9a9a9a",
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
        standard = self._app.style().standardPalette()
        self._app.setPalette(dark_palette() if dark else light_palette(standard))
        self._app.setStyleSheet(tone_sheet(dark))
        self.themeChanged.emit(dark)

    def _system_changed(self, _scheme: Qt.ColorScheme) -> None:
        if self._mode is ThemeMode.SYSTEM:
            self.apply()
