"""Contrast of text against its background: WCAG 2.2 AA (4.5:1) in both themes, for the
palette's text roles, the toned text (error, warning, success, muted), and the few places that
bring their own background; and no text colour hard-coded outside those places."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from portal_admin.connection.profiles import EnvironmentType
from portal_admin.ui.theme import tones as theme

AA = 4.5
UI = Path(theme.__file__).resolve().parents[1]
R = QPalette.ColorRole


def luminance(colour: QColor) -> float:
    """Relative luminance (WCAG 2.2)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.red())
        + 0.7152 * channel(colour.green())
        + 0.0722 * channel(colour.blue())
    )


def contrast(a: QColor | str, b: QColor | str) -> float:
    la, lb = luminance(QColor(a)), luminance(QColor(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def test_the_formula_matches_wcag_examples() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # just below AA
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # just above


def palettes(qapp: QApplication) -> dict[str, QPalette]:
    fusion = QStyleFactory.create("Fusion")
    assert fusion is not None
    return {"light": theme.light_palette(fusion.standardPalette()), "dark": theme.dark_palette()}


TEXT_ON = (
    (R.WindowText, R.Window),
    (R.Text, R.Base),
    (R.Text, R.AlternateBase),
    (R.ButtonText, R.Button),
    (R.HighlightedText, R.Highlight),
    (R.ToolTipText, R.ToolTipBase),
    (R.Link, R.Base),
    (R.Link, R.Window),
    (R.PlaceholderText, R.Base),
    (R.PlaceholderText, R.Window),
)


def test_the_palettes_text_roles_reach_aa(qapp: QApplication) -> None:
    failures = []
    for name, palette in palettes(qapp).items():
        for fg, bg in TEXT_ON:
            ratio = contrast(palette.color(fg), palette.color(bg))
            if ratio < AA:
                failures.append(f"{name}: {fg.name} on {bg.name} {ratio:.2f}")
    assert failures == []


def test_toned_text_reaches_aa_on_every_background_of_its_theme(qapp: QApplication) -> None:
    failures = []
    for name, palette in palettes(qapp).items():
        dark = theme.is_dark(palette)
        assert dark == (name == "dark")
        for tone, colour in theme.TONES[dark].items():
            for bg in (R.Window, R.Base, R.AlternateBase, R.Button):
                ratio = contrast(colour, palette.color(bg))
                if ratio < AA:
                    failures.append(f"{name}: {tone} on {bg.name} {ratio:.2f}")
    assert failures == []


#: Text that brings its own background (the same in both themes).
OWN_BACKGROUND = {
    "message bar, error": ("#1a1a1a", "#fdecea"),
    "message bar, notice": ("#1a1a1a", "#e8f4ea"),
    "error line": ("#8a1c1c", "#fdecea"),
    "invalid whitelist entry": ("#b00020", "#fdecea"),
    "kiosk banner": ("#ffffff", "#263238"),
    **{f"{env.value} banner": ("#ffffff", env.colour) for env in EnvironmentType},
}


def test_text_on_its_own_background_reaches_aa() -> None:
    failures = {
        where: round(contrast(fg, bg), 2)
        for where, (fg, bg) in OWN_BACKGROUND.items()
        if contrast(fg, bg) < AA
    }
    assert failures == {}


#: Files that may name a text colour: each pairs it with its own background (above).
MAY_NAME_COLOURS = {
    "widgets/message_bar.py",
    "panels/base.py",
    "panels/security/ip_entry_delegate.py",
    "mainwindow/window.py",
    "widgets/banner.py",
    "signin/pages.py",  # the environment chip: the banner's colours
}
_TEXT_COLOUR = re.compile(r"(?<![-\w])color:\s*(#|rgb|\{|[a-z]+\s*;)", re.IGNORECASE)


def test_no_other_text_colour_is_hard_coded() -> None:
    """Text colours come from the theme (``set_tone``, ``palette(...)``), so they follow it."""
    found = []
    # The exceptions must name files that exist, or they would excuse nothing.
    assert all((UI / where).is_file() for where in MAY_NAME_COLOURS)
    for path in sorted(UI.rglob("*.py")):
        where = path.relative_to(UI).as_posix()
        if where in MAY_NAME_COLOURS or where == "theme/tones.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _TEXT_COLOUR.search(line) and "palette(" not in line:
                found.append(f"{where}:{number}")
    assert found == []


def test_a_tone_follows_the_theme(qapp: QApplication) -> None:
    for name, palette in palettes(qapp).items():
        dark = name == "dark"
        assert theme.tone_color("error", palette).name() == theme.TONES[dark]["error"]
        assert "color: " + theme.TONES[dark]["muted"] in theme.tone_sheet(dark)
