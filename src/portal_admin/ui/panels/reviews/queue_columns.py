"""How the review queue's columns share its width: the Decision column comes right after the
item and is as wide as its words, so the decision stays in view at any window width (the
other columns keep their widths and the last one takes what is left; the queue scrolls
sideways for them, never for the decision)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QTableView

from .queue_model import DECISION_COLUMN, DECISIONS, decision_words

#: Widths of the model's columns (pixels, before the person resizes them), the decision's
#: aside.
WIDTHS = {0: 230, 1: 80, 2: 160, 3: 100, 4: 150, 5: 100, 6: 180}
#: Room around the words (the cell's margins and the header's sort mark).
PADDING = 28


def lay_out(table: QTableView) -> None:
    """Place and size the queue's columns (once; ``size_decision`` again on a language
    change)."""
    header = table.horizontalHeader()
    header.setStretchLastSection(True)
    for column, width in WIDTHS.items():
        table.setColumnWidth(column, width)
    header.moveSection(header.visualIndex(DECISION_COLUMN), 1)
    header.setSectionResizeMode(DECISION_COLUMN, QHeaderView.ResizeMode.Fixed)
    size_decision(table)


def size_decision(table: QTableView) -> None:
    """The Decision column as wide as its longest word (or its title) in this language."""
    title = str(table.model().headerData(DECISION_COLUMN, Qt.Orientation.Horizontal) or "")
    words = (decision_words(code) for code in DECISIONS)
    width = max(
        table.horizontalHeader().fontMetrics().horizontalAdvance(title),
        *(table.fontMetrics().horizontalAdvance(w) for w in words),
    )
    table.setColumnWidth(DECISION_COLUMN, width + PADDING)
