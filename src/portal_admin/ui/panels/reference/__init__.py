"""Reference panels: the constants browser and the signed-in account's profile."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec


def _constants(context: PanelContext) -> QWidget:
    from .constants_panel import ConstantsPanel

    panel: QWidget = ConstantsPanel(context)
    return panel


def _profile(context: PanelContext) -> QWidget:
    from .profile_panel import ProfilePanel

    panel: QWidget = ProfilePanel(context)
    return panel


def register(registry: PanelRegistry) -> None:
    """Register the constants and profile panels."""
    registry.register(
        PanelSpec(
            "constants",
            QT_TRANSLATE_NOOP("Panels", "Constants"),
            _constants,
            icon="nav.constants",
            order=500,
        )
    )
    registry.register(
        PanelSpec(
            "profile",
            QT_TRANSLATE_NOOP("Panels", "Profile"),
            _profile,
            icon="nav.profile",
            order=510,
        )
    )
