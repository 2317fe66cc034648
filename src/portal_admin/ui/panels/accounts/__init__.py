"""Administration panels: accounts, roles and portals (registered lazily)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec


def _accounts(context: PanelContext) -> QWidget:
    from .accounts_panel import AccountsPanel

    return AccountsPanel(context)


def _roles(context: PanelContext) -> QWidget:
    from .roles_panel import RolesPanel

    return RolesPanel(context)


def _portals(context: PanelContext) -> QWidget:
    from .portals_panel import PortalsPanel

    return PortalsPanel(context)


def register(registry: PanelRegistry) -> None:
    """Register the accounts, roles and portals panels."""
    registry.register(
        PanelSpec(
            "accounts",
            QT_TRANSLATE_NOOP("Panels", "Accounts"),
            _accounts,
            icon="nav.accounts",
            order=10,
        )
    )
    registry.register(
        PanelSpec(
            "roles",
            QT_TRANSLATE_NOOP("Panels", "Roles"),
            _roles,
            icon="nav.roles",
            order=20,
        )
    )
    registry.register(
        PanelSpec(
            "portals",
            QT_TRANSLATE_NOOP("Panels", "Portals"),
            _portals,
            icon="nav.portals",
            order=30,
        )
    )
