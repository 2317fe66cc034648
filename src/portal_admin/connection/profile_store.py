"""The store of connection profiles: the user's ``profiles.json`` and the machine's managed
profiles, with the built-in sandbox profile first.

Apart from :mod:`.profiles` (the profile itself) so that the model imports neither the file
format nor the store: :mod:`.profile_file` reads the managed file with the model, and this
module uses both. No Qt here.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from portal_admin.files import json_input
from portal_admin.files.atomic import atomic_write_text
from portal_admin.files.paths import config_dir
from portal_admin.files.policy_dir import policy_file_paths

from .profile_file import MAX_FILE_BYTES, ProfileFileError, load_profiles
from .profiles import (
    FILE_VERSION,
    PROFILES_FILE,
    SANDBOX_NAME,
    ManagedProfileError,
    Profile,
    sandbox_profile,
)

#: The same logger as the profiles' (``portal_admin.profiles``).
log = logging.getLogger("portal_admin.profiles")


class ProfileStore:
    """Loads and saves the user's profiles; the sandbox profile is always first, then the
    machine's managed profiles (read-only), then the user's.

    ``managed_paths``: where ``profiles.json`` of the machine is looked for (first found wins);
    None: the policy folder, as the kiosk policy (``files.policy_dir``).
    """

    def __init__(self, path: Path | None = None, managed_paths: list[Path] | None = None) -> None:
        self.path = path or config_dir() / PROFILES_FILE
        self.managed_paths = managed_paths
        self.last_used: str | None = None
        #: Why the machine's managed profiles could not be used (None: read, or none there).
        self.managed_error: str | None = None
        #: User profiles hidden by a managed profile of the same name (kept in the file).
        self.shadowed: list[Profile] = []

    def load_managed(self) -> list[Profile]:
        """The machine's managed profiles (``managed=True``); a bad file gives none, and
        ``managed_error`` says why."""
        self.managed_error = None
        paths = self.managed_paths
        for path in paths if paths is not None else policy_file_paths(PROFILES_FILE):
            if not path.is_file():
                continue
            try:
                profiles = load_profiles(path)
            except ProfileFileError as exc:
                self.managed_error = str(exc)
                log.warning("managed profiles not used: %s", exc)
                return []
            log.info("managed profiles from %s: %d", path, len(profiles))
            return [p.replace(managed=True) for p in profiles if not _is_sandbox_name(p)]
        return []

    def load_user(self) -> list[Profile]:
        """The user's own profiles as stored (a damaged file is set aside)."""
        stored: list[Profile] = []
        try:
            raw = json_input.read(self.path, max_bytes=MAX_FILE_BYTES)
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
        return [p for p in stored if not _is_sandbox_name(p)]

    def load(self) -> list[Profile]:
        """The sandbox, the managed profiles, then the user's (a user profile named like a
        managed one is shadowed: hidden, but kept in the file)."""
        managed = self.load_managed()
        taken = {p.name.casefold() for p in managed}
        user = self.load_user()
        self.shadowed = [p for p in user if p.name.casefold() in taken]
        return [sandbox_profile(), *managed, *(p for p in user if p.name.casefold() not in taken)]

    def save(self, profiles: list[Profile], last_used: str | None = None) -> None:
        """Write the user's profiles atomically; the built-in and managed ones are not written.

        Raises ManagedProfileError (writing nothing) when ``profiles`` changes or leaves out a
        managed profile, or adds one of the same name as a managed or built-in profile.
        """
        managed = {p.name.casefold(): p for p in self.load_managed()}
        given = {p.name.casefold(): p for p in profiles if p.managed}
        for key, original in managed.items():
            if key not in given:
                raise ManagedProfileError(
                    f"the profile {original.name!r} is managed by your IT department: "
                    "it cannot be deleted"
                )
            if given[key] != original:
                raise ManagedProfileError(
                    f"the profile {original.name!r} is managed by your IT department: "
                    "it cannot be changed"
                )
        own = [p for p in profiles if not p.builtin and not p.managed]
        for profile in own:
            if profile.name.casefold() in managed:
                raise ManagedProfileError(
                    f"the name {profile.name!r} belongs to a profile managed by your IT "
                    "department: choose another"
                )
            if _is_sandbox_name(profile):
                raise ManagedProfileError(f"the name {profile.name!r} is the built-in sandbox's")
        if unknown := [p.name for p in profiles if p.managed and p.name.casefold() not in managed]:
            raise ManagedProfileError(f"no managed profile called {unknown[0]!r} on this computer")
        if last_used is not None:
            self.last_used = last_used
        kept = [p for p in self.shadowed if p.name.casefold() in managed]
        data = {
            "version": FILE_VERSION,
            "last_used": self.last_used,
            "profiles": [p.to_json() for p in [*own, *kept]],
        }
        atomic_write_text(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def find(self, name: str) -> Profile | None:
        """The profile called ``name`` (case-insensitive), if any."""
        for profile in self.load():
            if profile.name.casefold() == name.casefold():
                return profile
        return None


def _is_sandbox_name(profile: Profile) -> bool:
    return profile.name.casefold() == SANDBOX_NAME.casefold() or profile.is_sandbox
