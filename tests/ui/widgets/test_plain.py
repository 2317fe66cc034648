"""ui/widgets/plain.py: outside text shows literally in labels, message boxes and tooltips."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QToolTip, QWidget
from pytestqt.qtbot import QtBot

from portal_admin.ui.widgets.plain import (
    PlainLabel,
    PlainMessageBox,
    TrustedHtml,
    plain_tooltip,
    rich_text,
    set_rich_text,
)

#: Markup a server, a file or a person could send (no file URL: nothing is read if it renders).
MARKER = "<img src=x>PWN<b>"
HOSTILE = [MARKER, "a & b", "&lt;b&gt;", "<!-- x -->y", "line 1\n  <i>line 2</i>", "%1 <a href=x>"]


def rendered(html: str) -> str:
    """What Qt's rich-text engine (tooltips, rich labels) shows for ``html``."""
    document = QTextDocument()
    document.setHtml(html)
    return document.toPlainText()


@pytest.mark.parametrize("text", HOSTILE)
def test_a_tooltip_shows_the_text_itself(qapp: QApplication, text: str) -> None:
    tip = plain_tooltip(text)
    assert GuiQt.mightBeRichText(tip)  # Qt takes it as the program's rich text...
    assert "<img" not in tip and "<b>" not in tip and "<i>" not in tip
    assert rendered(tip) == text  # ...which shows the outside text literally


def test_a_tooltip_without_markup_characters_is_left_as_it_is() -> None:
    assert plain_tooltip("") == "" and plain_tooltip(None) == ""
    text = "Mozilla/5.0 (X11; Linux x86_64)\n  two spaces > one"
    assert plain_tooltip(text) == text and not GuiQt.mightBeRichText(text)


def test_hovering_shows_the_tooltip_literally(qtbot: QtBot) -> None:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.setToolTip(plain_tooltip(MARKER))
    widget.show()
    QToolTip.showText(widget.mapToGlobal(QPoint(2, 2)), widget.toolTip(), widget)
    try:
        shown = [w for w in QApplication.topLevelWidgets() if w.objectName() == "qtooltip_label"]
        assert shown and isinstance(shown[0], QLabel)
        assert rendered(shown[0].text()) == MARKER
    finally:
        QToolTip.hideText()


@pytest.mark.parametrize("text", HOSTILE)
def test_a_plain_label_stays_plain(qtbot: QtBot, text: str) -> None:
    label = PlainLabel(text)
    qtbot.addWidget(label)
    assert label.textFormat() == Qt.TextFormat.PlainText and label.text() == text
    label.setText(MARKER)
    assert label.textFormat() == Qt.TextFormat.PlainText


def test_a_message_box_shows_its_texts_literally(qtbot: QtBot) -> None:
    box = PlainMessageBox()
    qtbot.addWidget(box)
    box.setText(MARKER)
    box.setInformativeText(MARKER)
    labels = {label.objectName(): label for label in box.findChildren(QLabel)}
    for name in ("qt_msgbox_label", "qt_msgbox_informativelabel"):
        assert labels[name].textFormat() == Qt.TextFormat.PlainText
        assert labels[name].text() == MARKER


def test_the_programs_own_rich_text_escapes_the_outside_parts(qtbot: QtBot) -> None:
    row = rich_text("<tr><td><b>%1</b></td><td>%2</td></tr>", MARKER, "50% off %1")
    table = rich_text("<table>%1</table><p>%2</p>", row, "<i>x</i>")
    assert rendered(table).split() == ["<img", "src=x>PWN<b>", "50%", "off", "%1", "<i>x</i>"]
    label = QLabel()
    qtbot.addWidget(label)
    set_rich_text(label, table)
    assert label.textFormat() == Qt.TextFormat.RichText
    with pytest.raises(TypeError):
        set_rich_text(label, MARKER)  # type: ignore[arg-type] - a plain str is refused
    assert isinstance(table, TrustedHtml)


def test_a_confirmation_names_the_account_as_it_is(qtbot: QtBot) -> None:
    """An account name with markup cannot make the question read another address."""
    from portal_admin.ui.profiles.store import EnvironmentType, Profile
    from portal_admin.ui.widgets.confirm import build_confirm_box

    name = "eve@example.test?<br><br>Reset the password of <b>admin@example.test</b>"
    production = Profile(
        f"Prod {MARKER}", "https://p.example", environment=EnvironmentType.PRODUCTION
    )
    box, _confirm = build_confirm_box(
        None, title="Reset", text=f"Reset the password of {name}?", confirm_text="Reset",
        profile=production,
    )  # fmt: skip
    qtbot.addWidget(box)
    labels = {label.objectName(): label for label in box.findChildren(QLabel)}
    question, production_note = labels["qt_msgbox_label"], labels["qt_msgbox_informativelabel"]
    assert question.textFormat() == Qt.TextFormat.PlainText
    assert question.text() == f"Reset the password of {name}?"
    assert production_note.textFormat() == Qt.TextFormat.PlainText
    assert MARKER in production_note.text()
