"""The program's icons by meaning: ``icon("nav.accounts")``, ``icon("action.refresh")``,
``icon("state.error")``.

The pictures are Lucide SVG files bundled in ``ui/theme/iconset/`` (ISC, see its ``LICENSE``): one
outline style for the navigation, the actions and the list states. Each is drawn in a colour
taken from the application palette when it is painted, not when the icon is made, so every
icon follows the light and dark themes (``ui/theme/tones.py``) with nothing to recreate: the
palette's text colour for the normal and active modes, its disabled text colour for the
disabled mode, the highlighted-text colour for a selected item (the navigation's current row),
and a tone (``theme.TONES``) for the few icons that carry one (``state.error``). Rendered
pixmaps are cached by name, size, scale and colour, so a theme change renders them afresh.

A :class:`QLabel` showing a pixmap does not repaint it by itself: use :class:`IconLabel`,
which draws it again when the palette changes.

An unknown name raises :class:`UnknownIconError` (a typo should not show an empty square).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QRect, QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QIconEngine, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QLabel, QWidget

from portal_admin.ui.theme.tones import tone_color

#: Where the SVG files are (package data).
ICON_DIR = Path(__file__).resolve().parent / "iconset"

#: Semantic name -> Lucide file name (without ``.svg``). Navigation names are ``nav.<panel
#: id>``; every panel gets its own picture.
ICONS: dict[str, str] = {
    # navigation
    "nav.accounts": "users",
    "nav.roles": "shield-user",
    "nav.portals": "globe",
    "nav.invitations": "mail-plus",
    "nav.my-invitations": "mail-open",
    "nav.sessions": "monitor-smartphone",
    "nav.login-history": "history",
    "nav.mfa": "fingerprint-pattern",
    "nav.ip-whitelist": "network",
    "nav.channel-types": "shapes",
    "nav.channels": "bell-ring",
    "nav.constants": "book-open",
    "nav.profile": "circle-user",
    "nav.jobs": "layers",
    "nav.journal": "scroll-text",
    "nav.snapshots": "clipboard-check",
    "nav.campaigns": "circle-check",
    # actions
    "action.refresh": "refresh-cw",
    "action.export": "file-down",
    "action.add": "plus",
    "action.edit": "pencil",
    "action.delete": "trash-2",
    "action.copy": "copy",
    "action.filter": "funnel",
    "action.clear-filter": "funnel-x",
    "action.save": "save",
    "action.lock": "lock",
    "action.unlock": "lock-open",
    "action.search": "search",
    "action.palette": "command",
    "action.logout": "log-out",
    "action.quit": "power",
    "action.change-password": "key-round",
    "action.about": "info",
    "action.language": "languages",
    "action.test-connection": "plug-zap",
    "action.import": "file-up",
    # states
    "state.empty": "inbox",
    "state.loading": "loader-circle",
    "state.error": "circle-alert",
    "state.locked": "lock",
    "state.managed": "building-2",
    # a check's outcome (the connection doctor)
    "state.ok": "circle-check",
    "state.warning": "triangle-alert",
    "state.failed": "circle-x",
    "state.skipped": "circle-minus",
}

#: Icons drawn in a tone of the theme (``theme.TONES``) instead of the text colour.
TONED: dict[str, str] = {
    "state.error": "error",
    "state.ok": "success",
    "state.warning": "warning",
    "state.failed": "error",
    "state.skipped": "muted",
}


class UnknownIconError(LookupError):
    """``icon()`` was asked for a name that is not in :data:`ICONS`."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"unknown icon name {name!r}; known names are in portal_admin.ui.theme.icons.ICONS "
            f"(nav.*, action.*, state.*)"
        )
        self.name = name


def names() -> list[str]:
    """Every semantic name, in declaration order."""
    return list(ICONS)


def svg_path(name: str) -> Path:
    """The SVG file behind ``name``."""
    try:
        return ICON_DIR / f"{ICONS[name]}.svg"
    except KeyError:
        raise UnknownIconError(name) from None


def icon_color(name: str, mode: QIcon.Mode, palette: QPalette | None = None) -> QColor:
    """The colour ``name`` is drawn in for ``mode`` with ``palette`` (the application's)."""
    palette = palette if palette is not None else QGuiApplication.palette()
    group, role = QPalette.ColorGroup, QPalette.ColorRole
    if mode == QIcon.Mode.Disabled:
        return palette.color(group.Disabled, role.Text)
    if mode == QIcon.Mode.Selected:
        return palette.color(group.Active, role.HighlightedText)
    tone = TONED.get(name)
    if tone is not None:
        return tone_color(tone, palette)
    return palette.color(group.Active, role.Text)


@cache
def _svg(file: str) -> bytes:
    return (ICON_DIR / f"{file}.svg").read_bytes()


#: Rendered pixmaps: (name, width, height, scale, colour) -> pixmap.
_PIXMAPS: dict[tuple[str, int, int, float, int], QPixmap] = {}
#: Past this many pixmaps the cache starts again (theme changes leave old colours behind).
_CACHE_LIMIT = 600


def stroke_width(side: int) -> float:
    """The stroke width, in the 24-unit grid, for a picture ``side`` device pixels wide.

    Lucide draws 2 units (1/12 of the side): 1.33 px at 16 px, blurred half pixels at 20 px,
    and heavier than the text beside it. Lines are kept 1.5 px wide up to 24 px, and grow as
    1/16 of the side beyond (2 px at 32, 3 px at 48).
    """
    pixels = max(1.5, side / 16)
    return pixels * 24 / max(1, side)


def _render(name: str, size: QSize, scale: float, colour: QColor) -> QPixmap:
    key = (name, size.width(), size.height(), scale, colour.rgba())
    pixmap = _PIXMAPS.get(key)
    if pixmap is not None:
        return pixmap
    if len(_PIXMAPS) >= _CACHE_LIMIT:
        _PIXMAPS.clear()
    device = QSize(max(1, round(size.width() * scale)), max(1, round(size.height() * scale)))
    pixmap = QPixmap(device)
    pixmap.fill(Qt.GlobalColor.transparent)
    side = min(device.width(), device.height())  # square pictures, centred
    data = _svg(ICONS[name]).replace(b"currentColor", colour.name().encode("ascii"))
    data = data.replace(b'stroke-width="2"', b'stroke-width="%.3f"' % stroke_width(side))
    renderer = QSvgRenderer(QByteArray(data))
    target = QRect(
        (device.width() - side) // 2, (device.height() - side) // 2, side, side
    ).toRectF()
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, target)
    painter.end()
    pixmap.setDevicePixelRatio(scale)
    _PIXMAPS[key] = pixmap
    return pixmap


class _Engine(QIconEngine):
    """Draws one semantic icon in the palette's colour of the moment."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name = name

    def iconName(self) -> str:
        return self._name

    def clone(self) -> QIconEngine:
        return _Engine(self._name)

    def key(self) -> str:
        return "portal_admin.icons"

    def actualSize(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QSize:
        return size

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        return _render(self._name, size, 1.0, icon_color(self._name, mode))

    def scaledPixmap(
        self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float
    ) -> QPixmap:
        return _render(self._name, size, scale, icon_color(self._name, mode))

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        device = painter.device()
        scale = device.devicePixelRatioF() if device is not None else 1.0
        pixmap = _render(self._name, rect.size(), scale, icon_color(self._name, mode))
        painter.drawPixmap(rect.topLeft(), pixmap)


def icon(name: str) -> QIcon:
    """The icon for the semantic ``name`` (raises :class:`UnknownIconError` if unknown)."""
    if name not in ICONS:
        raise UnknownIconError(name)
    return QIcon(_Engine(name))


def is_icon_name(text: str) -> bool:
    """True when ``text`` is meant as one of this module's names (``nav.``, ``action.``,
    ``state.`` prefixes), known or not."""
    return text.split(".", 1)[0] in ("nav", "action", "state") and "/" not in text


class IconLabel(QLabel):
    """A label showing one semantic icon, drawn again when the palette (theme) changes."""

    def __init__(self, parent: QWidget | None = None, size: int = 32) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._name: str | None = None
        self._size = size
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFixedSize(size, size)
        self.hide()

    def icon_name(self) -> str | None:
        """The name shown, or None."""
        return self._name

    def set_icon(self, name: str | None) -> None:
        """Show ``name``'s icon; None or an empty name hides the label."""
        if name:
            icon(name)  # fails now on an unknown name
        self._name = name or None
        self._draw()
        self.setVisible(self._name is not None)

    def _draw(self) -> None:
        if self._name is None:
            self.clear()
            return
        mode = QIcon.Mode.Normal if self.isEnabled() else QIcon.Mode.Disabled
        colour = icon_color(self._name, mode, self.palette())
        size = QSize(self._size, self._size)
        self.setPixmap(_render(self._name, size, self.devicePixelRatioF(), colour))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (
            QEvent.Type.PaletteChange,
            QEvent.Type.ApplicationPaletteChange,
            QEvent.Type.EnabledChange,
            QEvent.Type.StyleChange,
            QEvent.Type.DevicePixelRatioChange,
        ):
            self._draw()
        super().changeEvent(event)


__all__ = [
    "ICONS",
    "ICON_DIR",
    "TONED",
    "IconLabel",
    "UnknownIconError",
    "icon",
    "icon_color",
    "is_icon_name",
    "names",
    "svg_path",
]
