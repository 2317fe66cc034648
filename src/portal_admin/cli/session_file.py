"""The command line's signed-in session between calls.

With a usable OS keyring the refresh token lives there, as the desktop program keeps it (one
sign-in serves both). Without one it lives in this process's memory, unless the person opts in
with ``--keep-session``: then it is written to ``cli-session.json`` in the data folder, readable
by its owner only (as ``gh`` keeps its token where there is no keyring), for at most
:data:`SESSION_SECONDS` from the sign-in; every later command uses it until then, each refresh
replacing the single-use token in the file. ``portal-admin-cli logout`` ends it: the server
forgets the token and the file forgets it. An expired or unreadable entry is dropped, never
used.

The file holds, per profile and account, the refresh token, when the session began and when it
ends; never a password, a code or an access token.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from portal_admin.client import KeyringTokenStore, MemoryTokenStore, TokenStore
from portal_admin.client.keyring_store import keyring_unavailable_reason
from portal_admin.files import json_input
from portal_admin.files.owner_only import write_owner_only
from portal_admin.files.paths import data_dir

log = logging.getLogger("portal_admin.cli.session")

#: The session file's name in the data folder.
SESSION_FILE_NAME = "cli-session.json"
#: How long a kept session lasts from its sign-in (a working day).
SESSION_SECONDS = 8 * 3600
#: A session file is small: a bigger one is not ours.
MAX_FILE = 262_144


def session_file_path() -> Path:
    """Where a kept session lives: the data folder."""
    return data_dir() / SESSION_FILE_NAME


def _user(profile: str, account: str) -> str:
    return f"{profile}|{account.lower()}"


class SessionFileStore:
    """Refresh tokens in an owner-only file, each for :data:`SESSION_SECONDS` from its sign-in
    (``keep``: start a session in it; a session already in it goes on without)."""

    def __init__(self, path: Path, *, keep: bool, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.keep = keep
        self._clock = clock
        self._memory = MemoryTokenStore()
        self._in_file: set[str] = set()

    @property
    def persistent(self) -> bool:
        """True when the session is kept in the file."""
        return self.keep or bool(self._in_file)

    @property
    def unavailable_reason(self) -> str | None:
        """Why the session lasts for this command only, or None."""
        if self.persistent:
            return None
        return "no usable keyring: the sign-in lasts for this command only (--keep-session)"

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            with self.path.open("rb") as fh:
                raw = fh.read(MAX_FILE + 1)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            log.warning("the session file %s cannot be read: %s", self.path, exc.strerror)
            return {}
        try:
            data = json_input.loads(raw, max_bytes=MAX_FILE)
        except ValueError:  # too large, nested too deep, not JSON: a named JsonInputError
            data = None
        sessions = data.get("sessions") if isinstance(data, dict) else None
        if not isinstance(sessions, dict):
            log.warning("the session file %s is not a session file: it is not used", self.path)
            return {}
        now = self._clock()
        return {
            user: entry
            for user, entry in sessions.items()
            if isinstance(entry, dict)
            and isinstance(entry.get("token"), str)
            and isinstance(entry.get("expires"), (int, float))
            and isinstance(entry.get("since"), (int, float))
            and now < entry["expires"] <= entry["since"] + SESSION_SECONDS
        }

    def _write(self, sessions: dict[str, dict[str, Any]]) -> None:
        if not sessions:
            self.path.unlink(missing_ok=True)
            return
        text = json.dumps({"version": 1, "sessions": sessions}, indent=1, sort_keys=True)
        write_owner_only(self.path, text.encode("utf-8"), replace=True)

    def _load(self, user: str) -> str | None:
        entry = self._read().get(user)
        if entry is None:
            return None
        self._in_file.add(user)
        return str(entry["token"])

    def _save(self, user: str, token: str) -> bool:
        sessions = self._read()
        entry = sessions.get(user)
        if entry is None and not self.keep:
            return False
        now = self._clock()
        since = float(entry["since"]) if entry is not None else now
        sessions[user] = {"token": token, "since": since, "expires": since + SESSION_SECONDS}
        self._write(sessions)
        self._in_file.add(user)
        return True

    def _delete(self, user: str) -> None:
        sessions = self._read()
        if sessions.pop(user, None) is not None or self.path.exists():
            self._write(sessions)
        self._in_file.discard(user)

    async def load(self, profile: str, account: str) -> str | None:
        """The kept token (unexpired), from the file or this process's memory."""
        user = _user(profile, account)
        found = await asyncio.to_thread(self._load, user)
        return found or await self._memory.load(profile, account)

    async def save(self, profile: str, account: str, token: str) -> None:
        """Keep the token: in the file for a session kept there, else in memory."""
        user = _user(profile, account)
        # A closure, not arguments: an executor that logs its calls must not see the token.
        if not await asyncio.to_thread(lambda: self._save(user, token)):
            await self._memory.save(profile, account, token)

    async def delete(self, profile: str, account: str) -> None:
        """Forget the token everywhere it may be."""
        await self._memory.delete(profile, account)
        await asyncio.to_thread(self._delete, _user(profile, account))


def token_store(keep: bool) -> TokenStore:
    """Where the command line keeps its sign-in: the OS keyring where one works (shared with
    the desktop program), else the session file (``keep``: start a session there)."""
    if keyring_unavailable_reason() is None:
        return KeyringTokenStore()
    return SessionFileStore(session_file_path(), keep=keep)
