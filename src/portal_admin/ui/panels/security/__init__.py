"""Security panels: sessions, login history, MFA and backup codes, IP whitelist."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec


def _sessions(context: PanelContext) -> QWidget:
    from .sessions import SessionsPanel

    return SessionsPanel(context)


def _history(context: PanelContext) -> QWidget:
    from .history import LoginHistoryPanel

    return LoginHistoryPanel(context)


def _mfa(context: PanelContext) -> QWidget:
    from .mfa import MfaPanel

    return MfaPanel(context)


def _whitelist(context: PanelContext) -> QWidget:
    from .ip_whitelist import IpWhitelistPanel

    return IpWhitelistPanel(context)


def register(registry: PanelRegistry) -> None:
    """Register the security panels (their modules load when first shown)."""
    for spec in (
        PanelSpec(
            "sessions",
            QT_TRANSLATE_NOOP("Panels", "Sessions"),
            _sessions,
            icon="nav.sessions",
            order=200,
        ),
        PanelSpec(
            "login-history",
            QT_TRANSLATE_NOOP("Panels", "Login history"),
            _history,
            icon="nav.login-history",
            order=210,
        ),
        PanelSpec(
            "mfa",
            QT_TRANSLATE_NOOP("Panels", "Multi-factor authentication"),
            _mfa,
            icon="nav.mfa",
            order=220,
        ),
        PanelSpec(
            "ip-whitelist",
            QT_TRANSLATE_NOOP("Panels", "IP whitelist"),
            _whitelist,
            icon="nav.ip-whitelist",
            order=230,
        ),
    ):
        registry.register(spec)
