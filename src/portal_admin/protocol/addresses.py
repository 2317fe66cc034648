"""Plain facts about servers and languages, shared by the client and the profiles (no I/O)."""

from __future__ import annotations

import ipaddress

#: The ``Accept-Language`` values the API answers in.
LANGUAGES: tuple[str, ...] = ("en", "zh", "zh-Hant", "ja", "vi")


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
