"""Client options: access code, language, fingerprint, workspace, timeouts, TLS, retries."""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field
from typing import Literal

import httpx

# Re-exported: the client's public names for them.
from portal_admin.protocol.addresses import LANGUAGES as LANGUAGES
from portal_admin.protocol.addresses import is_loopback as is_loopback

from .errors import ConfigurationError
from .pinning import normalize_fingerprint

Language = Literal["en", "zh", "zh-Hant", "ja", "vi"]


@dataclass(frozen=True, slots=True)
class TLSSettings:
    """Certificate verification is always on; a CA bundle replaces the system store (only the
    bundle's CAs are then trusted); pins add a check of the server's own certificate."""

    ca_bundle: str | None = None
    #: Accept plain http to a host that is not loopback (the profile must say so explicitly).
    allow_insecure_http: bool = False
    #: SHA-256 fingerprints of the server's leaf certificate (DER); empty: no pin. The
    #: certificate must match one of them (several allow a renewal to be rolled out).
    pinned_sha256: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        try:
            pins = tuple(normalize_fingerprint(p) for p in self.pinned_sha256)
        except ValueError as exc:
            raise ConfigurationError(
                f"certificate pin: {exc}", code=ConfigurationError.PIN
            ) from None
        object.__setattr__(self, "pinned_sha256", pins)

    def ssl_context(self) -> ssl.SSLContext:
        """A verifying SSL context, with the CA bundle when one is set."""
        return ssl.create_default_context(cafile=self.ca_bundle)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Jittered exponential backoff for reads (stamina)."""

    attempts: int = 4
    wait_initial: float = 0.2
    wait_max: float = 3.0
    wait_jitter: float = 0.5
    timeout: float = 30.0


@dataclass(frozen=True, slots=True)
class ClientOptions:
    """How a :class:`~portal_admin.client.PortalClient` talks to one server."""

    access_code: str | None = None
    language: Language = "en"
    #: ``X-Client-Hash``; None: :func:`installation_fingerprint`.
    client_hash: str | None = None
    workspace_id: str | None = None
    #: Seconds a call may take in all, whatever the server does (retries included).
    timeout: float = 30.0
    connect_timeout: float = 10.0
    #: The largest answer read (bytes, after decompression); a larger one is malformed.
    max_response_bytes: int = 32 * 1024 * 1024
    tls: TLSSettings = field(default_factory=TLSSettings)
    read_only: bool = False
    allow_legacy_padding: bool = False
    #: Key of the refresh token in the token store; None: the base URL.
    profile: str | None = None
    #: Refresh the access token this many seconds before it expires.
    refresh_skew: float = 60.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    extra_headers: dict[str, str] = field(default_factory=dict)
    #: An explicit proxy URL (``http://host:port``) for every request; None: see ``trust_env``.
    proxy: str | None = None
    #: The proxy's user name and password (asked, kept in memory only; never logged).
    proxy_auth: tuple[str, str] | None = field(default=None, repr=False)
    #: Without an explicit proxy: honour ``HTTPS_PROXY``/``NO_PROXY`` and the system's proxy
    #: settings (True), or connect directly (False).
    trust_env: bool = True

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES:
            raise ConfigurationError(f"unsupported language {self.language!r}")
        if self.proxy is not None:
            url = httpx.URL(self.proxy)
            if url.scheme not in ("http", "https") or not url.host:
                raise ConfigurationError(
                    "a proxy URL is http://host:port or https://host:port",
                    code=ConfigurationError.PROXY,
                )

    def httpx_proxy(self) -> httpx.Proxy | None:
        """The explicit proxy as httpx takes it (credentials apart from the URL), or None."""
        if self.proxy is None:
            return None
        return httpx.Proxy(self.proxy, auth=self.proxy_auth)


def check_url(base_url: str, tls: TLSSettings, *, in_process: bool) -> httpx.URL:
    """The base URL, refused when it is plain http to a remote host without permission."""
    url = httpx.URL(base_url)
    if url.scheme not in ("http", "https"):
        raise ConfigurationError(
            f"unsupported URL scheme {url.scheme!r}", code=ConfigurationError.URL
        )
    if (
        url.scheme == "http"
        and not in_process
        and not tls.allow_insecure_http
        and not is_loopback(url.host)
    ):
        raise ConfigurationError(
            "plain http is accepted only for loopback hosts unless the profile allows it"
        )
    if url.scheme == "http" and not in_process and tls.pinned_sha256:
        raise ConfigurationError(
            "a pinned certificate needs an https:// URL", code=ConfigurationError.PIN
        )
    return url
