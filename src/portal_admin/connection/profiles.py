"""Connection profiles and their store (JSON in the user's config folder, written atomically).

A profile says where and how to connect; it never holds a password or a token. The built-in
sandbox profile is always offered, first, and is never written to the file. No Qt here: the
desktop program adds translated labels and validation messages (``ui/profiles.py``).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from portal_admin.files.atomic import atomic_write_text
from portal_admin.files.paths import config_dir

from .builtin import SANDBOX_ACCESS_CODE

if TYPE_CHECKING:  # the client (and httpx) are imported when options are built
    from portal_admin.client import ClientOptions

log = logging.getLogger("portal_admin.profiles")

PROFILES_FILE = "profiles.json"
FILE_VERSION = 1
SANDBOX_NAME = "Sandbox"
#: The base URL of the built-in sandbox, served in-process (no network).
SANDBOX_URL = "sandbox://built-in"
DEFAULT_IDLE_LOCK_MINUTES = 15
#: Keys that must never be written to or read from the profile file.
FORBIDDEN_KEYS = frozenset(
    {"password", "token", "access_token", "refresh_token", "accessToken", "refreshToken"}
)


class EnvironmentType(StrEnum):
    """What kind of server a profile points at; shown as a coloured banner."""

    PRODUCTION = "production"
    STAGING = "staging"
    TEST = "test"
    SANDBOX = "sandbox"

    @property
    def colour(self) -> str:
        """The banner's background colour (white text reads on all of them)."""
        return _COLOURS[self]

    @property
    def needs_confirmation(self) -> bool:
        """True where every change must be confirmed first."""
        return self is EnvironmentType.PRODUCTION


_COLOURS = {
    EnvironmentType.PRODUCTION: "#c62828",
    EnvironmentType.STAGING: "#bf4600",
    EnvironmentType.TEST: "#1565c0",
    EnvironmentType.SANDBOX: "#2e7d32",
}


@dataclass(frozen=True, slots=True)
class Profile:
    """Where and how to connect. No secrets beyond the portal access code."""

    name: str
    base_url: str
    portal_access_code: str = ""
    #: UI language code (en, zh, zh-Hant, ja, vi); None follows the system.
    language: str | None = None
    workspace_id: str = ""
    #: A CA bundle file for TLS verification; None uses the system's.
    ca_bundle: str | None = None
    #: Allow plain http to hosts other than loopback.
    allow_plain_http: bool = False
    #: Accept the Secure Channel's legacy padding.
    allow_legacy_padding: bool = False
    environment: EnvironmentType = EnvironmentType.PRODUCTION
    #: Minutes without input before the window locks; 0 never locks.
    idle_lock_minutes: int = DEFAULT_IDLE_LOCK_MINUTES
    kiosk: bool = False
    #: True for the built-in sandbox profile (never stored).
    builtin: bool = field(default=False, compare=False)

    @property
    def is_sandbox(self) -> bool:
        """True for the built-in, in-process sandbox."""
        return self.base_url == SANDBOX_URL

    def replace(self, **changes: Any) -> Profile:
        """A copy with ``changes`` applied."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        data = dataclasses.asdict(self)
        data.pop("builtin")
        data["environment"] = self.environment.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Profile:
        """Read a stored profile, ignoring unknown keys and any secret that slipped in."""
        known = {f.name for f in dataclasses.fields(cls)} - {"builtin"}
        values = {k: v for k, v in data.items() if k in known and k not in FORBIDDEN_KEYS}
        if not isinstance(values.get("name"), str) or not isinstance(values.get("base_url"), str):
            raise ValueError("a profile needs a name and a base_url")
        values["environment"] = EnvironmentType(values.get("environment", "production"))
        values["idle_lock_minutes"] = max(0, int(values.get("idle_lock_minutes", 15)))
        return cls(**values)


def sandbox_profile() -> Profile:
    """The built-in sandbox profile, always offered."""
    return Profile(
        name=SANDBOX_NAME,
        base_url=SANDBOX_URL,
        environment=EnvironmentType.SANDBOX,
        idle_lock_minutes=0,
        builtin=True,
    )


class ProfileStore:
    """Loads and saves the user's profiles; the sandbox profile is always first."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / PROFILES_FILE
        self.last_used: str | None = None

    def load(self) -> list[Profile]:
        """The sandbox profile followed by the stored ones (a damaged file is set aside)."""
        stored: list[Profile] = []
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(raw, dict):
                raise ValueError("not an object")
            for item in raw.get("profiles", []):
                try:
                    stored.append(Profile.from_json(item))
                except (TypeError, ValueError) as exc:
                    log.warning("skipping a damaged profile in %s: %s", self.path, exc)
            last = raw.get("last_used")
            self.last_used = last if isinstance(last, str) else None
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as exc:
            log.warning("profile file %s unreadable (%s); setting it aside", self.path, exc)
            self.path.replace(self.path.with_suffix(".damaged.json"))
        stored = [p for p in stored if p.name != SANDBOX_NAME and not p.is_sandbox]
        return [sandbox_profile(), *stored]

    def save(self, profiles: list[Profile], last_used: str | None = None) -> None:
        """Write every non-built-in profile atomically."""
        if last_used is not None:
            self.last_used = last_used
        data = {
            "version": FILE_VERSION,
            "last_used": self.last_used,
            "profiles": [p.to_json() for p in profiles if not p.builtin],
        }
        atomic_write_text(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def find(self, name: str) -> Profile | None:
        """The profile called ``name`` (case-insensitive), if any."""
        for profile in self.load():
            if profile.name.casefold() == name.casefold():
                return profile
        return None


def client_options(profile: Profile, language: str = "en") -> ClientOptions:
    """The client options a profile stands for (``language``: an Accept-Language value)."""
    from portal_admin.client import ClientOptions, TLSSettings

    access_code = profile.portal_access_code or (SANDBOX_ACCESS_CODE if profile.is_sandbox else "")
    return ClientOptions(
        access_code=access_code or None,
        language=language,  # type: ignore[arg-type]  # checked by ClientOptions
        workspace_id=profile.workspace_id or None,
        tls=TLSSettings(ca_bundle=profile.ca_bundle, allow_insecure_http=profile.allow_plain_http),
        read_only=profile.kiosk,
        allow_legacy_padding=profile.allow_legacy_padding,
        profile=profile.name,
    )
