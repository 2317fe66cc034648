"""Connection profiles in the desktop program: the Qt-free core (``portal_admin.connection
.profiles``) with translated environment labels and validation messages.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import QCoreApplication

from portal_admin.connection.profile_store import ProfileStore
from portal_admin.connection.profiles import (
    DEFAULT_IDLE_LOCK_MINUTES,
    FILE_VERSION,
    FORBIDDEN_KEYS,
    PROFILES_FILE,
    SANDBOX_NAME,
    SANDBOX_URL,
    EnvironmentType,
    Profile,
    ProxyMode,
    check_proxy_url,
    normalize_pin,
    sandbox_profile,
)
from portal_admin.protocol.addresses import is_loopback
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

__all__ = [
    "DEFAULT_IDLE_LOCK_MINUTES",
    "FILE_VERSION",
    "FORBIDDEN_KEYS",
    "PROFILES_FILE",
    "SANDBOX_NAME",
    "SANDBOX_URL",
    "EnvironmentType",
    "Profile",
    "ProfileStore",
    "ProxyMode",
    "environment_label",
    "sandbox_profile",
    "validate",
]

_LABELS = {
    EnvironmentType.PRODUCTION: QT_TRANSLATE_NOOP("EnvironmentType", "PRODUCTION"),
    EnvironmentType.STAGING: QT_TRANSLATE_NOOP("EnvironmentType", "STAGING"),
    EnvironmentType.TEST: QT_TRANSLATE_NOOP("EnvironmentType", "TEST"),
    EnvironmentType.SANDBOX: QT_TRANSLATE_NOOP("EnvironmentType", "SANDBOX"),
}


def environment_label(environment: EnvironmentType) -> str:
    """The translated, upper-case banner text of an environment."""
    return QCoreApplication.translate("EnvironmentType", _LABELS[environment])


def validate(profile: Profile, others: list[Profile] | None = None) -> list[str]:
    """Translated problems with ``profile``; empty when it can be saved."""

    problems: list[str] = []
    name = profile.name.strip()
    if not name:
        problems.append(
            QCoreApplication.translate("ProfileValidation", "The profile needs a name.")
        )
    elif any(o.name.strip().casefold() == name.casefold() for o in others or []):
        problems.append(
            QCoreApplication.translate(
                "ProfileValidation", "Another profile already has this name."
            )
        )
    if profile.is_sandbox:
        return problems
    parts = urlsplit(profile.base_url.strip())
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        problems.append(
            QCoreApplication.translate(
                "ProfileValidation", "The base URL must start with https:// and name a host."
            )
        )
    elif (
        parts.scheme == "http" and not is_loopback(parts.hostname) and not profile.allow_plain_http
    ):
        problems.append(
            QCoreApplication.translate(
                "ProfileValidation",
                "Plain http to a host other than this computer needs \u201cAllow plain http\u201d.",
            )
        )
    if profile.ca_bundle and not Path(profile.ca_bundle).is_file():
        problems.append(
            QCoreApplication.translate("ProfileValidation", "The CA bundle file does not exist.")
        )
    if profile.proxy_mode is ProxyMode.MANUAL:
        try:
            proxy_ok = bool(check_proxy_url(profile.proxy_url.strip()))
        except ValueError:
            proxy_ok = False
        if not proxy_ok:
            problems.append(
                QCoreApplication.translate(
                    "ProfileValidation",
                    "The proxy URL must be http://host:port or https://host:port, without a "
                    "user name or password.",
                )
            )
    for pin in profile.pinned_certificates:
        try:
            normalize_pin(pin)
        except ValueError:
            problems.append(
                fill(
                    QCoreApplication.translate(
                        "ProfileValidation",
                        "The certificate pin \u201c%1\u201d is not a SHA-256 fingerprint "
                        "(64 hexadecimal digits).",
                    ),
                    pin,
                )
            )
    if profile.idle_lock_minutes < 0:
        problems.append(
            QCoreApplication.translate(
                "ProfileValidation", "The idle lock time cannot be negative."
            )
        )
    return problems
