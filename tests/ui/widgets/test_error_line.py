"""The one inline error (``widgets/error_line.py``): what a server or a file said is shown as
plain text, with its code and request id, copied whole, and follows a language switch."""

from __future__ import annotations

import errno

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from portal_admin.ui.error_info import ErrorInfo
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.widgets.error_line import ErrorLine
from portal_admin.ui.widgets.plain import PlainLabel

HOSTILE = "<img src=file:///dev/zero><b>bold</b> &amp;"


KEPT: list[QWidget] = []


def shown_line(qtbot: QtBot) -> ErrorLine:
    """A line in a window on screen (the line itself hidden until it has something to say)."""
    window = QWidget()
    KEPT[:] = [window]
    qtbot.addWidget(window)
    QVBoxLayout(window).addWidget(line := ErrorLine(window))
    window.show()
    return line


def test_a_failure_is_shown_in_plain_text_with_code_and_request_id(qtbot: QtBot) -> None:
    line = shown_line(qtbot)
    assert not line.isVisible() and line.text() == ""
    info = ErrorInfo("It failed.", HOSTILE, code="X.Y", request_id="req-1")
    assert line.show_error(info) is info and line.info is info
    assert line.isVisible()
    labels = line.findChildren(PlainLabel)
    assert labels and all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)
    assert line.message.text() == HOSTILE
    assert line.text() == f"It failed.\n{HOSTILE}\nError code: X.Y   Request id: req-1"
    line.copy_button.click()
    assert QGuiApplication.clipboard().text() == info.as_text()
    line.clear_error()
    assert not line.isVisible() and line.info is None and line.text() == ""


def test_an_exception_is_described_and_a_message_needs_none(qtbot: QtBot) -> None:
    line = shown_line(qtbot)
    info = line.show_error(PermissionError(errno.EACCES, "Permission denied", "/x"))
    assert info.summary == "A file or folder on this computer could not be used."
    line.show_message(HOSTILE)
    assert line.info is None and line.text() == HOSTILE
    assert line.copy_button.isHidden() and line.message.isHidden()


def test_the_line_follows_a_language_switch(qtbot: QtBot) -> None:
    line = shown_line(qtbot)
    line.show_error(ErrorInfo("It failed.", "", code="X.Y"))
    languages = LanguageManager()
    try:
        languages.set_language("ja")
        QCoreApplication.sendPostedEvents()
        assert line.copy_button.text() == "コピー"
        assert line.details.text() == "エラーコード: X.Y"
    finally:
        languages.set_language("en")
        QCoreApplication.sendPostedEvents()
    assert line.copy_button.text() == "Copy"
