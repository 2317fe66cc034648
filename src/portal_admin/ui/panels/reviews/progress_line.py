"""The campaign's counts and due date under its title: decided of total, per decision and per
reviewer; the due date, in red with the count of late items once it has passed."""

from __future__ import annotations

from datetime import UTC, date, datetime

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.theme.tones import set_tone

from .work import Progress


def show(progress: QLabel, due_label: QLabel, s: Progress, due: str, today: date | None) -> None:
    """Show the counts ``s`` in ``progress`` and the due date ``due`` in ``due_label``."""
    said = QCoreApplication.translate(
        "Campaigns", "%1 of %2 decided: %3 kept, %4 revoked, %5 don't know."
    )
    text = fill(said, s.decided, s.items, s.kept, s.revoked, s.dont_know)
    if s.reviewers:
        each = "; ".join(f"{name}: {n}" for name, n in s.reviewers[:8])
        text += " " + fill(QCoreApplication.translate("Campaigns", "By reviewer: %1."), each)
    progress.setText(text)
    today = today or datetime.now(UTC).date()
    late = bool(due) and today.isoformat() > due and s.decided < s.items
    if s.closed:
        due_label.setText(fill(QCoreApplication.translate("Campaigns", "Due %1. Closed."), due))
    elif late:
        due_label.setText(
            fill(
                QCoreApplication.translate("Campaigns", "Due %1: overdue, %2 items late."),
                due,
                s.overdue,
            )
        )
    else:
        due_label.setText(
            fill(QCoreApplication.translate("Campaigns", "Due %1."), due) if due else ""
        )
    set_tone(due_label, "error" if late and not s.closed else None)
    due_label.setProperty("overdue", late and not s.closed)
