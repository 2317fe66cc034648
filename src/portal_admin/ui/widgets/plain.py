"""Outside text shown as plain text: the one way the program puts text in a label, a tooltip or
a message box.

Qt renders a string as rich text (HTML) wherever it *might be* rich text
(``Qt.mightBeRichText``): in tooltips, in item views' ``ToolTipRole``, and in labels and message
boxes left in ``AutoText``. Text from a server, a file or a person could then draw images (an
``<img src=file:///dev/zero>`` reads that file until the program dies), fake links, or make a
confirmation read something else. So:

- every label and message box of the program is ``Qt.PlainText``: built as
  :class:`PlainLabel` and :class:`PlainMessageBox` (``QLabel`` subclasses set it themselves);
- every tooltip that holds outside text goes through :func:`plain_tooltip` (escaped, wrapped in
  a paragraph so Qt never takes it for markup of its own);
- the program's own rich text (a link, bold words) is explicit: :func:`rich_text` fills a
  program-own template with escaped outside parts, and only its result
  (:class:`TrustedHtml`) is ever shown as rich text (:func:`set_rich_text`).

``tools/plain_text_check.py`` (run by ``tests/ui/test_plain_text_rule.py``) fails on code under
``ui/`` that builds a ``QLabel`` or ``QMessageBox`` of Qt's, sets rich text, or gives a tooltip a
computed string any other way.
"""

from __future__ import annotations

import html
import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox


class TrustedHtml(str):
    """Rich text the program wrote itself, its outside parts escaped (made by
    :func:`rich_text`)."""

    __slots__ = ()


_PLACE = re.compile(r"%(\d+)")


def escape(text: str) -> str:
    """``text`` with ``&``, ``<``, ``>`` and quotes written as entities."""
    return html.escape(text, quote=True)


def plain_tooltip(text: str | None) -> str:
    """A tooltip showing ``text`` literally (empty stays empty: no tip).

    Qt takes a tooltip for HTML when it holds a tag (``<``) or an entity (``&``); such a text
    is escaped and wrapped in a paragraph of the program's own, so Qt renders the whole as its
    rich text with the outside text only as characters in it (line breaks and runs of spaces
    kept). A text with neither is already shown as it is, and is left so.
    """
    if not text:
        return ""
    if "<" not in text and "&" not in text:
        return text
    return f"<p style='white-space:pre-wrap'>{escape(text)}</p>"


def rich_text(template: str, *parts: str) -> TrustedHtml:
    """The program's own rich ``template`` (``%1``, ``%2``… as in Qt's ``arg()``) with ``parts``
    put in, each escaped unless it is :class:`TrustedHtml` itself. Only program-own templates
    (literals, ``tr()``) belong in ``template``."""

    def part(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if not 0 < number <= len(parts):
            return match.group(0)
        text = parts[number - 1]
        return text if isinstance(text, TrustedHtml) else escape(text)

    return TrustedHtml(_PLACE.sub(part, template))


class PlainLabel(QLabel):
    """A label that shows its text literally, whatever it is set to (``QLabel``'s arguments)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setTextFormat(Qt.TextFormat.PlainText)


class PlainMessageBox(QMessageBox):
    """A message box whose text and informative text show literally (``QMessageBox``'s
    arguments)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def setInformativeText(self, text: str) -> None:
        super().setInformativeText(text)
        for label in self.findChildren(QLabel, "qt_msgbox_informativelabel"):
            label.setTextFormat(Qt.TextFormat.PlainText)


def set_rich_text(label: QLabel, text: TrustedHtml) -> None:
    """Show the program's own rich text (made by :func:`rich_text`) in ``label``."""
    if not isinstance(text, TrustedHtml):
        raise TypeError("set_rich_text() takes rich_text() only")
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setText(text)
