"""Reviewing a campaign file without signing in: the Campaigns panel in a window of its own.

A reviewer needs the campaign file only (docs/reviews.md): the sign-in window offers
"Review a campaign file…", which opens this window with no client. Deciding, signing off,
verifying and packing work on the file alone; remediation and closing say that they need a
sign-in. In the kiosk the panel is built as the kiosk's (no remediation at all).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext, PanelExtras
from portal_admin.ui.profiles.store import Profile

from .panel import CampaignsPanel


class OfflineReviewWindow(QWidget):
    """A top-level window holding one Campaigns panel, with no session behind it."""

    def __init__(
        self,
        runner: OperationRunner,
        profile: Profile,
        *,
        kiosk: bool = False,
        extras: PanelExtras | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("offlineReviewWindow")
        context = PanelContext(runner, profile, None, {"kiosk": kiosk, **(extras or {})})
        self.panel = CampaignsPanel(context, self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.panel)
        self.resize(1100, 720)
        self.retranslateUi()

    def ask_for_file(self) -> None:
        """Show the window and the panel's own "Open a campaign file…" dialog."""
        self.show()
        self.raise_()
        self.panel.open_button.click()

    def retranslateUi(self) -> None:
        """The title in the current language."""
        self.setWindowTitle(
            QCoreApplication.translate("OfflineReview", "Review campaign (not signed in)")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
