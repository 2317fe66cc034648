"""Evidence for auditors: snapshots and their diffs, the journal of changes.

Both panels read only (snapshots send read operations), so the kiosk shows them too.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec


def _snapshots(context: PanelContext) -> QWidget:
    from .snapshots_panel import SnapshotsPanel

    panel: QWidget = SnapshotsPanel(context)
    return panel


def _journal(context: PanelContext) -> QWidget:
    from .journal_panel import JournalPanel

    panel: QWidget = JournalPanel(context)
    return panel


def register(registry: PanelRegistry) -> None:
    """Register the Snapshots and Journal panels (after Bulk jobs)."""
    registry.register(
        PanelSpec(
            "snapshots",
            QT_TRANSLATE_NOOP("Panels", "Snapshots"),
            _snapshots,
            icon="nav.snapshots",
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
