"""The machine-wide kiosk policy (``policy.json`` in the system config folder).

Read before Qt starts (no Qt here). A policy forces kiosk mode and pins the connection profile;
the command line cannot override it: a contradicting option is dropped with a logged notice.
Where the file is looked for, and why ``PORTAL_ADMIN_POLICY_DIR`` cannot weaken a machine's
policy, is explained in ``docs/kiosk.md``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.files.policy_dir import POLICY_DIR_ENV as POLICY_DIR_ENV  # re-exported
from portal_admin.files.policy_dir import policy_file_paths, system_policy_dir
from portal_admin.ui.i18n.languages import LANGUAGES

log = logging.getLogger(__name__)

POLICY_FILE = "policy.json"
#: Minutes without input before a kiosk session is signed out, unless the policy says.
DEFAULT_IDLE_SIGN_OUT_MINUTES = 10
#: The pinned profile's name that means the built-in sandbox.
SANDBOX_NAMES = frozenset({"sandbox", "built-in"})


class PolicyError(RuntimeError):
    """A policy file exists but cannot be used; the program refuses to start (fail closed)."""


@dataclass(frozen=True, slots=True)
class KioskPolicy:
    """What the machine's administrator decided; nothing in the program can change it."""

    #: Where it was read from (shown in the log and in About-like places).
    source: Path
    #: The pinned profile: a profile's name, or a full profile (its JSON object) inline.
    profile_name: str | None = None
    profile_inline: Mapping[str, Any] | None = None
    #: Minutes without input before the session is signed out; 0 never.
    idle_sign_out_minutes: int = DEFAULT_IDLE_SIGN_OUT_MINUTES
    csv_export: bool = True
    #: The UI languages offered (codes of ``languages.LANGUAGES``); empty: all.
    languages: tuple[str, ...] = ()

    @property
    def pins_sandbox(self) -> bool:
        """True when the pinned profile is the built-in sandbox."""
        if self.profile_inline is not None:
            return str(self.profile_inline.get("base_url", "")).startswith("sandbox:")
        return (self.profile_name or "").casefold() in SANDBOX_NAMES

    def allows_language(self, code: str | None) -> bool:
        """True when ``code`` may be used (None, the system's, is checked later)."""
        return code is None or not self.languages or code in self.languages

    @classmethod
    def from_json(cls, data: object, source: Path) -> KioskPolicy:
        """Validate the file's content; anything unknown or ill-typed is an error."""
        if not isinstance(data, dict):
            raise PolicyError(f"{source}: the policy must be a JSON object")
        known = {"kiosk", "profile", "idle_sign_out_minutes", "csv_export", "languages"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise PolicyError(f"{source}: unknown keys {', '.join(unknown)}")
        if data.get("kiosk", True) is not True:
            raise PolicyError(f'{source}: a policy always forces kiosk mode ("kiosk": true)')
        profile = data.get("profile")
        name: str | None = None
        inline: dict[str, Any] | None = None
        if isinstance(profile, str) and profile.strip():
            name = profile.strip()
        elif isinstance(profile, dict):
            if not isinstance(profile.get("name"), str) or not isinstance(
                profile.get("base_url"), str
            ):
                raise PolicyError(f"{source}: an inline profile needs a name and a base_url")
            inline = dict(profile)
        else:
            raise PolicyError(f'{source}: "profile" must be a profile name or a profile object')
        minutes = data.get("idle_sign_out_minutes", DEFAULT_IDLE_SIGN_OUT_MINUTES)
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
            raise PolicyError(f"{source}: idle_sign_out_minutes must be a whole number >= 0")
        export = data.get("csv_export", True)
        if not isinstance(export, bool):
            raise PolicyError(f"{source}: csv_export must be true or false")
        languages = data.get("languages", [])
        if not isinstance(languages, list) or any(c not in LANGUAGES for c in languages):
            raise PolicyError(f"{source}: languages must be a list of {', '.join(LANGUAGES)}")
        return cls(source, name, inline, minutes, export, tuple(dict.fromkeys(languages)))


def policy_paths() -> list[Path]:
    """Where a policy is looked for, first match wins: the system folder, then the variable."""
    return policy_file_paths(POLICY_FILE, system_policy_dir())


def load_policy(paths: list[Path] | None = None) -> KioskPolicy | None:
    """The first policy found, or None; a file that exists but cannot be used raises."""
    for path in paths if paths is not None else policy_paths():
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise PolicyError(f"{path}: unreadable ({exc})") from exc
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise PolicyError(f"{path}: not valid JSON ({exc})") from exc
        policy = KioskPolicy.from_json(data, path)
        log.info("kiosk policy in force: %s", path)
        return policy
    return None


@dataclass(frozen=True, slots=True)
class KioskSettings:
    """How a kiosk session behaves: from the policy, else the defaults of ``--kiosk``."""

    #: Minutes without input before the session is signed out; 0 never.
    idle_sign_out_minutes: int = DEFAULT_IDLE_SIGN_OUT_MINUTES
    csv_export: bool = True
    #: The UI languages offered; empty: all.
    languages: tuple[str, ...] = ()
    policy: KioskPolicy | None = None

    def allows_language(self, code: str) -> bool:
        """True when ``code`` may be chosen."""
        return not self.languages or code in self.languages
