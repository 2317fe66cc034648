"""Where the refresh token lives: the OS keyring, or memory when there is no keyring.

The token is never written to disk in plain text. Keyring calls may block (D-Bus, macOS
Keychain), so they run in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol, runtime_checkable

log = logging.getLogger("portal_admin.client.keyring")

SERVICE = "portal-admin"


def _user(profile: str, account: str) -> str:
    return f"{profile}|{account.lower()}"


@runtime_checkable
class TokenStore(Protocol):
    """Keeps one refresh token per server profile and account."""

    @property
    def persistent(self) -> bool:
        """True when tokens survive a restart."""
        ...

    @property
    def unavailable_reason(self) -> str | None:
        """Why tokens are kept in memory only, or None."""
        ...

    async def load(self, profile: str, account: str) -> str | None:
        """The stored refresh token, or None."""
        ...

    async def save(self, profile: str, account: str, token: str) -> None:
        """Store (replace) the refresh token."""
        ...

    async def delete(self, profile: str, account: str) -> None:
        """Forget the refresh token."""
        ...


class MemoryTokenStore:
    """Tokens in this process only (tests, and the fallback without a keyring)."""

    def __init__(self, *, unavailable_reason: str | None = None) -> None:
        self._tokens: dict[str, str] = {}
        self._reason = unavailable_reason

    @property
    def persistent(self) -> bool:
        """Memory does not survive a restart."""
        return False

    @property
    def unavailable_reason(self) -> str | None:
        """The reason given when this store stands in for a missing keyring."""
        return self._reason

    async def load(self, profile: str, account: str) -> str | None:
        """The token kept for this profile and account."""
        return self._tokens.get(_user(profile, account))

    async def save(self, profile: str, account: str, token: str) -> None:
        """Keep the token."""
        self._tokens[_user(profile, account)] = token

    async def delete(self, profile: str, account: str) -> None:
        """Drop the token."""
        self._tokens.pop(_user(profile, account), None)


def keyring_unavailable_reason() -> str | None:
    """Why the active keyring backend cannot store secrets, or None when it can."""
    try:
        import keyring
        from keyring.backends import chainer, fail
    except Exception as exc:  # pragma: no cover - keyring is a dependency
        return f"keyring cannot be imported: {type(exc).__name__}"
    try:
        backend = keyring.get_keyring()
    except Exception as exc:
        return f"no keyring backend: {type(exc).__name__}"
    if isinstance(backend, fail.Keyring):
        return "no keyring backend is available"
    if isinstance(backend, chainer.ChainerBackend) and not backend.backends:
        return "no keyring backend is available"
    return None


class KeyringTokenStore:
    """Refresh tokens in the OS keyring; in memory only when no backend is usable."""

    def __init__(self, service: str = SERVICE) -> None:
        self._service = service
        self._reason = keyring_unavailable_reason()
        self._memory = MemoryTokenStore()
        if self._reason:
            log.warning("refresh token kept in memory only: %s", self._reason)

    @property
    def persistent(self) -> bool:
        """True while the keyring works."""
        return self._reason is None

    @property
    def unavailable_reason(self) -> str | None:
        """Why tokens are in memory only, or None."""
        return self._reason

    def _fall_back(self, exc: Exception) -> None:
        self._reason = f"the keyring failed: {type(exc).__name__}"
        log.warning("refresh token kept in memory only: %s", self._reason)

    async def load(self, profile: str, account: str) -> str | None:
        """The stored token, from the keyring or memory."""
        if self._reason is None:
            import keyring

            try:
                return await asyncio.to_thread(
                    keyring.get_password, self._service, _user(profile, account)
                )
            except Exception as exc:
                self._fall_back(exc)
        return await self._memory.load(profile, account)

    async def save(self, profile: str, account: str, token: str) -> None:
        """Store the token in the keyring, or memory when the keyring fails."""
        if self._reason is None:
            import keyring

            try:
                user = _user(profile, account)
                # A closure, not arguments: an executor that logs the calls it runs (qasync's
                # does, at DEBUG) must not see the token.
                await asyncio.to_thread(lambda: keyring.set_password(self._service, user, token))
                return
            except Exception as exc:
                self._fall_back(exc)
        await self._memory.save(profile, account, token)

    async def delete(self, profile: str, account: str) -> None:
        """Forget the token everywhere it may be."""
        await self._memory.delete(profile, account)
        if self._reason is None:
            import keyring
            from keyring.errors import PasswordDeleteError

            try:
                await asyncio.to_thread(
                    keyring.delete_password, self._service, _user(profile, account)
                )
            except PasswordDeleteError:
                pass
            except Exception as exc:
                self._fall_back(exc)
