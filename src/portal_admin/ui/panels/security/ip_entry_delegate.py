"""The IP whitelist's editor: a line edit that checks the entry at every keystroke and shows
the result (red with the reason when not valid)."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    Qt,
)
from PySide6.QtWidgets import (
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from portal_admin.ui.widgets.plain import plain_tooltip

from .ip_rules import EntryCheck, check_entry
from .ip_whitelist_model import AnyIndex, describe_check


def mark(edit: QLineEdit, check: EntryCheck) -> None:
    """Show ``check`` on a line edit: red with the reason when not valid."""
    if check.valid:
        edit.setStyleSheet("")
        edit.setToolTip(plain_tooltip(describe_check(check)))
    else:
        edit.setStyleSheet("QLineEdit { color: #b00020; background: #fdecea; }")
        edit.setToolTip(plain_tooltip(describe_check(check)))
    edit.setAccessibleDescription(describe_check(check))


class LiveEntryDelegate(QStyledItemDelegate):
    """Edits an entry with a line edit that hands every keystroke to the model."""

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: AnyIndex
    ) -> QWidget:
        editor = QLineEdit(parent)
        editor.setObjectName("entryEditor")
        editor.setAccessibleName(
            QCoreApplication.translate("IpWhitelistPanel", "Address or network")
        )
        editor.textEdited.connect(lambda _text: self._edited(editor))
        return editor

    def _edited(self, editor: QLineEdit) -> None:
        mark(editor, check_entry(editor.text()))
        self.commitData.emit(editor)

    def setEditorData(self, editor: QWidget, index: AnyIndex) -> None:
        if isinstance(editor, QLineEdit):
            text = str(index.data(Qt.ItemDataRole.EditRole) or "")
            if editor.text() != text:
                editor.setText(text)
            mark(editor, check_entry(text))
            return
        super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: AnyIndex) -> None:
        if isinstance(editor, QLineEdit):
            model.setData(index, editor.text(), Qt.ItemDataRole.EditRole)
            return
        super().setModelData(editor, model, index)
