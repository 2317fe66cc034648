"""The icon set (ui/theme/icons.py): a picture per panel, icons that follow the light and dark
themes, the list's state icons, and a clear failure on an unknown name."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from portal_admin.ui.lists.paged_list import PagedList
from portal_admin.ui.lists.paged_model import PagedTableModel
from portal_admin.ui.mainwindow.window import MainWindow
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels import register_all
from portal_admin.ui.panels.registry import PanelRegistry, PanelSpec
from portal_admin.ui.profiles.store import Profile
from portal_admin.ui.theme import icons
from portal_admin.ui.theme.icons import ICON_DIR, ICONS, IconLabel, UnknownIconError, icon
from portal_admin.ui.theme.tones import ThemeManager, ThemeMode, tone_color

from ..fakes import FakeCollection, people
from ..lists.test_paged_model import COLUMNS

PROFILE = Profile("Test", "https://portal.example.com")


@pytest.fixture
def theme(qapp: QApplication) -> Iterator[ThemeManager]:
    """The light theme to start with; light again afterwards."""
    manager = ThemeManager(qapp, ThemeMode.LIGHT)
    yield manager
    manager.set_mode(ThemeMode.LIGHT)


def text_colour() -> QColor:
    return QApplication.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.Text)


def opaque_colours(image: QImage) -> list[str]:
    """The colours (#rrggbb) of the fully opaque pixels of ``image``."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    found = []
    for y in range(image.height()):
        for x in range(image.width()):
            colour = image.pixelColor(x, y)
            if colour.alpha() == 255:
                found.append(colour.name())
    return found


def drawn_in(image: QImage) -> set[str]:
    """The colours of the opaque pixels, which must be enough to call it a picture."""
    colours = opaque_colours(image)
    assert len(colours) >= 20, "the icon drew (almost) nothing"
    return set(colours)


def real_specs() -> list[PanelSpec]:
    """The program's panels, each with a factory that builds a plain label (the navigation is
    what is tested here, not the panels)."""
    specs = list(register_all(PanelRegistry()))
    return [dataclasses.replace(s, factory=lambda _ctx, t=s.id: QLabel(t)) for s in specs]


def make_window(qtbot, specs: list[PanelSpec]) -> MainWindow:  # type: ignore[no-untyped-def]
    registry = PanelRegistry()
    for spec in specs:
        registry.register(spec)
    window = MainWindow(PROFILE, OperationRunner(), registry)
    qtbot.addWidget(window)
    window.show()
    return window


def test_every_navigation_item_has_its_own_icon(qtbot, theme: ThemeManager) -> None:
    specs = real_specs()
    assert len(specs) >= 16
    window = make_window(qtbot, specs)
    assert window.nav.count() == len(specs)
    names, pictures = [], []
    for row in range(window.nav.count()):
        item = window.nav.item(row)
        item_icon = item.icon()
        assert not item_icon.isNull(), item.text()
        names.append(item_icon.name())
        pictures.append(item_icon.pixmap(QSize(32, 32), 1.0).toImage())
        drawn_in(pictures[-1])
    assert names == [f"nav.{spec.id}" for spec in specs]
    # Distinct names and distinct pictures: no two panels share one.
    assert len(set(names)) == len(names)
    files = [ICONS[name] for name in names]
    assert len(set(files)) == len(files)
    for i, first in enumerate(pictures):
        for j in range(i + 1, len(pictures)):
            assert first != pictures[j], (names[i], names[j])
    # Every nav.* name belongs to a panel (no stale entries).
    assert {n for n in ICONS if n.startswith("nav.")} == set(names)


def test_icons_follow_the_light_and_dark_themes(qapp, theme: ThemeManager) -> None:
    accounts = icon("nav.accounts")  # made once, drawn in each theme's colours
    size = QSize(48, 48)
    light_text = text_colour().name()
    light = drawn_in(accounts.pixmap(size, 1.0).toImage())
    assert light == {light_text}

    theme.set_mode(ThemeMode.DARK)
    dark_text = text_colour().name()
    assert dark_text != light_text
    assert drawn_in(accounts.pixmap(size, 1.0).toImage()) == {dark_text}
    disabled = QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    assert drawn_in(accounts.pixmap(size, 1.0, QIcon.Mode.Disabled).toImage()) == {disabled.name()}
    highlighted = QApplication.palette().color(QPalette.ColorRole.HighlightedText)
    assert drawn_in(accounts.pixmap(size, 1.0, QIcon.Mode.Selected).toImage()) == {
        highlighted.name()
    }
    # The error state carries the theme's error tone, in either theme.
    assert drawn_in(icon("state.error").pixmap(size, 1.0).toImage()) == {tone_color("error").name()}
    theme.set_mode(ThemeMode.LIGHT)
    assert drawn_in(icon("state.error").pixmap(size, 1.0).toImage()) == {tone_color("error").name()}
    assert drawn_in(accounts.pixmap(size, 1.0).toImage()) == {light_text}


def test_high_dpi_pixmaps_are_sharp(qapp, theme: ThemeManager) -> None:
    pixmap = icon("action.refresh").pixmap(QSize(20, 20), 2.0)
    assert pixmap.devicePixelRatio() == 2.0
    assert pixmap.size() == QSize(40, 40)  # rendered at device pixels, not scaled up


def test_the_navigation_is_repainted_in_the_new_theme(qtbot, theme: ThemeManager) -> None:
    window = make_window(qtbot, real_specs())
    window.resize(1000, 700)
    row = 2  # not the current row (that one is drawn in the selection's colours)
    assert window.nav.currentRow() != row

    def icon_colours() -> set[str]:
        rect = window.nav.visualItemRect(window.nav.item(row))
        shot = window.nav.viewport().grab(rect).toImage()
        size = window.nav.iconSize()
        # The icon sits at the left of the row: its opaque strokes in the text colour.
        part = shot.copy(0, 0, size.width() + 8, shot.height())
        background = window.nav.palette().color(QPalette.ColorRole.Base).name()
        return set(opaque_colours(part)) - {background}

    qtbot.waitUntil(lambda: text_colour().name() in icon_colours(), timeout=2000)
    light_text = text_colour().name()
    theme.set_mode(ThemeMode.DARK)
    dark_text = text_colour().name()
    qtbot.waitUntil(lambda: dark_text in icon_colours(), timeout=2000)
    assert light_text not in icon_colours()


def test_window_actions_and_list_buttons_have_icons(qtbot, theme: ThemeManager) -> None:
    window = make_window(qtbot, real_specs()[:2])
    for action, name in (
        (window.refresh_action, "action.refresh"),
        (window.lock_action, "action.lock"),
        (window.logout_action, "action.logout"),
        (window.change_password_action, "action.change-password"),
        (window.palette_action, "action.palette"),
        (window.about_action, "action.about"),
        (window.quit_action, "action.quit"),
    ):
        assert action.icon().name() == name
    assert window.panel_actions[0].icon().name() == "nav.accounts"
    # The header's button keeps its words beside the icon.
    assert window.logout_button.text()
    assert window.logout_button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    assert window.lock_overlay.icon.icon_name() == "state.locked"

    view = PagedList(PagedTableModel(COLUMNS, FakeCollection(items=[]).fetch))
    qtbot.addWidget(view)
    for button, name in (
        (view.refresh_button, "action.refresh"),
        (view.export_button, "action.export"),
    ):
        assert button.icon().name() == name
        assert button.text()
        assert button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon


def test_the_list_overlay_shows_an_icon_for_each_state(loop, qtbot, theme: ThemeManager) -> None:
    coll = FakeCollection(items=[], gate=asyncio.Event())
    view = PagedList(PagedTableModel(COLUMNS, coll.fetch), id_column="id")
    qtbot.addWidget(view)
    view.resize(800, 420)
    view.show()
    overlay = view.overlay

    def shown_icon() -> str | None:
        assert overlay.isVisible()
        assert overlay.icon.isVisible()
        pixmap = overlay.icon.pixmap()
        assert not pixmap.isNull()
        drawn_in(pixmap.toImage())
        # Above the text.
        assert overlay.icon.geometry().bottom() <= overlay.label.geometry().top()
        return overlay.icon.icon_name()

    async def loading() -> None:
        view.refresh()
        await asyncio.sleep(0.01)
        assert shown_icon() == "state.loading"
        assert coll.gate is not None
        coll.gate.set()
        await view.model.wait_idle()

    loop.run_until_complete(loading())
    assert shown_icon() == "state.empty"

    # The state's icon is drawn again in the new theme's colour.
    theme.set_mode(ThemeMode.DARK)
    assert drawn_in(overlay.icon.pixmap().toImage()) == {text_colour().name()}
    theme.set_mode(ThemeMode.LIGHT)
    assert drawn_in(overlay.icon.pixmap().toImage()) == {text_colour().name()}

    async def load() -> None:
        view.refresh()
        await view.model.wait_idle()

    coll.items = people(10)
    coll.fail_pages = {0}
    loop.run_until_complete(load())
    assert shown_icon() == "state.error"
    assert drawn_in(overlay.icon.pixmap().toImage()) == {tone_color("error").name()}

    coll.fail_pages = set()
    loop.run_until_complete(load())
    assert view.model.rowCount() == 10
    assert not overlay.isVisible()


def test_an_unknown_name_fails_clearly(qtbot) -> None:
    with pytest.raises(UnknownIconError, match=r"unknown icon name 'nav\.nope'"):
        icon("nav.nope")
    with pytest.raises(LookupError):
        icons.svg_path("action.nope")
    label = IconLabel()
    qtbot.addWidget(label)
    with pytest.raises(UnknownIconError):
        label.set_icon("state.nope")
    # A panel that names an icon that does not exist fails when the window is built.
    spec = dataclasses.replace(real_specs()[0], icon="nav.no-such-panel")
    with pytest.raises(UnknownIconError):
        make_window(qtbot, [spec])


def test_every_icon_file_is_bundled_with_its_licence(qapp) -> None:
    for name in ICONS:
        assert icons.svg_path(name).is_file(), name
        drawn_in(icon(name).pixmap(QSize(32, 32), 1.0).toImage())
    licence = (ICON_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "ISC License" in licence and "Lucide" in licence and "Cole Bemis" in licence
