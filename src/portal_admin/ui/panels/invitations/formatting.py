"""How invitation fields read: dates in the locale's format, relative expiry, why one cannot be
accepted any more.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale

from portal_admin.protocol.enums import INVITATION_FINAL
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import fill

from ...enum_labels import INVITATION_STATUS, shown

CONTEXT = "Invitations"


def _plural(translated: str, n: int) -> str:
    """The English source's "(s)" made singular or plural (when no translation is loaded)."""
    return translated.replace("(s)", "" if n == 1 else "s") if "(s)" in translated else translated


def relative_expiry(expires_at: datetime | None, now: datetime) -> str:
    """ "expired", "in 3 days", "in 5 hours", "in 12 minutes" ("" when unknown)."""
    if expires_at is None:
        return ""
    if expires_at.tzinfo is None:
        expires_at = expires_at.replace(tzinfo=UTC)
    seconds = (expires_at - now).total_seconds()
    if seconds <= 0:
        return QCoreApplication.translate("Invitations", "expired")
    days = int(seconds // 86400)
    if days >= 1:
        return _plural(QCoreApplication.translate("Invitations", "in %n day(s)", None, days), days)
    hours = int(seconds // 3600)
    if hours >= 1:
        return _plural(
            QCoreApplication.translate("Invitations", "in %n hour(s)", None, hours), hours
        )
    minutes = max(1, int(seconds // 60))
    return _plural(
        QCoreApplication.translate("Invitations", "in %n minute(s)", None, minutes), minutes
    )


def expiry_text(expires_at: datetime | None, now: datetime, locale: QLocale | None = None) -> str:
    """Relative and absolute: "in 3 days (25/11/2026 04:02)"."""
    if expires_at is None:
        return ""
    return fill(
        QCoreApplication.translate("Invitations", "%1 (%2)"),
        relative_expiry(expires_at, now),
        format_datetime(expires_at, locale),
    )


def status_code(invitation: Any) -> str:
    """The invitation's status code ("" when absent)."""
    status = getattr(invitation, "invitation_status", None)
    return str(getattr(status, "code", "") or "")


def status_label(invitation: Any) -> str:
    """The server's (localized) status label, else the program's own, else the code in words
    (never an untranslated key)."""
    return shown(getattr(invitation, "invitation_status", None), INVITATION_STATUS)


def is_pending(invitation: Any) -> bool:
    """True for a PENDING invitation."""
    return status_code(invitation) == "PENDING"


def cannot_accept_reason(invitation: Any, now: datetime) -> str | None:
    """Why ``invitation`` can no longer be accepted, or None when it still can."""
    code = status_code(invitation)
    can_accept = getattr(invitation, "can_accept", None)
    if can_accept is None:
        can_accept = code not in INVITATION_FINAL
    expires_at = getattr(invitation, "expires_at", None)
    if can_accept and code == "PENDING" and expires_at is not None:
        aware = expires_at if expires_at.tzinfo else expires_at.replace(tzinfo=UTC)
        can_accept = aware > now
    if can_accept:
        return None
    reason = {
        "EXPIRED": QCoreApplication.translate("Invitations", "expired"),
        "CANCELLED": QCoreApplication.translate("Invitations", "cancelled"),
        "DECLINED": QCoreApplication.translate("Invitations", "declined"),
        "ACCEPTED": QCoreApplication.translate("Invitations", "already accepted"),
        "PENDING": QCoreApplication.translate("Invitations", "expired"),
    }.get(code, status_label(invitation) or QCoreApplication.translate("Invitations", "not open"))
    return fill(QCoreApplication.translate("Invitations", "Cannot be accepted: %1"), reason)
