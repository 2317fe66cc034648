"""Connection profiles and their store (JSON in the user's config folder, written atomically).

A profile says where and how to connect; it never holds a password or a token. The built-in
sandbox profile is always offered, first, and is never written to the file; then come the
machine's managed profiles (``profiles.json`` in the policy folder, read-only, see
``docs/profiles.md``), then the user's own. No Qt here: the desktop program adds translated
labels and validation messages (``ui/profiles/store.py``).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

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


class ProxyMode(StrEnum):
    """How a profile reaches the server."""

    #: The environment's and system's proxy settings (``HTTPS_PROXY``, ``NO_PROXY``...).
    SYSTEM = "system"
    #: Directly, whatever the environment says.
    NONE = "none"
    #: Through ``Profile.proxy_url`` (no credentials in it).
    MANUAL = "manual"


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
    proxy_mode: ProxyMode = ProxyMode.SYSTEM
    #: The proxy of ``ProxyMode.MANUAL``: ``http(s)://host:port``, never with a user or password.
    proxy_url: str = ""
    #: SHA-256 fingerprints (``ab:cd:...``) of the server's certificate; empty: not pinned.
    pinned_certificates: tuple[str, ...] = ()
    #: True for the built-in sandbox profile (never stored).
    builtin: bool = field(default=False, compare=False)
    #: True for a machine-wide profile from the policy folder (never stored, never edited).
    managed: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        pins = []
        for pin in self.pinned_certificates:
            try:
                pins.append(normalize_pin(pin))
            except ValueError:
                pins.append(pin)  # left as typed: the editor's validation names it
        object.__setattr__(self, "pinned_certificates", tuple(pins))

    @property
    def read_only(self) -> bool:
        """True when the person may not edit or delete the profile (built-in or managed)."""
        return self.builtin or self.managed

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
        data.pop("managed")
        data["environment"] = self.environment.value
        data["proxy_mode"] = self.proxy_mode.value
        data["pinned_certificates"] = list(self.pinned_certificates)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Profile:
        """Read a stored profile, ignoring unknown keys and any secret that slipped in.

        Lenient (the user's own file); ``profile_file.parse_profiles`` checks strictly.
        """
        known = {f.name for f in dataclasses.fields(cls)} - {"builtin", "managed"}
        values = {k: v for k, v in data.items() if k in known and k not in FORBIDDEN_KEYS}
        if not isinstance(values.get("name"), str) or not isinstance(values.get("base_url"), str):
            raise ValueError("a profile needs a name and a base_url")
        values["environment"] = EnvironmentType(values.get("environment", "production"))
        values["idle_lock_minutes"] = max(0, int(values.get("idle_lock_minutes", 15)))
        values["proxy_mode"] = ProxyMode(values.get("proxy_mode", "system"))
        values["proxy_url"] = check_proxy_url(str(values.get("proxy_url") or ""))
        if values["proxy_mode"] is ProxyMode.MANUAL and not values["proxy_url"]:
            raise ValueError("a manual proxy needs a proxy_url")
        pins = values.get("pinned_certificates") or []
        if not isinstance(pins, list | tuple):
            raise ValueError("pinned_certificates must be a list")
        values["pinned_certificates"] = tuple(normalize_pin(str(p)) for p in pins)
        return cls(**values)


def check_proxy_url(url: str) -> str:
    """``url`` when it is empty or ``http(s)://host[:port]`` without credentials; else ValueError.

    A proxy password is a secret: it never goes into a profile (or an exported file); it comes
    from ``HTTPS_PROXY`` (system mode) or is asked and kept in memory (``proxy_auth``).
    """
    if not url:
        return ""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("must be http://host:port or https://host:port")
    if parts.username is not None or parts.password is not None:
        raise ValueError("must not contain a user name or password (they are asked instead)")
    try:
        parts.port  # noqa: B018  # raises for a bad port
    except ValueError:
        raise ValueError("has a bad port") from None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("must be only scheme, host and port")
    return url


def normalize_pin(text: str) -> str:
    """A certificate pin as stored (``ab:cd:...``, 64 hex digits); ValueError otherwise."""
    from portal_admin.client.pinning import normalize_fingerprint

    return normalize_fingerprint(text)


def sandbox_profile() -> Profile:
    """The built-in sandbox profile, always offered."""
    return Profile(
        name=SANDBOX_NAME,
        base_url=SANDBOX_URL,
        environment=EnvironmentType.SANDBOX,
        idle_lock_minutes=0,
        builtin=True,
    )


class ManagedProfileError(ValueError):
    """A managed (machine-wide) or built-in profile cannot be changed or deleted."""


def client_options(
    profile: Profile, language: str = "en", *, proxy_auth: tuple[str, str] | None = None
) -> ClientOptions:
    """The client options a profile stands for (``language``: an Accept-Language value;
    ``proxy_auth``: the manual proxy's user name and password, asked, memory only)."""
    from portal_admin.client import ClientOptions, TLSSettings

    access_code = profile.portal_access_code or (SANDBOX_ACCESS_CODE if profile.is_sandbox else "")
    return ClientOptions(
        access_code=access_code or None,
        language=language,  # type: ignore[arg-type]  # checked by ClientOptions
        workspace_id=profile.workspace_id or None,
        tls=TLSSettings(
            ca_bundle=profile.ca_bundle,
            allow_insecure_http=profile.allow_plain_http,
            pinned_sha256=profile.pinned_certificates,
        ),
        read_only=profile.kiosk,
        allow_legacy_padding=profile.allow_legacy_padding,
        profile=profile.name,
        proxy=(profile.proxy_url or None) if profile.proxy_mode is ProxyMode.MANUAL else None,
        proxy_auth=proxy_auth,
        trust_env=profile.proxy_mode is ProxyMode.SYSTEM,
    )
