"""Typed confirmation: the person types the number of targets before a job runs.

When is decided by ``jobs.confirmation_needed`` (one rule for the command line and the desktop
program: every run on production, and a revert of more than 100 targets anywhere); this widget
only asks. The bulk window puts it beside Run, and so does the revert window.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QWidget

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.profiles.store import Profile, environment_label
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel


def typed_number(text: str) -> int | None:
    """The number typed (spaces and thousands separators ignored), or None."""
    digits = "".join(ch for ch in text if ch not in " ,.'\u00a0\u202f_")
    return int(digits) if digits.isascii() and digits.isdigit() else None


class TypedConfirm(QWidget):
    """A label and a field: "type N to confirm". Hidden when no typing is needed.

    ``require(count, profile)`` sets the number (None: nothing to type); ``confirmed()`` is
    True when nothing is needed or the right number is typed; ``changed`` fires on each edit.
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("typedConfirm")
        self.needed: int | None = None
        self.profile: Profile | None = None
        self.label = PlainLabel(self)
        self.label.setWordWrap(True)
        self.field = QLineEdit(self)
        self.field.setObjectName("typedConfirmCount")
        self.field.setMaximumWidth(110)
        self.label.setBuddy(self.field)
        self.field.textChanged.connect(self._edited)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.field)
        self.require(None)

    def require(self, count: int | None, profile: Profile | None = None) -> None:
        """Ask for ``count`` to be typed (None: nothing to type); the field starts empty."""
        self.needed = count
        self.profile = profile
        self.field.clear()
        self.setVisible(count is not None)
        self.retranslateUi()
        self.changed.emit()

    def confirmed(self) -> bool:
        """True when no typing is needed or the number typed is the one needed."""
        return self.needed is None or typed_number(self.field.text()) == self.needed

    def wrong(self) -> bool:
        """True when something is typed and it is not the number needed."""
        return bool(self.field.text().strip()) and not self.confirmed()

    def _edited(self, *_args: object) -> None:
        set_tone(self.field, "error" if self.wrong() else None)
        self.field.setToolTip(
            QCoreApplication.translate("TypedConfirm", "That is not the number of targets.")
            if self.wrong()
            else ""
        )
        self.changed.emit()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        if self.needed is None:
            self.label.setText("")
            return
        production = self.profile is not None and self.profile.environment.needs_confirmation
        if production and self.profile is not None:
            text = fill(
                QCoreApplication.translate("TypedConfirm", "%1 (%2): type %3 to confirm:"),
                environment_label(self.profile.environment),
                self.profile.name,
                self.needed,
            )
        else:
            text = fill(
                QCoreApplication.translate(
                    "TypedConfirm", "%1 targets will change: type %1 to confirm:"
                ),
                self.needed,
            )
        self.label.setText(text)
        self.field.setAccessibleName(
            QCoreApplication.translate("TypedConfirm", "Number of targets, to confirm")
        )
        self._edited()

    def changeEvent(self, event: Any) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
