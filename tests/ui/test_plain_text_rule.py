"""The plain-text rule on the source (``tools/plain_text_check.py``): ui/ keeps it, and the
checker finds each way of breaking it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from plain_text_check import ALLOWED, UI, check_files, check_source  # noqa: E402 - from tools/


def test_the_desktop_program_keeps_the_rule() -> None:
    findings = check_files(UI.rglob("*.py"))
    assert not findings, "\n".join(map(str, findings))


def test_every_allowed_exception_is_still_in_the_source() -> None:
    """An exception whose call is gone is dropped from the list, not kept to excuse another."""
    import ast

    calls = {
        (path.relative_to(UI).as_posix(), ast.unparse(node))
        for path in UI.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
    }
    assert set(ALLOWED) <= calls
    assert all(reason.strip() for reason in ALLOWED.values())


HEAD = "from PySide6.QtCore import Qt, QCoreApplication\n"

BAD = {
    "a Qt label": "label = QLabel(parent)\n",
    "a Qt label with text": "label = QLabel(account.name, parent)\n",
    "a Qt message box": "box = QMessageBox(parent)\n",
    "a static message box": "QMessageBox.warning(parent, 'Title', account.name)\n",
    "a rich text edit": "edit = QTextEdit(parent)\n",
    "rich text set by hand": "label.setTextFormat(Qt.TextFormat.RichText)\n",
    "auto text set by hand": "label.setTextFormat(Qt.TextFormat.AutoText)\n",
    "a computed tooltip": "button.setToolTip(account.name)\n",
    "a filled tooltip": "button.setToolTip(fill(self.tr('Delete %1'), account.name))\n",
    "an f-string tooltip": "item.setToolTip(f'{value}\\n{code}')\n",
    "a tab tooltip": "tabs.setTabToolTip(0, portal.name)\n",
    "a tree item's tooltip": "item.setToolTip(1, portal.name)\n",
    "a header's tooltip": "m.setHeaderData(0, Qt.Horizontal, name, Qt.ItemDataRole.ToolTipRole)\n",
    "QWhatsThis.showText": "QWhatsThis.showText(pos, row.user_agent, self)\n",
    "QToolTip.showText": "QToolTip.showText(pos, row.user_agent, self)\n",
    "a ToolTipRole item": "item.setData(row.name, Qt.ItemDataRole.ToolTipRole)\n",
    "a combo's ToolTipRole": "combo.setItemData(0, row.name, Qt.ItemDataRole.ToolTipRole)\n",
    "a form row's label text": "def f(form, name, field):\n    form.addRow(name, field)\n",
    "a model's ToolTipRole": (
        "class M:\n"
        "    def data(self, index, role):\n"
        "        if role == Qt.ItemDataRole.ToolTipRole:\n"
        "            return self.rows[index.row()].user_agent\n"
    ),
    "a model's shared role": (
        "class M:\n"
        "    def data(self, index, role):\n"
        "        if role in (_DISPLAY, _TOOLTIP):\n"
        "            return self.text(index)\n"
    ),
    "a model's fall-through answer": (
        "class M:\n"
        "    def data(self, index, role):\n"
        "        if role == _TOOLTIP and index.column() != 0:\n"
        "            return None\n"
        "        if role == _DISPLAY:\n"
        "            return self.text(index)\n"
        "        return self.item(index).id\n"
    ),
    "a label class left in AutoText": (
        "class Counter(QLabel):\n"
        "    def __init__(self, parent):\n"
        "        super().__init__(parent)\n"
    ),
    "a tr() that is not pure": "button.setToolTip(self.tr(account.name))\n",
}


@pytest.mark.parametrize("source", BAD.values(), ids=list(BAD))
def test_the_checker_finds_a_bad_example(source: str) -> None:
    findings = check_source(HEAD + source)
    assert len(findings) == 1, findings


GOOD = {
    "a plain label": "label = PlainLabel(parent)\nlabel.setText(account.name)\n",
    "a plain box": "box = PlainMessageBox(parent)\nbox.setText(account.name)\n",
    "a translated tooltip": "button.setToolTip(self.tr('Refresh'))\n",
    "a translated plural": "button.setToolTip(self.tr('%n rows', '', count))\n",
    "a translate() tooltip": "b.setToolTip(QCoreApplication.translate('C', 'Refresh'))\n",
    "a choice of words": "b.setToolTip(self.tr('On') if on else '')\n",
    "an escaped tooltip": "button.setToolTip(plain_tooltip(account.name))\n",
    "the program's own rich text": (
        "set_rich_text(label, rich_text(self.tr('<b>%1</b> is signed in'), name))\n"
    ),
    "an escaped model tooltip": (
        "class M:\n"
        "    def data(self, index, role):\n"
        "        if role == Qt.ItemDataRole.ToolTipRole:\n"
        "            return plain_tooltip(self.rows[index.row()].user_agent)\n"
    ),
    "a form row of a label widget": (
        "def f(form, field):\n    label = PlainLabel(form.parentWidget())\n"
        "    form.addRow(label, field)\n"
    ),
    "a form row of translated words": (
        "def f(form, a, b):\n"
        "    for text, field in ((tr('Name'), a), (tr('Email'), b)):\n"
        "        form.addRow(text, field)\n"
    ),
    "a label class made plain": (
        "class Counter(QLabel):\n    def __init__(self, parent):\n"
        "        super().__init__(parent)\n"
        "        self.setTextFormat(Qt.TextFormat.PlainText)\n"
    ),
    "a button's text": "button.setText(account.name)\n",
}


@pytest.mark.parametrize("source", GOOD.values(), ids=list(GOOD))
def test_the_checker_passes_a_good_example(source: str) -> None:
    assert check_source(HEAD + source) == []
