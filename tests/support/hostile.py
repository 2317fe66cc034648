"""Hostile text for the plain-text tests: the marker, a stranger's failed sign-in, and the walk
of every visible window that fails on any widget interpreting the marker."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QTabBar,
    QWidget,
)

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient

#: Markup that shows if interpreted (an image, bold) and reads no file when it is.
MARKER = "<img src=x>PWN<b>"


async def stranger_fails_to_sign_in(
    sandbox: Any, email: str, agent: str = f"Mozilla/5.0 {MARKER}", address: str = MARKER
) -> None:
    """No account: one wrong password for ``email``, markup in the headers the server keeps
    (User-Agent, CF-Connecting-IP)."""
    client = PortalClient(
        "http://sandbox.local",
        ClientOptions(
            access_code="SANDBOX",
            client_hash="stranger",
            extra_headers={"User-Agent": agent, "CF-Connecting-IP": address},
        ),
        transport=httpx.ASGITransport(app=sandbox),
        token_store=MemoryTokenStore(),
    )
    try:
        with pytest.raises(Exception):  # noqa: B017 - any refusal: the row is what counts
            await client.auth.start(email, "not-the-password")
    finally:
        await client.aclose()


def rendered(html: str) -> str:
    document = QTextDocument()
    document.setHtml(html)
    return document.toPlainText()


class Walk:
    """What the walks found: widgets interpreting the marker, and the literal sightings."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.literal: set[str] = set()
        self.tooltips: set[str] = set()
        #: The item views (by the program's widget holding them) that showed the marker.
        self.views: set[str] = set()

    def tip(self, where: str, text: object) -> None:
        if not isinstance(text, str) or "PWN" not in text:
            return
        if MARKER in text:
            self.problems.append(f"{where}: tooltip holds the markup unescaped: {text[:120]!r}")
        elif MARKER not in rendered(text):
            self.problems.append(f"{where}: tooltip does not render the text: {text[:120]!r}")
        else:
            self.tooltips.add(where.split(" ")[0])

    def widget(self, stop: str, widget: QWidget) -> None:
        where = f"{stop} {type(widget).__name__}#{widget.objectName()}"
        if isinstance(widget, QLabel):
            text = widget.text()
            if MARKER in text:
                if widget.textFormat() != Qt.TextFormat.PlainText and GuiQt.mightBeRichText(text):
                    self.problems.append(f"{where}: label interprets {text[:120]!r}")
                else:
                    self.literal.add(stop)
        self.tip(where, widget.toolTip())
        if isinstance(widget, QTabBar):
            for i in range(widget.count()):
                self.tip(f"{where} tab {i}", widget.tabToolTip(i))
        if (
            isinstance(widget, QAbstractItemView)
            and not isinstance(widget, QHeaderView)  # its model is its table's
            and widget.model() is not None
        ):
            self.model(where, widget.model(), _owner(widget))

    def model(self, where: str, model: Any, owner: str) -> None:
        parent = QModelIndex()
        tip = Qt.ItemDataRole.ToolTipRole
        try:
            columns = model.columnCount(parent)
        except TypeError:  # a list model: one column
            columns = 1
        for column in range(columns):
            self.tip(
                f"{where} header {column}", model.headerData(column, Qt.Orientation.Horizontal, tip)
            )
        for row in range(min(model.rowCount(parent), 200)):
            for column in range(columns):
                index = model.index(row, column, parent)
                display = model.data(index, Qt.ItemDataRole.DisplayRole)
                if isinstance(display, str) and MARKER in display:
                    self.literal.add(where.split(" ")[0])
                    self.views.add(owner)
                self.tip(f"{where} row {row} column {column}", model.data(index, tip))

    def windows(self, stop: str) -> None:
        for top in QApplication.topLevelWidgets():
            if top.isVisible():
                for widget in (top, *top.findChildren(QWidget)):
                    self.widget(stop, widget)


def _owner(widget: QWidget) -> str:
    """The name of the program's own widget nearest ``widget`` (a panel, a dialog, a list)."""
    current: QWidget | None = widget
    while current is not None:
        name = type(current).__name__
        if not name.startswith("Q") and name != "PagedList":
            return name
        current = current.parentWidget()
    return type(widget).__name__
