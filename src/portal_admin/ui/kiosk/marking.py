"""The read-only marking of what leaves a kiosk session: CSV exports and screenshots.

While a kiosk session is signed in, :func:`current` returns its :class:`ReadOnlyMarking`;
``export_dialog.run_export`` adds :func:`csv_footer` to the file, and
``screenshots.save_screenshot`` adds :func:`watermark` to the picture. Both carry the time
they were made (local time with its UTC offset, ISO 8601).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import QCoreApplication, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPixmap

from portal_admin.ui.i18n.text import fill

#: Height of the watermark strip added below a screenshot, in pixels (device independent).
STRIP_HEIGHT = 30
STRIP_COLOUR = "#263238"
#: Below this width the strip has two lines (time, then account) and is at least this wide.
NARROW_WIDTH = 520
MIN_STRIP_WIDTH = 300


def now_iso() -> str:
    """The local time with its UTC offset, to the second (2026-03-02T14:05:09+01:00)."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class ReadOnlyMarking:
    """Who is signed in to the kiosk session, and whether CSV export is allowed."""

    account: str
    csv_export: bool = True
    clock: Callable[[], str] = now_iso


_current: ReadOnlyMarking | None = None


def current() -> ReadOnlyMarking | None:
    """The marking of the kiosk session signed in now, or None (not kiosk, signed out)."""
    return _current


def set_current(marking: ReadOnlyMarking | None) -> None:
    """Start (or, with None, end) marking what leaves the program."""
    global _current
    _current = marking


def csv_footer(marking: ReadOnlyMarking, when: str | None = None) -> str:
    """``READ-ONLY EXPORT — <time> — <account>`` (not translated: a fixed, searchable mark)."""
    return f"READ-ONLY EXPORT \u2014 {when or marking.clock()} \u2014 {marking.account}"


def watermark_text(marking: ReadOnlyMarking, when: str | None = None) -> str:
    """``Read-only · <time>`` in the UI language."""
    return fill(
        QCoreApplication.translate("KioskMarking", "Read-only \u00b7 %1"), when or marking.clock()
    )


def watermark(picture: QPixmap, marking: ReadOnlyMarking, when: str | None = None) -> QPixmap:
    """``picture`` with a dark strip below it reading ``Read-only · <time> · <account>``."""
    ratio = picture.devicePixelRatio() or 1.0
    width = round(picture.width() / ratio)
    height = round(picture.height() / ratio)
    text = watermark_text(marking, when)
    narrow = width < NARROW_WIDTH  # a menu, a small dialog: two lines, the account below
    lines = 2 if narrow and marking.account else 1
    strip_height = STRIP_HEIGHT if lines == 1 else STRIP_HEIGHT * 2 - 10
    font = QFont()
    font.setBold(True)
    font.setPixelSize(14)
    needed = QFontMetrics(font).horizontalAdvance(text) + 24
    full_width = max(width, max(MIN_STRIP_WIDTH, needed) if narrow else width)
    marked = QPixmap(round(full_width * ratio), round((height + strip_height) * ratio))
    marked.setDevicePixelRatio(ratio)
    marked.fill(QColor(STRIP_COLOUR))
    painter = QPainter(marked)
    try:
        painter.drawPixmap(0, 0, picture)
        painter.setFont(font)
        painter.setPen(QColor("white"))
        align = Qt.AlignmentFlag.AlignVCenter
        left, right = align | Qt.AlignmentFlag.AlignLeft, align | Qt.AlignmentFlag.AlignRight
        if lines == 1:
            strip = QRect(10, height, max(full_width - 20, 1), STRIP_HEIGHT)
            painter.drawText(strip, left, text)
            if marking.account:
                painter.drawText(strip, right, marking.account)
        else:
            row = STRIP_HEIGHT - 10
            painter.drawText(QRect(6, height + 2, full_width - 12, row), left, text)
            painter.drawText(QRect(6, height + row, full_width - 12, row), left, marking.account)
    finally:
        painter.end()
    return marked
