"""Access-review campaigns (``portal_admin.reviews``): the Campaigns panel, next to Access
reviews. Deciding and signing are local file operations, so the panel works signed out and in
the kiosk; only remediation (never in the kiosk) and closing read or change the server."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec


def _campaigns(context: PanelContext) -> QWidget:
    from .panel import CampaignsPanel

    panel: QWidget = CampaignsPanel(context)
    return panel


def register(registry: PanelRegistry) -> None:
    """Register the Campaigns panel (right after Snapshots)."""
    registry.register(
        PanelSpec(
            "campaigns",
            QT_TRANSLATE_NOOP("Panels", "Review campaigns"),
            _campaigns,
            icon="nav.campaigns",
            order=365,
        )
    )
