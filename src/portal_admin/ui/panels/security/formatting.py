"""Text for times, user agents and login results, in the current language and locale."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from PySide6.QtCore import QCoreApplication, QLocale

from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

_CONTEXT = "SecurityText"

LOGIN_RESULT_LABELS = {
    "SUCCESS": QT_TRANSLATE_NOOP("SecurityText", "Successful"),
    "FAILURE": QT_TRANSLATE_NOOP("SecurityText", "Failed"),
    "BLOCKED": QT_TRANSLATE_NOOP("SecurityText", "Blocked"),
}


def relative_time(moment: datetime | None, now: datetime | None = None) -> str:
    """How long ago ``moment`` was ("just now", "5 minutes ago", "3 days ago")."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    seconds = int((now - moment).total_seconds())
    if seconds < 0:
        return QCoreApplication.translate("SecurityText", "in the future")
    if seconds < 60:
        return QCoreApplication.translate("SecurityText", "just now")
    minutes = seconds // 60
    if minutes < 60:
        return fill(QCoreApplication.translate("SecurityText", "%1 min ago"), minutes)
    hours = minutes // 60
    if hours < 48:
        return fill(QCoreApplication.translate("SecurityText", "%1 h ago"), hours)
    days = hours // 24
    if days < 60:
        return fill(QCoreApplication.translate("SecurityText", "%1 days ago"), days)
    return fill(QCoreApplication.translate("SecurityText", "%1 months ago"), days // 30)


def time_with_relative(
    moment: datetime | None, now: datetime | None = None, locale: QLocale | None = None
) -> str:
    """``format_datetime`` followed by the relative time in brackets."""
    if moment is None:
        return ""
    return f"{format_datetime(moment, locale)} ({relative_time(moment, now)})"


_OS_PATTERNS = (
    (re.compile(r"iPhone|iPad|iOS"), "iOS"),
    (re.compile(r"Android"), "Android"),
    (re.compile(r"Windows"), "Windows"),
    (re.compile(r"Mac OS X|Macintosh"), "macOS"),
    (re.compile(r"CrOS"), "ChromeOS"),
    (re.compile(r"Linux|X11"), "Linux"),
)
_PRODUCT = re.compile(r"([A-Za-z][\w.\-]*)/([\w.]+)")
MAX_AGENT = 48


def shorten_user_agent(agent: str | None) -> str:
    """A short "Product version · OS" for a User-Agent (the full one goes in a tooltip)."""
    if not agent:
        return ""
    text = agent.strip()
    system = next((name for pattern, name in _OS_PATTERNS if pattern.search(text)), None)
    products = [m for m in _PRODUCT.finditer(text) if m.group(1) != "Mozilla"]
    parts = []
    if products:
        last = products[-1]
        parts.append(f"{last.group(1)} {last.group(2)}")
    if system:
        parts.append(system)
    short = " \u00b7 ".join(parts) if parts else text
    return short if len(short) <= MAX_AGENT else short[: MAX_AGENT - 1] + "\u2026"


def login_result_label(result: object) -> str:
    """The translated name of a login result (an EnumItem, code or number)."""
    code = getattr(result, "code", result)
    text = str(code).upper() if code is not None else ""
    by_number = {"1": "SUCCESS", "2": "FAILURE", "3": "BLOCKED"}
    text = by_number.get(text, text)
    source = LOGIN_RESULT_LABELS.get(text)
    return QCoreApplication.translate(_CONTEXT, source) if source else text


def yes_no(value: bool | None) -> str:
    """Yes, No, or empty for unknown."""
    if value is None:
        return ""
    return (
        QCoreApplication.translate("SecurityText", "Yes")
        if value
        else QCoreApplication.translate("SecurityText", "No")
    )
