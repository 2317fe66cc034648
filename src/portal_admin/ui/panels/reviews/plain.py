"""Text from a campaign file (its title, reviewers' names, justifications, flag reasons) shown
as plain text: Qt renders a string that looks like HTML as rich text in labels, tooltips and
message boxes, and a crafted file's ``<img src=file:///dev/zero>`` would be loaded.

Labels and message boxes are set to ``Qt.TextFormat.PlainText``; a tooltip has no format of
its own, so its text is converted to HTML that shows it literally."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QMessageBox


def plain(*widgets: QLabel | QMessageBox) -> None:
    """Show whatever text ``widgets`` are given as plain text."""
    for widget in widgets:
        widget.setTextFormat(Qt.TextFormat.PlainText)


def tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally (empty: no tooltip)."""
    return GuiQt.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpaceNoWrap) if text else ""
