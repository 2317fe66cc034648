"""The Secure Channel's own operations (section 4.2), for diagnostics and scripts.

Ordinary use needs none of these: the channel opens lazily and closes on logout and exit.
"""

from __future__ import annotations

from typing import Any

from ..channel import SecureChannel
from ..records import PublicKeyInfo
from ._base import Area, operation


class SecureChannelArea(Area):
    """``client.secure_channel``: public key, open, close."""

    def __init__(self, invoker: Any, channel: SecureChannel) -> None:
        super().__init__(invoker)
        self._channel = channel

    @property
    def is_open(self) -> bool:
        """True while a session is held."""
        return self._channel.is_open

    @operation("secure_channel.public_key")
    async def public_key(self) -> PublicKeyInfo:
        """Fetch the active public key (its algorithm is checked)."""
        return (await self._channel.fetch_public_key()).info

    @operation("secure_channel.session_create")
    async def open(self) -> None:
        """Open a new session now (normally done on first need)."""
        await self._channel.open()

    @operation("secure_channel.session_close")
    async def close(self) -> bool:
        """Close the held session; False when there was none."""
        return await self._channel.close()
