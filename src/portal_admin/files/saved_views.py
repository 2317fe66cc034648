"""Saved views of the lists: named filters, sort and columns, and each list's last state.

One JSON file in the user's config folder holds them, by *scope* (a connection profile, or
the kiosk of this machine) and by list. Nothing here is sent to a server: an auditor in kiosk
mode saves views without changing anything there.

A view is a plain JSON object the list builds and reads back (``filters``, ``sort``,
``columns``); this module only keeps them. Every write re-reads the file, changes one entry and
replaces the file atomically (fsync, then rename), so two windows lose at most each other's
concurrent change to the same list, and a crash leaves the old file or the new one, never a
torn one. A file that cannot be read is set aside (``.bad``) and the lists start from their
defaults.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .atomic import atomic_write_text

log = logging.getLogger(__name__)

VIEWS_FILE = "saved-views.json"
FILE_VERSION = 1
#: The longest name a view may have (characters).
MAX_NAME = 60
#: How many views one list keeps at most.
MAX_VIEWS = 50

View = dict[str, Any]


def profile_scope(profile_name: str) -> str:
    """The scope of a connection profile's views."""
    return f"profile:{profile_name}"


#: The scope of the kiosk's views: the machine's, whoever signs in and whatever profile is pinned.
KIOSK_SCOPE = "kiosk"


class ViewNameError(ValueError):
    """A view name that cannot be kept (empty or too long)."""


def clean_name(name: str) -> str:
    """``name`` without surrounding spaces; raises :class:`ViewNameError` if unusable."""
    name = " ".join(name.split())
    if not name:
        raise ViewNameError("empty")
    if len(name) > MAX_NAME:
        raise ViewNameError("too long")
    return name


class ViewStore:
    """The saved views of one scope, in ``path``.

    ``renamed`` maps the first part of a list key that changed (a panel's old id) to the new
    one: a list saved as ``old/list`` is read as ``new/list`` (the next write keeps it under
    the new key; a list already saved under the new key wins)."""

    def __init__(self, path: Path, scope: str, renamed: Mapping[str, str] | None = None) -> None:
        self.path = path
        self.scope = scope
        self.renamed = dict(renamed or {})

    # -- reading -------------------------------------------------------------------------------

    def names(self, list_key: str) -> list[str]:
        """The names of the saved views of ``list_key``, in the order they were saved."""
        return list(self._list(self._read(), list_key).get("views", {}))

    def view(self, list_key: str, name: str) -> View | None:
        """The saved view ``name`` of ``list_key``, or None."""
        found = self._list(self._read(), list_key).get("views", {}).get(name)
        return found if isinstance(found, dict) else None

    def last(self, list_key: str) -> tuple[View | None, str | None]:
        """The state ``list_key`` was left in and the name of the view it showed (or None)."""
        entry = self._list(self._read(), list_key)
        state, active = entry.get("last"), entry.get("active")
        return (
            state if isinstance(state, dict) else None,
            active if isinstance(active, str) else None,
        )

    def all_views(self) -> list[tuple[str, str]]:
        """Every saved view of the scope, as (list key, name)."""
        lists = self._read().get("scopes", {}).get(self.scope, {})
        return [
            (key, name)
            for key, entry in lists.items()
            if isinstance(entry, dict)
            for name in entry.get("views", {})
        ]

    # -- writing -------------------------------------------------------------------------------

    def save(self, list_key: str, name: str, view: View) -> str:
        """Keep ``view`` as ``name`` (replacing a view of that name); returns the clean name."""
        name = clean_name(name)

        def change(entry: dict[str, Any]) -> None:
            views = entry.setdefault("views", {})
            if name not in views and len(views) >= MAX_VIEWS:
                raise ViewNameError("too many")
            views[name] = view
            entry["active"] = name

        self._change(list_key, change)
        return name

    def delete(self, list_key: str, name: str) -> None:
        """Forget the view ``name`` (the list's last state stays as it is)."""

        def change(entry: dict[str, Any]) -> None:
            entry.get("views", {}).pop(name, None)
            if entry.get("active") == name:
                entry["active"] = None

        self._change(list_key, change)

    def remember(self, list_key: str, state: View, active: str | None) -> None:
        """Keep the state ``list_key`` is in now, and which view it shows (restored at start)."""

        def change(entry: dict[str, Any]) -> None:
            entry["last"] = state
            entry["active"] = active

        self._change(list_key, change)

    # -- the file ------------------------------------------------------------------------------

    def _list(self, data: dict[str, Any], list_key: str) -> dict[str, Any]:
        entry = data.get("scopes", {}).get(self.scope, {}).get(list_key, {})
        return entry if isinstance(entry, dict) else {}

    def _change(self, list_key: str, change: Any) -> None:
        data = self._read()
        scopes = data.setdefault("scopes", {})
        lists = scopes.setdefault(self.scope, {})
        entry = lists.get(list_key)
        if not isinstance(entry, dict):
            entry = lists[list_key] = {}
        change(entry)
        data["version"] = FILE_VERSION
        atomic_write_text(self.path, json.dumps(data, ensure_ascii=False, indent=1))

    def _read(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            log.warning("saved views %s could not be read: %s", self.path, exc)
            return {}
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or not isinstance(data.get("scopes", {}), dict):
                raise ValueError("not a saved-views file")
            if data.get("version", FILE_VERSION) != FILE_VERSION:
                raise ValueError(f"version {data.get('version')!r}")
        except ValueError as exc:
            self._set_aside(exc)
            return {}
        for scope, lists in list(data["scopes"].items()):
            if not isinstance(lists, dict):
                del data["scopes"][scope]
            elif self.renamed:
                self._rename_keys(lists)
        return data

    def _rename_keys(self, lists: dict[str, Any]) -> None:
        """Lists saved under a renamed key, moved to the new key (in memory)."""
        for key in list(lists):
            first, slash, rest = key.partition("/")
            if first in self.renamed:
                entry = lists.pop(key)
                lists.setdefault(f"{self.renamed[first]}{slash}{rest}", entry)

    def _set_aside(self, why: Exception) -> None:
        bad = self.path.with_name(self.path.name + ".bad")
        log.warning("saved views %s cannot be used (%s); kept as %s", self.path, why, bad.name)
        try:
            os.replace(self.path, bad)
        except OSError as exc:
            log.warning("saved views could not be set aside: %s", exc)
