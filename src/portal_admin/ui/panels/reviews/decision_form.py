"""The decision form below the queue: the justification, the line that says when one is
required (or why the form is disabled), and Keep, Revoke, Don't know and Next undecided."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QLineEdit, QPushButton, QWidget

from portal_admin.reviews import Decision
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from . import refusals


class DecisionForm(QObject):
    """The form's widgets (children of ``parent``, laid out by it); Esc in the field goes back
    to ``queue``."""

    #: Keep, Revoke or Don't know clicked: the :class:`Decision`.
    decisionRequested = Signal(object)
    #: Next undecided clicked.
    nextRequested = Signal()

    def __init__(self, parent: QWidget, queue: QWidget) -> None:
        super().__init__(parent)
        self.justification_label = PlainLabel(parent)
        self.justification = QLineEdit(parent)
        self.justification.setObjectName("campaignJustification")
        self.justification.setMaxLength(2000)
        self.justification_label.setBuddy(self.justification)
        self.required = PlainLabel(parent)
        self.required.setObjectName("campaignRequired")
        self.required.setWordWrap(True)
        self.keep_button = QPushButton(parent)
        self.keep_button.setObjectName("decideKeep")
        self.revoke_button = QPushButton(parent)
        self.revoke_button.setObjectName("decideRevoke")
        self.dont_know_button = QPushButton(parent)
        self.dont_know_button.setObjectName("decideDontKnow")
        self.next_button = QPushButton(parent)
        self.next_button.setObjectName("nextUndecided")
        for button, decision in self.deciding:
            button.clicked.connect(lambda _c=False, d=decision: self.decisionRequested.emit(d))
        self.next_button.clicked.connect(lambda: self.nextRequested.emit())  # passes a bool
        back = QShortcut(QKeySequence(Qt.Key.Key_Escape), self.justification)
        back.setContext(Qt.ShortcutContext.WidgetShortcut)
        back.activated.connect(queue.setFocus)

    @property
    def deciding(self) -> tuple[tuple[QPushButton, Decision], ...]:
        """The decision buttons and what each decides."""
        return (
            (self.keep_button, Decision.KEEP),
            (self.revoke_button, Decision.REVOKE),
            (self.dont_know_button, Decision.DONT_KNOW),
        )

    @property
    def buttons(self) -> tuple[QPushButton, ...]:
        return (self.keep_button, self.revoke_button, self.dont_know_button, self.next_button)

    def allow(self, enabled: bool, why: str) -> None:
        """Enable the decisions, or disable them saying ``why`` (signed off, closed)."""
        for button, _decision in self.deciding:
            button.setEnabled(enabled)
            button.setToolTip(plain_tooltip(why))
        self.justification.setEnabled(enabled)
        self.justification.setToolTip(plain_tooltip(why))

    def ask_justification(self, decision: Decision, flagged: bool) -> None:
        """Say that ``decision`` needs a justification, and go to the field."""
        self.required.setText(refusals.needs_words(decision, flagged))
        set_tone(self.required, "error")
        self.justification.setFocus()

    def hint(self, flagged: bool) -> None:
        """Below the field: why it is disabled, or when a justification is required for the
        current item (``flagged``: it has a flag or is the reviewer's own account)."""
        if not self.justification.isEnabled():
            self._set_required(self.justification.toolTip())  # signed off or closed: why
        elif not self.justification.text().strip():
            self._set_required(
                QCoreApplication.translate(
                    "Campaigns",
                    "A justification is required for Revoke, for Don't know, and for Keep on a"
                    " flagged item.",
                )
                if flagged
                else QCoreApplication.translate(
                    "Campaigns", "A justification is required for Revoke and for Don't know."
                )
            )

    def _set_required(self, text: str) -> None:
        if self.required.text() != text:
            self.required.setText(text)
        set_tone(self.required, None)

    def retranslate(self) -> None:
        self.justification_label.setText(QCoreApplication.translate("Campaigns", "&Justification:"))
        self.justification.setPlaceholderText(
            QCoreApplication.translate(
                "Campaigns", "Why (required for Revoke, Don't know, and Keep on a flagged item)"
            )
        )
        self.keep_button.setText(QCoreApplication.translate("Campaigns", "&Keep"))
        self.keep_button.setToolTip(
            QCoreApplication.translate("Campaigns", "Keep the access (K in the queue)")
        )
        self.revoke_button.setText(QCoreApplication.translate("Campaigns", "&Revoke"))
        self.revoke_button.setToolTip(
            QCoreApplication.translate("Campaigns", "Revoke the access (R in the queue)")
        )
        self.dont_know_button.setText(QCoreApplication.translate("Campaigns", "&Don't know"))
        self.dont_know_button.setToolTip(
            QCoreApplication.translate("Campaigns", "Someone else must decide (D in the queue)")
        )
        self.next_button.setText(QCoreApplication.translate("Campaigns", "&Next undecided"))
        self.next_button.setToolTip(
            QCoreApplication.translate(
                "Campaigns", "N in the queue; J moves to the justification, Esc back"
            )
        )
