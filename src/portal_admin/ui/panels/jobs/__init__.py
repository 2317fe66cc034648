"""The Jobs panel: bulk jobs kept on this computer."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec


def _jobs(context: PanelContext) -> QWidget:
    from .panel import JobsPanel

    panel: QWidget = JobsPanel(context)
    return panel


def register(registry: PanelRegistry) -> None:
    """Register the Jobs panel (after the areas it changes)."""
    registry.register(
        PanelSpec(
            "jobs",
            QT_TRANSLATE_NOOP("Panels", "Bulk jobs"),
            _jobs,
            icon="nav.jobs",
            order=350,
        )
    )
