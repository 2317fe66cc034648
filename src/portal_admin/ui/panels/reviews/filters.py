"""The queue's filters: show (all, undecided, flagged, per decision), one flag, portal,
institution and text; their choices come from the open campaign, their state is a
:class:`~portal_admin.reviews.Query`."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

from portal_admin.reviews import Campaign, Query
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP

from .queue_model import flag_words

SHOW = (
    ("", QT_TRANSLATE_NOOP("Campaigns", "All items")),
    ("UNDECIDED", QT_TRANSLATE_NOOP("Campaigns", "Undecided")),
    ("FLAGGED", QT_TRANSLATE_NOOP("Campaigns", "Flagged")),
    ("KEEP", QT_TRANSLATE_NOOP("Campaigns", "Kept")),
    ("REVOKE", QT_TRANSLATE_NOOP("Campaigns", "Revoked")),
    ("DONT_KNOW", QT_TRANSLATE_NOOP("Campaigns", "Don't know")),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("Campaigns", text)


class QueueFilters(QObject):
    """The filter widgets (children of ``parent``, laid out by it) and the query they make."""

    #: A filter changed (the text after a pause of typing).
    changed = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.show_filter = QComboBox(parent)
        self.show_filter.setObjectName("campaignShow")
        self.flag_filter = QComboBox(parent)
        self.flag_filter.setObjectName("campaignFlag")
        self.decision_portal = QComboBox(parent)
        self.decision_portal.setObjectName("campaignPortal")
        self.institution_filter = QComboBox(parent)
        self.institution_filter.setObjectName("campaignInstitution")
        self.text_filter = QLineEdit(parent)
        self.text_filter.setObjectName("campaignText")
        self.text_filter.setClearButtonEnabled(True)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(250)
        self._text_timer.timeout.connect(self.changed)
        self.text_filter.textChanged.connect(lambda _t: self._text_timer.start())
        for combo in self.combos:
            combo.activated.connect(lambda _i: self.changed.emit())
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)

    @property
    def combos(self) -> tuple[QComboBox, ...]:
        return (self.show_filter, self.flag_filter, self.decision_portal, self.institution_filter)

    def fill(self, campaign: Campaign) -> None:
        """The choices of ``campaign``: its flags with their counts, portals, institutions."""
        self.flag_filter.clear()
        self.flag_filter.addItem(QCoreApplication.translate("Campaigns", "Any flag"), None)
        for code, n in campaign.flag_counts().items():
            self.flag_filter.addItem(f"{flag_words(code)} ({n})", code)
        for combo, column, anything in (
            (self.decision_portal, "portal", QCoreApplication.translate("Campaigns", "Any portal")),
            (
                self.institution_filter,
                "institution",
                QCoreApplication.translate("Campaigns", "Any institution"),
            ),
        ):
            combo.clear()
            combo.addItem(anything, None)
            for value in campaign.values(column):
                combo.addItem(value, value)

    def query(self) -> Query:
        """The filters as a query of the queue."""
        shown = self.show_filter.currentData() or ""
        return Query(
            decision=shown if shown not in ("", "FLAGGED") else None,
            flagged=True if shown == "FLAGGED" else None,
            flag=self.flag_filter.currentData(),
            portal=self.decision_portal.currentData(),
            institution=self.institution_filter.currentData(),
            text=self.text_filter.text().strip() or None,
        )

    def retranslate(self) -> None:
        """Texts in the current language (the choice made stays)."""
        self.text_filter.setPlaceholderText(
            QCoreApplication.translate("Campaigns", "Search e-mail, name or id")
        )
        current = self.show_filter.currentIndex()
        self.show_filter.clear()
        for code, words in SHOW:
            self.show_filter.addItem(_tr(words), code)
        self.show_filter.setCurrentIndex(max(current, 0))
        if self.flag_filter.count():
            self.flag_filter.setItemText(0, QCoreApplication.translate("Campaigns", "Any flag"))
            self.decision_portal.setItemText(
                0, QCoreApplication.translate("Campaigns", "Any portal")
            )
            self.institution_filter.setItemText(
                0, QCoreApplication.translate("Campaigns", "Any institution")
            )
        # no label of their own: a screen reader names them by these
        for widget, name in (
            (self.show_filter, QCoreApplication.translate("Campaigns", "Show items")),
            (self.flag_filter, QCoreApplication.translate("Campaigns", "Filter by flag")),
            (self.decision_portal, QCoreApplication.translate("Campaigns", "Filter by portal")),
            (self.institution_filter,
             QCoreApplication.translate("Campaigns", "Filter by institution")),
            (self.text_filter, QCoreApplication.translate("Campaigns", "Search the queue")),
        ):  # fmt: skip
            widget.setAccessibleName(name)
