"""The accounts filter bar: institution, portal, status, email and name (typing debounced)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, QEvent, QTimer, Signal
from PySide6.QtWidgets import QGridLayout, QLineEdit, QToolButton, QWidget

from portal_admin.ui.widgets.plain import PlainLabel

from .account_filter import AccountFilter
from .picker import Picker

#: How long typing must pause before the list is queried again.
DEBOUNCE_MS = 300


class AccountFilterBar(QWidget):
    """Filter controls; ``filterChanged`` carries the new :class:`AccountFilter`."""

    filterChanged = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("accountFilters")
        self.email = QLineEdit(self)
        self.email.setObjectName("filterEmail")
        self.name = QLineEdit(self)
        self.name.setObjectName("filterName")
        self.institution = QLineEdit(self)
        self.institution.setObjectName("filterInstitution")
        self.portal = Picker(
            self, any_text=QCoreApplication.translate("AccountFilters", "Any portal")
        )
        self.portal.setObjectName("filterPortal")
        self.status = Picker(
            self, any_text=QCoreApplication.translate("AccountFilters", "Any status")
        )
        self.status.setObjectName("filterStatus")
        self.clear_button = QToolButton(self)
        self.clear_button.setObjectName("filterClear")
        for edit in (self.email, self.name, self.institution):
            edit.setClearButtonEnabled(True)
        self.email_label = PlainLabel(self)
        self.name_label = PlainLabel(self)
        self.institution_label = PlainLabel(self)
        self.portal_label = PlainLabel(self)
        self.status_label = PlainLabel(self)
        pairs = (
            (self.email_label, self.email),
            (self.name_label, self.name),
            (self.status_label, self.status),
            (self.portal_label, self.portal),
            (self.institution_label, self.institution),
        )
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for n, (label, field) in enumerate(pairs):
            label.setBuddy(field)
            row, col = divmod(n, 3)
            grid.addWidget(label, row, col * 2)
            grid.addWidget(field, row, col * 2 + 1)
            grid.setColumnStretch(col * 2 + 1, 1)
        grid.addWidget(self.clear_button, 1, 5)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._emit)
        for edit in (self.email, self.name, self.institution):
            edit.textChanged.connect(self._typed)
            edit.returnPressed.connect(self._emit)
        self.portal.currentIndexChanged.connect(self._picked)
        self.status.currentIndexChanged.connect(self._picked)
        self.clear_button.clicked.connect(self.clear)
        self._last = AccountFilter()
        self.retranslateUi()

    def current(self) -> AccountFilter:
        """What the controls say now."""
        return AccountFilter(
            institution=self.institution.text().strip(),
            portal=self.portal.code(),
            status=self.status.code(),
            email=self.email.text().strip(),
            name=self.name.text().strip(),
        )

    def set_portals(self, items: Iterable[tuple[str, str | None]]) -> None:
        """The portal choices (code, label)."""
        self.portal.set_items(items)

    def set_statuses(self, items: Iterable[tuple[str, str | None]]) -> None:
        """The status choices (code, label)."""
        self.status.set_items(items)

    def clear(self) -> None:
        """Reset every filter (queries at once)."""
        for edit in (self.email, self.name, self.institution):
            edit.clear()
        self.portal.blockSignals(True)
        self.status.blockSignals(True)
        self.portal.set_code(None)
        self.status.set_code(None)
        self.portal.blockSignals(False)
        self.status.blockSignals(False)
        self._emit()

    @property
    def pending(self) -> bool:
        """True while typed text waits for the debounce."""
        return self._timer.isActive()

    def _typed(self, _text: str) -> None:
        self._timer.start()

    def _picked(self, _index: int) -> None:
        self._emit()

    def _emit(self) -> None:
        self._timer.stop()
        flt = self.current()
        if flt != self._last:
            self._last = flt
            self.filterChanged.emit(flt)

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.email_label.setText(QCoreApplication.translate("AccountFilters", "E&mail:"))
        self.name_label.setText(QCoreApplication.translate("AccountFilters", "&Name:"))
        self.institution_label.setText(
            QCoreApplication.translate("AccountFilters", "&Institution:")
        )
        self.portal_label.setText(QCoreApplication.translate("AccountFilters", "&Portal:"))
        self.status_label.setText(QCoreApplication.translate("AccountFilters", "S&tatus:"))
        self.email.setPlaceholderText(
            QCoreApplication.translate("AccountFilters", "Starts with\u2026")
        )
        self.name.setPlaceholderText(
            QCoreApplication.translate("AccountFilters", "A word of the name\u2026")
        )
        self.institution.setPlaceholderText(
            QCoreApplication.translate("AccountFilters", "Institution id")
        )
        self.portal.set_any_text(QCoreApplication.translate("AccountFilters", "Any portal"))
        self.status.set_any_text(QCoreApplication.translate("AccountFilters", "Any status"))
        self.clear_button.setText(QCoreApplication.translate("AccountFilters", "Clear filters"))
        self.email.setAccessibleName(
            QCoreApplication.translate("AccountFilters", "Filter by email")
        )
        self.name.setAccessibleName(QCoreApplication.translate("AccountFilters", "Filter by name"))
        self.institution.setAccessibleName(
            QCoreApplication.translate("AccountFilters", "Filter by institution id")
        )
        self.portal.setAccessibleName(
            QCoreApplication.translate("AccountFilters", "Filter by portal")
        )
        self.status.setAccessibleName(
            QCoreApplication.translate("AccountFilters", "Filter by status")
        )
        self.clear_button.setAccessibleName(
            QCoreApplication.translate("AccountFilters", "Clear every filter")
        )
        self.setAccessibleName(QCoreApplication.translate("AccountFilters", "Account filters"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
