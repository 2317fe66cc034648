"""Profile files: export and import connection profiles as documented JSON (``docs/profiles.md``).

``{"format": "portal-admin-profiles", "version": 1, "profiles": [{...}, ...]}``. A file never
holds a password, token or proxy password; the portal access code is left out unless the
caller asks for it. Reading is strict: the first problem is raised as a
:class:`ProfileFileError` naming the field (``profiles[2].base_url: must start with
https://``) and nothing of the file is used. The same format is the machine's managed
``profiles.json``. No Qt here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from portal_admin.files import json_input
from portal_admin.files.atomic import atomic_write_text
from portal_admin.protocol.addresses import LANGUAGES, is_loopback

from .profiles import (
    FORBIDDEN_KEYS,
    SANDBOX_NAME,
    EnvironmentType,
    Profile,
    ProxyMode,
    check_proxy_url,
    normalize_pin,
)

FORMAT = "portal-admin-profiles"
VERSION = 1
#: The longest profile name accepted.
MAX_NAME = 100
#: The largest profile file read (a thousand profiles take well under 1 MiB).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Keys a profile of a file may have (the fields of :class:`Profile` that are stored).
FIELDS = (
    "name",
    "base_url",
    "portal_access_code",
    "language",
    "workspace_id",
    "ca_bundle",
    "allow_plain_http",
    "allow_legacy_padding",
    "environment",
    "idle_lock_minutes",
    "kiosk",
    "proxy_mode",
    "proxy_url",
    "pinned_certificates",
)
#: More keys that are secrets and refused (besides ``profiles.FORBIDDEN_KEYS``).
SECRET_KEYS = FORBIDDEN_KEYS | {"proxy_password", "secret", "client_secret"}


class ProfileFileError(ValueError):
    """A profile file that cannot be used; ``field`` names the place (``profiles[2].base_url``,
    ``version``; empty for the file as a whole)."""

    def __init__(self, field: str, reason: str, source: str | None = None) -> None:
        self.field = field
        self.reason = reason
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{field}: {reason}" if field else f"{where}{reason}")


# -- export ------------------------------------------------------------------------------------


def profile_entry(profile: Profile, *, include_access_code: bool = False) -> dict[str, Any]:
    """One profile as a file holds it (no secret; the access code only when asked)."""
    data = profile.to_json()
    data = {key: data[key] for key in FIELDS}
    if not include_access_code:
        data.pop("portal_access_code")
    return data


def dumps_profiles(profiles: Iterable[Profile], *, include_access_code: bool = False) -> str:
    """The file's text for ``profiles`` (the built-in sandbox is never exported); a profile
    that import would refuse raises ProfileFileError instead."""
    entries = [
        profile_entry(p, include_access_code=include_access_code)
        for p in profiles
        if not p.builtin and not p.is_sandbox
    ]
    document = {"format": FORMAT, "version": VERSION, "profiles": entries}
    parse_profiles(document)  # never write a file that import would refuse
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def export_profiles(
    profiles: Iterable[Profile], path: Path, *, include_access_code: bool = False
) -> int:
    """Write ``profiles`` to ``path`` atomically; the number of profiles written."""
    text = dumps_profiles(profiles, include_access_code=include_access_code)
    atomic_write_text(path, text)
    return len(json.loads(text)["profiles"])


# -- import ------------------------------------------------------------------------------------


def load_profiles(path: Path) -> list[Profile]:
    """The profiles of the file at ``path``; ProfileFileError (naming the field) otherwise."""
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ProfileFileError("", f"cannot be read ({exc})", str(path)) from None
    return loads_profiles(data, str(path))


def loads_profiles(text: str | bytes, source: str | None = None) -> list[Profile]:
    """The profiles of a file's text; ProfileFileError (naming the field) otherwise. The text
    is read as JSON bounded in size and depth (``files/json_input``)."""
    try:
        data = json_input.loads(text, max_bytes=MAX_FILE_BYTES)
    except ValueError as exc:
        raise ProfileFileError("", f"not valid JSON ({exc})", source) from None
    try:
        return parse_profiles(data)
    except ProfileFileError as exc:
        raise ProfileFileError(exc.field, exc.reason, source) from None


def parse_profiles(data: object) -> list[Profile]:
    """Check a parsed file strictly; all its profiles, or ProfileFileError for the first fault."""
    if not isinstance(data, dict):
        raise ProfileFileError("", "the file must be a JSON object")
    unknown = sorted(set(data) - {"format", "version", "profiles"})
    if unknown:
        raise ProfileFileError(unknown[0], "unknown field")
    if data.get("format") != FORMAT:
        raise ProfileFileError("format", f'must be "{FORMAT}"')
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise ProfileFileError("version", f"must be {VERSION} (found {version!r})")
    items = data.get("profiles")
    if not isinstance(items, list):
        raise ProfileFileError("profiles", "must be a list")
    profiles: list[Profile] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        profile = parse_profile(item, f"profiles[{index}]")
        key = profile.name.casefold()
        if key in seen:
            raise ProfileFileError(f"profiles[{index}].name", f"{profile.name!r} appears twice")
        seen.add(key)
        profiles.append(profile)
    return profiles


def _fail(where: str, key: str, reason: str) -> ProfileFileError:
    return ProfileFileError(f"{where}.{key}", reason)


def _text(item: dict[str, Any], where: str, key: str, default: str = "") -> str:
    value = item.get(key, default)
    if not isinstance(value, str):
        raise _fail(where, key, "must be a string")
    return value


def _flag(item: dict[str, Any], where: str, key: str) -> bool:
    value = item.get(key, False)
    if not isinstance(value, bool):
        raise _fail(where, key, "must be true or false")
    return value


def _choice(item: dict[str, Any], where: str, key: str, default: str, allowed: list[str]) -> str:
    value = item.get(key, default)
    if value not in allowed:
        raise _fail(where, key, f"must be one of {', '.join(allowed)}")
    return str(value)


def parse_profile(item: object, where: str = "profile") -> Profile:
    """One profile of a file, checked strictly (``where`` prefixes the field in errors)."""
    if not isinstance(item, dict):
        raise ProfileFileError(where, "must be a JSON object")
    for key in item:
        if key in SECRET_KEYS:
            raise _fail(where, key, "a secret never belongs in a profile file")
        if key not in FIELDS:
            raise _fail(where, key, "unknown field")
    if "name" not in item:
        raise _fail(where, "name", "is required")
    name = _text(item, where, "name").strip()
    if not name or len(name) > MAX_NAME:
        raise _fail(where, "name", f"must be 1 to {MAX_NAME} characters")
    if name.casefold() == SANDBOX_NAME.casefold():
        raise _fail(where, "name", f"{SANDBOX_NAME!r} is the built-in sandbox's name")
    if "base_url" not in item:
        raise _fail(where, "base_url", "is required")
    base_url = _text(item, where, "base_url").strip()
    plain_http = _flag(item, where, "allow_plain_http")
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _fail(where, "base_url", "must start with https:// and name a host")
    if parts.scheme == "http" and not plain_http and not is_loopback(parts.hostname):
        raise _fail(
            where, "base_url", "must start with https:// (http:// needs allow_plain_http: true)"
        )
    if parts.username is not None or parts.password is not None:
        raise _fail(where, "base_url", "must not contain a user name or password")
    language = item.get("language")
    if language is not None and language not in LANGUAGES:
        raise _fail(where, "language", f"must be null or one of {', '.join(LANGUAGES)}")
    ca_bundle = item.get("ca_bundle")
    if ca_bundle is not None and (not isinstance(ca_bundle, str) or not ca_bundle.strip()):
        raise _fail(where, "ca_bundle", "must be null or a file's path")
    minutes = item.get("idle_lock_minutes", 15)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
        raise _fail(where, "idle_lock_minutes", "must be a whole number >= 0")
    environment = _choice(
        item, where, "environment", "production", [e.value for e in EnvironmentType]
    )
    mode = _choice(item, where, "proxy_mode", "system", [m.value for m in ProxyMode])
    try:
        proxy_url = check_proxy_url(_text(item, where, "proxy_url").strip())
    except ValueError as exc:
        raise _fail(where, "proxy_url", str(exc)) from None
    if mode == ProxyMode.MANUAL.value and not proxy_url:
        raise _fail(where, "proxy_url", 'is required when proxy_mode is "manual"')
    pins = item.get("pinned_certificates", [])
    if not isinstance(pins, list):
        raise _fail(where, "pinned_certificates", "must be a list of SHA-256 fingerprints")
    normalized: list[str] = []
    for number, pin in enumerate(pins):
        try:
            normalized.append(normalize_pin(pin if isinstance(pin, str) else ""))
        except ValueError as exc:
            raise _fail(where, f"pinned_certificates[{number}]", str(exc)) from None
    if normalized and parts.scheme != "https":
        raise _fail(where, "pinned_certificates", "need an https:// base_url")
    return Profile(
        name=name,
        base_url=base_url,
        portal_access_code=_text(item, where, "portal_access_code"),
        language=language,
        workspace_id=_text(item, where, "workspace_id"),
        ca_bundle=ca_bundle,
        allow_plain_http=plain_http,
        allow_legacy_padding=_flag(item, where, "allow_legacy_padding"),
        environment=EnvironmentType(environment),
        idle_lock_minutes=minutes,
        kiosk=_flag(item, where, "kiosk"),
        proxy_mode=ProxyMode(mode),
        proxy_url=proxy_url,
        pinned_certificates=tuple(dict.fromkeys(normalized)),
    )


# -- merging an import -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What importing ``profiles`` into a list would do; the caller decides about ``replaced``."""

    profiles: list[Profile]
    #: Names not yet in the list.
    added: list[str] = field(default_factory=list)
    #: Names of the user's own profiles the import would replace.
    replaced: list[str] = field(default_factory=list)
    #: Names of managed or built-in profiles: never replaced, those imports are skipped.
    blocked: list[str] = field(default_factory=list)


def plan_import(existing: Iterable[Profile], incoming: list[Profile]) -> ImportPlan:
    """Sort ``incoming`` by what it would do to ``existing`` (names compared case-insensitively)."""
    by_name = {p.name.casefold(): p for p in existing}
    plan = ImportPlan(incoming)
    for profile in incoming:
        current = by_name.get(profile.name.casefold())
        if current is None:
            plan.added.append(profile.name)
        elif current.read_only:
            plan.blocked.append(profile.name)
        else:
            plan.replaced.append(profile.name)
    return plan


def merge_import(
    existing: list[Profile], incoming: list[Profile], *, replace: bool
) -> list[Profile]:
    """``existing`` with ``incoming`` added (and same-named user profiles replaced in place when
    ``replace``); managed and built-in profiles are never touched. Ready for ``store.save``."""
    plan = plan_import(existing, incoming)
    new = {p.name.casefold(): p for p in incoming}
    result = []
    for profile in existing:
        key = profile.name.casefold()
        result.append(new[key] if replace and key in new and not profile.read_only else profile)
    added = {name.casefold() for name in plan.added}
    result.extend(p for p in incoming if p.name.casefold() in added)
    return result
