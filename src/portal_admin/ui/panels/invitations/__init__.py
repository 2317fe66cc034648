"""Invitation panels: the workspace's invitations and the signed-in account's own."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec


def _invitations(context: PanelContext) -> QWidget:
    from .panel import InvitationsPanel

    panel: QWidget = InvitationsPanel(context)
    return panel


def _my_invitations(context: PanelContext) -> QWidget:
    from .own import MyInvitationsPanel

    panel: QWidget = MyInvitationsPanel(context)
    return panel


def register(registry: PanelRegistry) -> None:
    """Register the invitations and my-invitations panels."""
    registry.register(
        PanelSpec(
            "invitations",
            QT_TRANSLATE_NOOP("Panels", "Invitations"),
            _invitations,
            icon="nav.invitations",
            order=300,
        )
    )
    registry.register(
        PanelSpec(
            "my-invitations",
            QT_TRANSLATE_NOOP("Panels", "My invitations"),
            _my_invitations,
            icon="nav.my-invitations",
            order=310,
        )
    )
