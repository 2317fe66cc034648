"""The command palette (Ctrl+K): panels, commands, recent accounts, and an account lookup by
e-mail, name or id that asks the server as one types.

Entries match by a fuzzy subsequence of their translated title, their English title or their
detail, so a person finds "Login history" by typing "lgn hist" in any interface language. The
lookup waits for a pause in typing (``LOOKUP_DELAY_MS``) and a new keystroke cancels the one
under way; its answers are shown only while the text they were asked for is still there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from portal_admin.ui.error_info import describe_error
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.base import event_loop
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

log = logging.getLogger(__name__)

CTX = "Palette"
# How long typing must pause before the server is asked (ms).
LOOKUP_DELAY_MS = 300
# At most this many entries are listed.
MAX_SHOWN = 50
# Accounts a lookup lists at most.
LOOKUP_SIZE = 5

# Kinds of entries, as the list names them (translated when shown).
KINDS = {
    "panel": QT_TRANSLATE_NOOP("Palette", "Panel"),
    "command": QT_TRANSLATE_NOOP("Palette", "Command"),
    "account": QT_TRANSLATE_NOOP("Palette", "Account"),
    "view": QT_TRANSLATE_NOOP("Palette", "Saved view"),
}


@dataclass(frozen=True)
class Entry:
    """One thing the palette can do."""

    kind: str
    title: str
    english: str
    run: Callable[[], Any]
    detail: str = ""


def fuzzy_score(query: str, text: str) -> int | None:
    """How well ``query`` matches ``text`` (higher is better), or None when it does not.

    The query's characters (case and blanks ignored) must appear in ``text`` in order; runs of
    consecutive characters and matches at word starts earn more, and a shorter text wins a
    tie.
    """
    wanted = "".join(query.casefold().split())
    if not wanted:
        return 0
    haystack = text.casefold()
    score, start, previous = 0, 0, -2
    for char in wanted:
        found = haystack.find(char, start)
        if found < 0:
            return None
        score += 1
        if found == previous + 1:
            score += 3
        if found == 0 or not haystack[found - 1].isalnum():
            score += 2
        previous, start = found, found + 1
    return score * 1000 - len(haystack)


def best_score(query: str, entry: Entry) -> int | None:
    """The entry's best score over its title, its English title and its detail."""
    scores = [fuzzy_score(query, text) for text in (entry.title, entry.english, entry.detail)]
    found = [s for s in scores if s is not None]
    return max(found) if found else None


def rank(query: str, entries: Sequence[Entry]) -> list[Entry]:
    """The entries that match ``query``, best first (their own order among equals)."""
    scored = [(best_score(query, e), n, e) for n, e in enumerate(entries)]
    kept = [(s, n, e) for s, n, e in scored if s is not None]
    kept.sort(key=lambda item: (-item[0], item[1]))
    return [e for _, _, e in kept[:MAX_SHOWN]]


def looks_like_account(text: str) -> bool:
    """True when ``text`` may name an account: an e-mail, an id or a name of 3+ characters."""
    return len(text.strip()) >= 3


Lookup = Callable[[str], Awaitable[list[Entry]]]


class CommandPalette(QDialog):
    """A search box over ``entries`` and, when given, the server's accounts (``lookup``)."""

    def __init__(
        self, entries: Sequence[Entry], lookup: Lookup | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("commandPalette")
        self.setModal(True)
        self.setWindowFlag(Qt.WindowType.FramelessWindowHint)
        self.entries = list(entries)
        self.lookup = lookup
        self.found: list[Entry] = []  # the server's answer for the current text
        self.shown: list[Entry] = []
        #: Where the focus was when the palette opened: it goes back there on closing.
        self.return_to: QWidget | None = QApplication.focusWidget()
        self._task: asyncio.Task[None] | None = None
        self.search = QLineEdit(self)
        self.search.setObjectName("paletteSearch")
        self.search.setClearButtonEnabled(True)
        self.results = QListWidget(self)
        self.results.setObjectName("paletteResults")
        self.results.setUniformItemSizes(True)
        self.status = PlainLabel(self)
        self.status.setObjectName("paletteStatus")
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.status)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(LOOKUP_DELAY_MS)
        self.timer.timeout.connect(self._start_lookup)
        self.search.textChanged.connect(self._text_changed)
        self.search.installEventFilter(self)
        self.results.itemActivated.connect(lambda _item: self.run_current())
        self.resize(560, 420)
        self.retranslateUi()
        self._refilter()

    # -- typing -------------------------------------------------------------------------

    def _text_changed(self, _text: str) -> None:
        self._cancel_lookup()
        self.found = []
        self._refilter()
        if self.lookup is not None and looks_like_account(self.search.text()):
            self.timer.start()
            self.status.setText(QCoreApplication.translate("Palette", "Looking for accounts\u2026"))

    def _refilter(self) -> None:
        query = self.search.text()
        self.shown = [*self.found, *rank(query, self.entries)]
        self.results.clear()
        for entry in self.shown:
            kind = QCoreApplication.translate(CTX, KINDS[entry.kind])
            text = f"{entry.title}  \u2014  {entry.detail}" if entry.detail else entry.title
            item = QListWidgetItem(f"{text}    [{kind}]")
            item.setToolTip(plain_tooltip(entry.english if entry.english != entry.title else ""))
            self.results.addItem(item)
        if self.shown:
            self.results.setCurrentRow(0)
        self.status.setText(
            "" if self.shown else QCoreApplication.translate("Palette", "Nothing matches.")
        )

    # -- the server's accounts ------------------------------------------------------------

    def _cancel_lookup(self) -> None:
        self.timer.stop()
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    def _start_lookup(self) -> None:
        loop = event_loop()
        if loop is None or self.lookup is None:
            return
        self.status.setText(QCoreApplication.translate("Palette", "Looking for accounts\u2026"))
        self._task = loop.create_task(self._lookup(self.search.text()))

    async def _lookup(self, text: str) -> None:
        assert self.lookup is not None
        try:
            found = await self.lookup(text.strip())
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a network fault or a refusal: say so, keep the palette
            log.info("palette lookup failed: %s", type(exc).__name__)
            if self.search.text() == text:
                self.status.setText(describe_error(exc).summary)
            return
        if self.search.text() != text:
            return
        self.found = found
        self._refilter()
        if not found:
            self.status.setText(
                QCoreApplication.translate("Palette", "No account has this e-mail, name or id.")
            )
        else:
            self.status.setText("")

    # -- choosing ---------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Up, Down, Page Up/Down move through the results while typing; Enter runs."""
        pressed = isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress
        if watched is self.search and pressed:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
                self._move(key)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.run_current()
                return True
        return super().eventFilter(watched, event)

    def _move(self, key: int) -> None:
        if not self.shown:
            return
        step = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: 8}.get(Qt.Key(key), -8)
        row = max(0, min(len(self.shown) - 1, self.results.currentRow() + step))
        self.results.setCurrentRow(row)

    def run_current(self) -> None:
        """Close, then run the selected entry."""
        row = self.results.currentRow()
        if not 0 <= row < len(self.shown):
            return
        entry = self.shown[row]
        self.accept()  # (cancels a lookup under way: ``done``)
        entry.run()
        focused = QApplication.focusWidget()
        if focused is None or not focused.isVisible():  # the entry hid where the focus was
            self._focus_window()

    def done(self, result: int) -> None:
        """Closing cancels a lookup under way and gives the focus back where it was."""
        self._cancel_lookup()
        super().done(result)
        target = self.return_to
        if target is not None and isValid(target) and target.isVisible() and target.isEnabled():
            target.window().activateWindow()
            target.setFocus(Qt.FocusReason.PopupFocusReason)
        else:
            self._focus_window()

    def _focus_window(self) -> None:
        """Show the focus somewhere in the window under the palette (its first control)."""
        parent = self.parentWidget()
        if parent is None or not isValid(parent):
            return
        window = parent.window()
        window.activateWindow()
        focused = QApplication.focusWidget()
        if focused is None or not focused.isVisible() or focused.window() is not window:
            window.setFocus(Qt.FocusReason.PopupFocusReason)
            window.focusNextChild()

    def retranslateUi(self) -> None:
        """Every text in the current language."""
        self.setWindowTitle(QCoreApplication.translate("Palette", "Command palette"))
        self.setAccessibleName(QCoreApplication.translate("Palette", "Command palette"))
        self.search.setPlaceholderText(
            QCoreApplication.translate(
                "Palette", "Type a panel, a command, or an account's e-mail, name or id"
            )
        )
        self.search.setAccessibleName(QCoreApplication.translate("Palette", "Search"))
        self.results.setAccessibleName(QCoreApplication.translate("Palette", "Results"))

    def changeEvent(self, event: QEvent) -> None:
        """Follow a run-time language change."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
            self._refilter()
        super().changeEvent(event)


async def find_accounts(client: Any, text: str) -> list[Any]:
    """Accounts that ``text`` names: by e-mail prefix when it has an @, else by name, plus the
    account whose id it is (a 404 is simply no match)."""
    if "@" in text:
        page = await client.accounts.query(email=text, size=LOOKUP_SIZE)
        return list(page.items)
    by_name = client.accounts.query(name=text, size=LOOKUP_SIZE)
    if " " in text.strip():
        return list((await by_name).items)
    page, by_id = await asyncio.gather(by_name, _by_id(client, text))
    found = [*([by_id] if by_id is not None else []), *page.items]
    return list({a.biz_id: a for a in found}.values())


async def _by_id(client: Any, text: str) -> Any:
    try:
        return await client.accounts.get(text)
    except Exception as exc:
        if getattr(exc, "code", None) in ("RESOURCE.NOT_FOUND", "4040", "CLIENT.INVALID_ID"):
            return None  # no such account, or text that cannot be an id (nothing was sent)
        raise
