"""Certificate pinning: the server's leaf certificate must match a SHA-256 fingerprint.

The check runs inside httpcore's ``start_tls`` trace (a documented httpcore extension), right
after the TLS handshake of each new connection to the server and before a single byte of an
HTTP request is written on it; a mismatch closes the connection and raises
:class:`~portal_admin.client.errors.CertificatePinError`. Connections are reused only after
they passed, so no request (and no credential) ever reaches a server whose certificate is not
pinned. The pin is checked in addition to the normal verification, never instead of it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import httpx

from .errors import CertificatePinError

_HEX = re.compile(r"[0-9a-f]{64}")


def normalize_fingerprint(text: str) -> str:
    """``ab:cd:...`` (64 hex digits, lower case, colon-separated) from any usual spelling:
    upper or lower case, with or without colons or spaces, an optional ``sha256:`` prefix."""
    value = text.strip().lower()
    value = value.removeprefix("sha256:").removeprefix("sha256/")
    value = re.sub(r"[\s:]", "", value)
    if not _HEX.fullmatch(value):
        raise ValueError("a SHA-256 fingerprint is 64 hexadecimal digits (colons allowed)")
    return bytes.fromhex(value).hex(":")


def certificate_fingerprint(der: bytes) -> str:
    """The SHA-256 fingerprint of a DER certificate, as :func:`normalize_fingerprint` spells it."""
    return hashlib.sha256(der).digest().hex(":")


def check_pin(der: bytes | None, pins: Iterable[str], host: str) -> str:
    """The certificate's fingerprint when it matches one of ``pins``; else CertificatePinError."""
    found = certificate_fingerprint(der) if der else "none"
    if found not in {normalize_fingerprint(p) for p in pins}:
        raise CertificatePinError(
            f"the certificate of {host} is not the one the connection profile pins "
            f"(SHA-256 {found}); nothing was sent. If the server's certificate was renewed, "
            "ask your IT department for the new fingerprint",
        )
    return found


Hook = Callable[[httpx.Request], Awaitable[None]]
Trace = Callable[[str, dict[str, Any]], Awaitable[None]]


def pin_hook(pins: Iterable[str]) -> Hook:
    """An httpx ``request`` event hook that checks every new TLS connection to the request's
    host against ``pins`` (a TLS connection to a proxy is not checked)."""
    pinned = tuple(normalize_fingerprint(p) for p in pins)

    async def hook(request: httpx.Request) -> None:
        host = request.url.host
        earlier: Trace | None = request.extensions.get("trace")
        names: list[str] = []

        async def trace(name: str, info: dict[str, Any]) -> None:
            if earlier is not None:
                await earlier(name, info)
            if name.endswith("start_tls.started"):
                names.append(str(info.get("server_hostname", "")))
            elif name.endswith("start_tls.complete") and names and names[-1] == host:
                stream = info.get("return_value")
                tls = stream.get_extra_info("ssl_object") if stream is not None else None
                der = tls.getpeercert(binary_form=True) if tls is not None else None
                try:
                    check_pin(der, pinned, host)
                except CertificatePinError:
                    if stream is not None:
                        await stream.aclose()
                    raise

        request.extensions["trace"] = trace

    return hook
