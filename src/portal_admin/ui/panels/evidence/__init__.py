"""Evidence for auditors: access-review snapshots and their diffs, the journal of changes.

Both panels read only (snapshots send read operations), so the kiosk shows them too.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec


def _reviews(context: PanelContext) -> QWidget:
    from .reviews_panel import ReviewsPanel

    panel: QWidget = ReviewsPanel(context)
    return panel


def _journal(context: PanelContext) -> QWidget:
    from .journal_panel import JournalPanel

    panel: QWidget = JournalPanel(context)
    return panel


def register(registry: PanelRegistry) -> None:
    """Register the Access reviews and Journal panels (after Bulk jobs)."""
    registry.register(
        PanelSpec(
            "reviews",
            QT_TRANSLATE_NOOP("Panels", "Access reviews"),
            _reviews,
            icon="nav.reviews",
            order=360,
        )
    )
    registry.register(
        PanelSpec(
            "journal",
            QT_TRANSLATE_NOOP("Panels", "Journal"),
            _journal,
            icon="nav.journal",
            order=370,
        )
    )
