"""A searchable picker: an editable combo box whose completer filters by "contains",
case-insensitively, over items shown as "label (code)".
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QCompleter, QWidget


def item_text(label: str | None, code: str) -> str:
    """How an item is shown: "label (code)", or the code alone when the label is it."""
    if not label or label == code:
        return code
    return f"{label} ({code})"


class Picker(QComboBox):
    """Pick one code from a list; typing filters the list (contains, any case).

    With ``any_text`` the first entry stands for "no choice" (code None). With
    ``free_text`` a typed text that matches no entry is taken as the code itself (the server
    then judges it).
    """

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        any_text: str | None = None,
        free_text: bool = False,
    ) -> None:
        super().__init__(parent)
        self._any_text = any_text
        self._free_text = free_text
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setMaxVisibleItems(15)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(14)
        completer = QCompleter(self.model(), self)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.setCompleter(completer)
        if any_text is not None:
            self.addItem(any_text, None)

    def showPopup(self) -> None:
        """Open the list as wide as its longest entry (the box itself may be narrower)."""
        view = self.view()
        wanted = view.sizeHintForColumn(0) + 2 * view.frameWidth()
        if self.count() > self.maxVisibleItems():
            wanted += view.verticalScrollBar().sizeHint().width()
        view.setMinimumWidth(wanted)
        super().showPopup()

    def setAccessibleName(self, name: str) -> None:
        """Name the combo box and its text field (a screen reader lands on the field)."""
        super().setAccessibleName(name)
        line = self.lineEdit()
        if line is not None:
            line.setAccessibleName(name)

    def setAccessibleDescription(self, description: str) -> None:
        """Describe the combo box and its text field."""
        super().setAccessibleDescription(description)
        line = self.lineEdit()
        if line is not None:
            line.setAccessibleDescription(description)

    def set_any_text(self, text: str) -> None:
        """Retranslate the "no choice" entry."""
        if self._any_text is not None and self.count():
            self._any_text = text
            self.setItemText(0, text)
            if self.currentIndex() == 0:
                self.setEditText(text)

    def set_items(self, items: Iterable[tuple[str, str | None]], *, keep: bool = True) -> None:
        """Show ``(code, label)`` pairs; the current code is kept when still offered."""
        current = self.code() if keep else None
        self.blockSignals(True)
        try:
            self.clear()
            if self._any_text is not None:
                self.addItem(self._any_text, None)
            for code, label in items:
                self.addItem(item_text(label, code), code)
        finally:
            self.blockSignals(False)
        self.set_code(current)

    def codes(self) -> list[str]:
        """Every offered code."""
        return [str(self.itemData(i)) for i in range(self.count()) if self.itemData(i) is not None]

    def code(self) -> str | None:
        """The chosen code (None for "no choice", or an unmatched text without free_text)."""
        text = self.currentText().strip()
        index = self.currentIndex()
        if index >= 0 and self.itemText(index) == text:
            data = self.itemData(index)
            return None if data is None else str(data)
        found = self.findText(text, Qt.MatchFlag.MatchFixedString)
        if found >= 0:
            data = self.itemData(found)
            return None if data is None else str(data)
        found = self.findData(text)
        if found >= 0:
            return text
        if self._free_text and text:
            return text
        return None

    def set_code(self, code: str | None) -> None:
        """Choose ``code`` (None: the "no choice" entry, or empty); an unknown code is added."""
        if code is None:
            self.setCurrentIndex(0 if self._any_text is not None else -1)
            if self._any_text is None:
                self.setEditText("")
            return
        index = self.findData(code)
        if index < 0:
            self.addItem(code, code)
            index = self.count() - 1
        self.setCurrentIndex(index)
        edit = self.lineEdit()
        if edit is not None:  # show a long choice from its start, not its end
            edit.setCursorPosition(0)
