"""After sign-in: an offer to resume the bulk jobs that a closed or crashed program left."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.widgets.plain import PlainMessageBox


def offer_resume(window: Any, server: str) -> QMessageBox | None:
    """A non-blocking message naming the paused or interrupted jobs on ``server``."""
    from portal_admin.jobs.summary import waiting as waiting_on

    waiting = waiting_on(server)
    if not waiting:
        return None
    box = PlainMessageBox(window)
    box.setObjectName("resumeOffer")
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle(QCoreApplication.translate("ResumeOffer", "Bulk jobs waiting"))
    box.setText(
        fill(
            QCoreApplication.translate(
                "ResumeOffer",
                "%1 bulk job(s) on this server were paused or interrupted. Resume them from "
                "the Bulk jobs panel: targets whose outcome is unknown are read back first, so "
                "nothing is changed twice.",
            ),
            len(waiting),
        )
    )
    show = box.addButton(
        QCoreApplication.translate("ResumeOffer", "Show the jobs"),
        QMessageBox.ButtonRole.AcceptRole,
    )
    box.addButton(
        QCoreApplication.translate("ResumeOffer", "Later"), QMessageBox.ButtonRole.RejectRole
    )
    show.clicked.connect(lambda: window.show_panel("jobs"))
    box.open()
    return box
