"""Local checks of what the dialogs send, mirroring the sandbox's documented body rules.

Each check returns translated problems (empty when fine); the server stays the judge.
"""

from __future__ import annotations

import json
import re
from typing import Any

from PySide6.QtCore import QCoreApplication

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

MAX_NAME = 100
MAX_DESCRIPTION = 500
MAX_CONFIG = 8_000
MAX_URL = 500
SECURITY_MODES = ("TLS", "STARTTLS", "NONE")
TYPE_CODE = re.compile(r"^[A-Z][A-Z0-9_]{1,31}$")
URL = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

_C = "NotificationChecks"
_NAME_REQUIRED = QT_TRANSLATE_NOOP("NotificationChecks", "%1 is required.")
_TOO_LONG = QT_TRANSLATE_NOOP("NotificationChecks", "%1 is longer than %2 characters.")


def _fill(template: str, *args: object) -> str:
    return fill(QCoreApplication.translate(_C, template), *args)


def required(label: str, value: str, limit: int) -> list[str]:
    """A required text of at most ``limit`` characters."""
    if not value.strip():
        return [_fill(_NAME_REQUIRED, label)]
    return optional(label, value, limit)


def optional(label: str, value: str, limit: int) -> list[str]:
    """An optional text of at most ``limit`` characters."""
    return [_fill(_TOO_LONG, label, limit)] if len(value.strip()) > limit else []


def type_code(value: str) -> list[str]:
    """A channel type code: 2 to 32 letters, digits or underscores, starting with a letter."""
    if not TYPE_CODE.match(value.strip().upper()):
        return [
            QCoreApplication.translate(
                "NotificationChecks",
                "The code needs 2 to 32 letters, digits or underscores, starting with a letter.",
            )
        ]
    return []


def url(label: str, value: str, *, needed: bool = False, limit: int = MAX_URL) -> list[str]:
    """An http or https URL (empty allowed unless ``needed``)."""
    value = value.strip()
    if not value:
        return [_fill(_NAME_REQUIRED, label)] if needed else []
    if len(value) > limit:
        return [_fill(_TOO_LONG, label, limit)]
    if not URL.match(value):
        return [
            _fill(
                QT_TRANSLATE_NOOP("NotificationChecks", "%1 must be an http or https address."),
                label,
            )
        ]
    return []


def json_object(label: str, text: str) -> tuple[dict[str, Any] | None, list[str]]:
    """Parse an optional JSON object; returns (object or None when empty, problems)."""
    if not text.strip():
        return None, []
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [
            _fill(
                QT_TRANSLATE_NOOP(
                    "NotificationChecks", "%1 is not valid JSON (line %2, column %3)."
                ),
                label,
                exc.lineno,
                exc.colno,
            )
        ]
    if not isinstance(value, dict):
        return None, [
            _fill(
                QT_TRANSLATE_NOOP("NotificationChecks", "%1 must be a JSON object {\u2026}."), label
            )
        ]
    if len(json.dumps(value)) > MAX_CONFIG:
        return None, [_fill(_TOO_LONG, label, MAX_CONFIG)]
    return value, []


def host(label: str, value: str) -> list[str]:
    """A host name: required, at most 253 characters, no spaces or slashes."""
    value = value.strip()
    if not value:
        return [_fill(_NAME_REQUIRED, label)]
    if len(value) > 253 or any(ch.isspace() for ch in value) or "/" in value:
        return [_fill(QT_TRANSLATE_NOOP("NotificationChecks", "%1 is not a host name."), label)]
    return []


def email(label: str, value: str, *, needed: bool) -> list[str]:
    """An email address (empty allowed unless ``needed``)."""
    value = value.strip()
    if not value:
        return [_fill(_NAME_REQUIRED, label)] if needed else []
    if len(value) > 254 or not EMAIL.match(value):
        return [
            _fill(QT_TRANSLATE_NOOP("NotificationChecks", "%1 is not an email address."), label)
        ]
    return []
