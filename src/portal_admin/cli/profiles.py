"""``profiles list|export|import``: connection profiles and profile files (``docs/profiles.md``).

No server is contacted. ``import`` refuses the whole file on any fault (the field is named),
never touches managed or built-in profiles, and replaces a profile of the same name only with
``--replace``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from portal_admin.connection.profile_file import (
    ProfileFileError,
    export_profiles,
    load_profiles,
    merge_import,
    plan_import,
)
from portal_admin.connection.profile_store import ProfileStore
from portal_admin.connection.profiles import Profile

from .errors import UsageError
from .output import say, write_text


@dataclass(frozen=True)
class ListCommand:
    """``profiles list``: as text or JSON."""

    json: bool


@dataclass(frozen=True)
class ExportCommand:
    """``profiles export FILE``: which profiles (default all), with their access codes?"""

    file: str
    name: tuple[str, ...] | None
    access_code: bool


@dataclass(frozen=True)
class ImportCommand:
    """``profiles import FILE``: replacing own profiles of the same name?"""

    file: str
    replace: bool


def _kind(profile: Profile) -> str:
    return "built-in" if profile.builtin else "managed" if profile.managed else "own"


def list_profiles(cmd: ListCommand) -> int:
    """Print every profile: name, kind, environment, URL, proxy mode, pins."""
    store = ProfileStore()
    rows = [
        {
            "name": p.name,
            "kind": _kind(p),
            "environment": p.environment.value,
            "base_url": p.base_url,
            "proxy_mode": p.proxy_mode.value,
            "pinned_certificates": len(p.pinned_certificates),
        }
        for p in store.load()
    ]
    if store.managed_error:
        say(f"managed profiles not used: {store.managed_error}")
    if cmd.json:
        write_text(json.dumps(rows, indent=2, ensure_ascii=False) + "\n", None)
    else:
        lines = [
            f"{r['name']}\t{r['kind']}\t{r['environment']}\t{r['base_url']}\tproxy={r['proxy_mode']}"
            + (f"\tpins={r['pinned_certificates']}" if r["pinned_certificates"] else "")
            for r in rows
        ]
        write_text("\n".join(lines) + "\n", None)
    return 0


def export(cmd: ExportCommand) -> int:
    """Write the chosen profiles (default: all but the sandbox) to a profile file."""
    profiles = [p for p in ProfileStore().load() if not p.builtin]
    if cmd.name:
        wanted = {n.casefold() for n in cmd.name}
        missing = wanted - {p.name.casefold() for p in profiles}
        if missing:
            raise UsageError(f"no connection profile called {sorted(missing)[0]!r}")
        profiles = [p for p in profiles if p.name.casefold() in wanted]
    try:
        count = export_profiles(profiles, Path(cmd.file), include_access_code=cmd.access_code)
    except ProfileFileError as exc:
        raise UsageError(f"not exported: {exc}") from None
    say(f"{count} profile(s) written to {cmd.file}")
    return 0


def import_(cmd: ImportCommand) -> int:
    """Add the file's profiles to the user's (nothing at all when the file has a fault)."""
    try:
        incoming = load_profiles(Path(cmd.file))
    except ProfileFileError as exc:
        raise UsageError(f"nothing imported: {exc}") from None
    store = ProfileStore()
    existing = store.load()
    plan = plan_import(existing, incoming)
    if plan.replaced and not cmd.replace:
        raise UsageError(
            "nothing imported: these profiles exist (give --replace to replace them): "
            + ", ".join(plan.replaced)
        )
    for name in plan.blocked:
        say(f"skipped {name!r}: a managed or built-in profile has that name")
    store.save(merge_import(existing, incoming, replace=cmd.replace))
    say(f"imported: {len(plan.added)} added, {len(plan.replaced)} replaced")
    return 0
