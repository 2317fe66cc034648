"""Text from a campaign file (its title, reviewers' names, justifications, flag reasons) shown
as plain text: Qt renders a string that looks like HTML as rich text in labels, tooltips and
message boxes, and a crafted file's ``<img src=file:///dev/zero>`` would be loaded.

Labels and message boxes are set to ``Qt.TextFormat.PlainText``; tooltips go through the
shared ``ui/widgets/plain.plain_tooltip`` (see that module for the rule of the whole program)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox


def plain(*widgets: QLabel | QMessageBox) -> None:
    """Show whatever text ``widgets`` are given as plain text."""
    for widget in widgets:
        widget.setTextFormat(Qt.TextFormat.PlainText)
