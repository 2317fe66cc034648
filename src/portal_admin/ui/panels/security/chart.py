"""A small bar chart of sign-ins per day (successful and failed, stacked), drawn with QPainter."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from portal_admin.ui.i18n.dates import format_date
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.theme.tones import tone_color
from portal_admin.ui.widgets.plain import plain_tooltip

from .chart_data import DayCount, nice_ceiling


class SignInChart(QWidget):
    """Stacked bars per day: successful below, failed on top; legend, date and count axes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("signInChart")
        self.days: tuple[DayCount, ...] = ()
        self.setMinimumHeight(170)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)
        self._bars: list[tuple[QRectF, DayCount]] = []
        self.retranslateUi()

    def sizeHint(self) -> QSize:
        return QSize(600, 190)

    def set_days(self, days: Sequence[DayCount]) -> None:
        """Show ``days`` (consecutive, oldest first)."""
        self.days = tuple(days)
        self._describe()
        self.update()

    @property
    def totals(self) -> tuple[int, int]:
        """(successful, failed) over every day shown."""
        return sum(d.success for d in self.days), sum(d.failure for d in self.days)

    def day_label(self, day: DayCount) -> str:
        """The day in the locale's short date format."""
        return format_date(day.day, self.locale())

    def _describe(self) -> None:
        success, failure = self.totals
        if self.days:
            text = fill(
                QCoreApplication.translate(
                    "SignInChart", "%1 successful and %2 failed sign-ins from %3 to %4"
                ),
                success,
                failure,
                self.day_label(self.days[0]),
                self.day_label(self.days[-1]),
            )
        else:
            text = QCoreApplication.translate("SignInChart", "No sign-ins to show.")
        self.setAccessibleDescription(text)

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setAccessibleName(QCoreApplication.translate("SignInChart", "Sign-ins per day"))
        self._describe()
        self.update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.LanguageChange, QEvent.Type.LocaleChange):
            self.retranslateUi()
        super().changeEvent(event)

    # -- painting ------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            self._paint(painter)
        finally:
            painter.end()

    def _paint(self, painter: QPainter) -> None:
        palette = self.palette()
        text_color = palette.color(palette.ColorRole.WindowText)
        grid_color = palette.color(palette.ColorRole.Mid)
        metrics = QFontMetrics(self.font())
        line = metrics.height()
        rect = self.rect().adjusted(6, 4, -10, -4)
        legend_bottom = self._paint_legend(painter, rect.left(), rect.top(), line, text_color)
        self._bars = []
        if not self.days:
            painter.setPen(text_color)
            painter.drawText(
                rect.adjusted(0, legend_bottom - rect.top(), 0, 0),
                Qt.AlignmentFlag.AlignCenter,
                QCoreApplication.translate("SignInChart", "No sign-ins to show."),
            )
            return
        top_value, step = nice_ceiling(max(d.total for d in self.days))
        locale = self.locale()
        y_labels = [locale.toString(v) for v in range(0, top_value + 1, step)]
        axis_w = max(metrics.horizontalAdvance(t) for t in y_labels) + 8
        plot = QRectF(
            rect.left() + axis_w,
            legend_bottom + line // 2,
            rect.width() - axis_w,
            rect.bottom() - legend_bottom - line // 2 - line - 6,
        )
        if plot.height() < 10 or plot.width() < 10:
            return
        # grid lines and counts
        for n, value in enumerate(range(0, top_value + 1, step)):
            y = plot.bottom() - plot.height() * value / top_value
            painter.setPen(
                QPen(grid_color, 1, Qt.PenStyle.DotLine if value else Qt.PenStyle.SolidLine)
            )
            painter.drawLine(int(plot.left()), int(y), int(plot.right()), int(y))
            painter.setPen(text_color)
            painter.drawText(
                QRectF(rect.left(), y - line / 2, axis_w - 6, line),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                y_labels[n],
            )
        # bars
        slot = plot.width() / len(self.days)
        bar_w = max(1.0, slot * 0.7)
        painter.setPen(Qt.PenStyle.NoPen)
        for i, day in enumerate(self.days):
            x = plot.left() + i * slot + (slot - bar_w) / 2
            ok_h = plot.height() * day.success / top_value
            bad_h = plot.height() * day.failure / top_value
            painter.setBrush(tone_color("success", self.palette()))
            painter.drawRect(QRectF(x, plot.bottom() - ok_h, bar_w, ok_h))
            painter.setBrush(tone_color("error", self.palette()))
            painter.drawRect(QRectF(x, plot.bottom() - ok_h - bad_h, bar_w, bad_h))
            self._bars.append(
                (QRectF(plot.left() + i * slot, plot.top(), slot, plot.height()), day)
            )
        # date labels: as many as fit
        labels = [self.day_label(d) for d in self.days]
        label_w = max(metrics.horizontalAdvance(t) for t in labels) + 12
        every = max(1, math.ceil(label_w / slot))
        painter.setPen(text_color)
        for i in range(0, len(self.days), every):
            center = plot.left() + (i + 0.5) * slot
            box = QRectF(center - label_w / 2, plot.bottom() + 3, label_w, line)
            if box.right() > rect.right() + 8:
                box.moveRight(rect.right() + 8)
            painter.drawText(
                box, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, labels[i]
            )

    def _paint_legend(
        self, painter: QPainter, left: int, top: int, line: int, text_color: QColor
    ) -> int:
        metrics = QFontMetrics(self.font())
        x = left + 4
        palette = self.palette()
        for color, text in (
            (
                tone_color("success", palette),
                QCoreApplication.translate("SignInChart", "Successful"),
            ),
            (tone_color("error", palette), QCoreApplication.translate("SignInChart", "Failed")),
        ):
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(color)
            size = line - 4
            painter.drawRect(x, top + 2, size, size)
            painter.setPen(text_color)
            painter.drawText(x + size + 4, top + metrics.ascent(), text)
            x += size + 4 + metrics.horizontalAdvance(text) + 16
        return top + line + 2

    # -- tooltips ------------------------------------------------------------------------------

    def day_at(self, pos: QPoint) -> DayCount | None:
        """The day whose bar is under ``pos``."""
        for area, day in self._bars:
            if area.contains(pos.toPointF()):
                return day
        return None

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            day = self.day_at(event.pos())
            if day is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(
                    event.globalPos(),
                    plain_tooltip(
                        fill(
                            QCoreApplication.translate(
                                "SignInChart", "%1: %2 successful, %3 failed"
                            ),
                            self.day_label(day),
                            day.success,
                            day.failure,
                        )
                    ),
                    self,
                )
            return True
        result: Any = super().event(event)
        return bool(result)
