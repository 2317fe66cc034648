"""The network steps, with the standard library only: DNS, TCP, the HTTP proxy, TLS.

The steps share one connection: TCP to the server (or to the proxy), the proxy's tunnel over
it, then the TLS handshake over that. Each step returns a :class:`Step`; the connection is
kept in :class:`Link` for the next one.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import ssl
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

from .report import Status, Step, redact_url
from .tlsinfo import describe_certificate, verified_chain

#: A certificate closer than this to its end is a warning.
EXPIRY_WARNING_DAYS = 14
#: OpenSSL's verification results that mean "no trusted issuer".
_UNTRUSTED = {2, 18, 19, 20, 21}
_EXPIRED = 10
_HOSTNAME_MISMATCH = 62
_MAX_PROXY_ANSWER = 64 * 1024


@dataclass(frozen=True, slots=True)
class Proxy:
    """An HTTP proxy: where it is, and its credentials (kept out of every report)."""

    url: str
    host: str
    port: int
    source: str
    authorization: str | None = field(default=None, repr=False)

    @property
    def shown(self) -> str:
        """The proxy's URL without its credentials."""
        return redact_url(self.url)


@dataclass(frozen=True, slots=True)
class Target:
    """The server: scheme, host and port of the base URL, and the proxy in use (if any)."""

    scheme: str
    host: str
    port: int
    proxy: Proxy | None

    @property
    def authority(self) -> str:
        """``host:port`` (IPv6 in brackets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


class ProxyConfigError(ValueError):
    """A proxy URL that cannot be used."""


def parse_proxy(url: str, source: str) -> Proxy:
    """A :class:`Proxy` from ``http://[user:password@]host:port``."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ProxyConfigError(f"the proxy URL {redact_url(url)!r} is not http://host:port")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise ProxyConfigError(f"the proxy URL {redact_url(url)!r} has a bad port") from None
    authorization = None
    if parts.username is not None:
        pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
        authorization = "Basic " + base64.b64encode(pair.encode()).decode("ascii")
    return Proxy(url, parts.hostname, port, source, authorization)


def find_proxy(scheme: str, host: str, explicit: str | bool | None) -> tuple[Proxy | None, str]:
    """The proxy for a URL and why: ``explicit`` a URL, False for none, None for the
    environment (``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY``, ``NO_PROXY``)."""
    if explicit is False:
        return None, "no proxy (--no-proxy)"
    if isinstance(explicit, str):
        return parse_proxy(explicit, "given"), "given"
    proxies = urllib.request.getproxies()
    found = proxies.get(scheme) or proxies.get("all")
    if not found:
        return None, "no proxy is configured for this URL"
    if urllib.request.proxy_bypass(host):
        return None, "the proxy is bypassed for this host (NO_PROXY)"
    name = f"{scheme.upper()}_PROXY" if proxies.get(scheme) else "ALL_PROXY"
    return parse_proxy(found, f"environment ({name})"), f"environment ({name})"


@dataclass(slots=True)
class Link:
    """The connection the network steps share (closed by :meth:`close`)."""

    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    addresses: list[str] = field(default_factory=list)

    async def close(self) -> None:
        """Close the connection, whatever state it is in."""
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer.wait_closed(), 2)
        self.reader = self.writer = None


def _elapsed(started: float) -> float:
    return time.perf_counter() - started


async def dns_step(target: Target, link: Link, timeout: float) -> Step:
    """Resolve the host the connection goes to (the proxy's, when one is in use)."""
    host, port = (
        (target.proxy.host, target.proxy.port) if target.proxy else (target.host, target.port)
    )
    started = time.perf_counter()
    details: dict[str, Any] = {"host": host}
    if target.proxy:
        details["note"] = "the proxy resolves the server's name; this is the proxy's"
    try:
        infos = await asyncio.wait_for(
            asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM), timeout
        )
    except (TimeoutError, socket.gaierror, UnicodeError) as exc:
        timed_out = isinstance(exc, TimeoutError)
        return Step(
            "dns",
            Status.FAILED,
            _elapsed(started),
            f"The name {host} could not be resolved"
            + (" in time." if timed_out else f" ({_gai_reason(exc)})."),
            "dns.timeout" if timed_out else "dns.not_found",
            "Check the spelling of the host name, your network connection and, inside a company "
            "network, that the VPN is on (internal names resolve only there).",
            details,
        )
    link.addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    details["addresses"] = link.addresses
    return Step(
        "dns",
        Status.OK,
        _elapsed(started),
        f"{host} resolves to {', '.join(link.addresses)}.",
        "dns.ok",
        details=details,
    )


def _gai_reason(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__


async def tcp_step(target: Target, link: Link, timeout: float) -> Step:
    """Open a TCP connection to the first address that answers."""
    port = target.proxy.port if target.proxy else target.port
    started = time.perf_counter()
    errors: dict[str, str] = {}
    for address in link.addresses:
        try:
            link.reader, link.writer = await asyncio.wait_for(
                asyncio.open_connection(address, port), timeout
            )
        except TimeoutError:
            errors[address] = "timed out"
        except OSError as exc:
            errors[address] = exc.strerror or type(exc).__name__
            if isinstance(exc, ConnectionRefusedError):
                errors[address] = "refused"
        else:
            what = "the proxy" if target.proxy else "the server"
            return Step(
                "tcp",
                Status.OK,
                _elapsed(started),
                f"Connected to {what} at {_authority(address, port)}.",
                "tcp.ok",
                details={"address": _authority(address, port), "failed": errors}
                if errors
                else {"address": _authority(address, port)},
            )
    where = ", ".join(_authority(a, port) for a in link.addresses)
    details = {"tried": errors}
    if all(e == "refused" for e in errors.values()):
        return Step(
            "tcp",
            Status.FAILED,
            _elapsed(started),
            f"The connection to {where} was refused: nothing listens on port {port}.",
            "tcp.refused",
            "Check the port in the URL and that the server (or proxy) is running; a firewall "
            "may also refuse the connection.",
            details,
        )
    if all(e == "timed out" for e in errors.values()):
        return Step(
            "tcp",
            Status.FAILED,
            _elapsed(started),
            f"No answer from {where} within {timeout:g} s.",
            "tcp.timeout",
            "A firewall is probably dropping the connection, or the server is down. Check "
            "that this network may reach the server (VPN, firewall rules).",
            details,
        )
    return Step(
        "tcp",
        Status.FAILED,
        _elapsed(started),
        f"The server could not be reached at {where}.",
        "tcp.unreachable",
        "Check your network connection and the routes to the server (VPN).",
        details,
    )


def _authority(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def _read_head(
    reader: asyncio.StreamReader, timeout: float
) -> tuple[int, str, dict[str, str]]:
    """The status, reason and headers (names in lower case) of an HTTP answer."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    if len(head) > _MAX_PROXY_ANSWER:
        raise ValueError("the proxy's answer is too long")
    status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ValueError("the proxy did not answer HTTP")
    headers: dict[str, str] = {}
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return int(parts[1]), parts[2] if len(parts) > 2 else "", headers


def proxy_skipped(reason: str) -> Step:
    """The proxy step when no proxy is in use."""
    return Step("proxy", Status.SKIPPED, 0.0, f"No proxy is used: {reason}.", "proxy.none")


async def proxy_step(target: Target, link: Link, timeout: float) -> Step:
    """Ask the proxy for a tunnel (https) or a forwarded request (http) to the server."""
    proxy = target.proxy
    assert proxy is not None and link.reader is not None and link.writer is not None
    started = time.perf_counter()
    details: dict[str, Any] = {"proxy": proxy.shown, "source": proxy.source}
    if proxy.url.lower().startswith("https://"):
        return Step(
            "proxy",
            Status.WARNING,
            _elapsed(started),
            "The proxy is reached over TLS, which the doctor does not check by itself.",
            "proxy.unchecked",
            "The API steps below still go through it.",
            details,
        )
    tunnel = target.scheme == "https"
    if tunnel:
        request = f"CONNECT {target.authority} HTTP/1.1\r\nHost: {target.authority}\r\n"
    else:
        request = f"GET http://{target.authority}/ HTTP/1.1\r\nHost: {target.authority}\r\n"
        request += "Connection: close\r\n"
    if proxy.authorization:
        request += f"Proxy-Authorization: {proxy.authorization}\r\n"
    try:
        link.writer.write((request + "\r\n").encode("latin-1"))
        await link.writer.drain()
        status, reason, headers = await _read_head(link.reader, timeout)
    except (
        TimeoutError,
        OSError,
        ValueError,
        asyncio.IncompleteReadError,
        asyncio.LimitOverrunError,
    ) as exc:
        return Step(
            "proxy",
            Status.FAILED,
            _elapsed(started),
            f"The proxy at {proxy.shown} did not answer as an HTTP proxy ({_why(exc)}).",
            "proxy.not_a_proxy",
            "Check the proxy's address and port (HTTPS_PROXY, or --proxy).",
            details,
        )
    details["answer"] = f"{status} {reason}".strip()
    if tunnel and status == 200 and headers.get("content-length", "0") != "0":
        return Step(
            "proxy",
            Status.FAILED,
            _elapsed(started),
            f"{proxy.shown} answered the tunnel request like a web server, not a proxy.",
            "proxy.not_a_proxy",
            "Check the proxy's address and port (HTTPS_PROXY, or --proxy).",
            details,
        )
    if status == 407:
        given = proxy.authorization is not None
        return Step(
            "proxy",
            Status.FAILED,
            _elapsed(started),
            "The proxy refused the user name and password it was given (HTTP 407)."
            if given
            else "The proxy requires a user name and password (HTTP 407 Proxy Authentication "
            "Required).",
            "proxy.auth_failed" if given else "proxy.auth_required",
            "Put the proxy's user name and password in the proxy URL "
            "(http://user:password@proxy:port) or ask your IT department; the report never "
            "shows them.",
            details,
        )
    if (tunnel and status != 200) or (not tunnel and status in (502, 503, 504)):
        return Step(
            "proxy",
            Status.FAILED,
            _elapsed(started),
            f"The proxy could not open a connection to {target.authority} (HTTP {status}).",
            "proxy.refused",
            "The proxy may not allow this server or port, or cannot reach it: ask your IT "
            "department, or try --no-proxy if the server is reachable directly.",
            details,
        )
    if not tunnel:  # the forwarded answer is the server's: the API steps read it properly
        await link.close()
    return Step(
        "proxy",
        Status.OK,
        _elapsed(started),
        f"The proxy {proxy.shown} "
        + (f"opened a tunnel to {target.authority}." if tunnel else "forwards requests."),
        "proxy.ok",
        details=details,
    )


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, asyncio.IncompleteReadError):
        return "the connection was closed"
    return str(exc) or type(exc).__name__


def ca_source(ca_bundle: str | None) -> dict[str, Any]:
    """Which certificates verify the server: the CA bundle given, or the system store."""
    if ca_bundle:
        return {"store": "CA bundle", "file": ca_bundle}
    paths = ssl.get_default_verify_paths()
    found: dict[str, Any] = {"store": "system"}
    for name, value in (("file", paths.cafile), ("folder", paths.capath)):
        if value:
            found[name] = value
    for var in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
        if os.environ.get(var):
            found[var] = os.environ[var]
    return found


async def tls_step(
    target: Target, link: Link, context: ssl.SSLContext, ca_bundle: str | None, timeout: float
) -> Step:
    """The TLS handshake over the link: version, certificate, chain, expiry, host name."""
    assert link.writer is not None
    started = time.perf_counter()
    details: dict[str, Any] = {"ca": ca_source(ca_bundle)}
    try:
        await asyncio.wait_for(link.writer.start_tls(context, server_hostname=target.host), timeout)
    except ssl.SSLCertVerificationError as exc:
        await link.close()
        return await _verify_failed(target, exc, details, started, timeout)
    except (ssl.SSLError, OSError, TimeoutError, asyncio.IncompleteReadError) as exc:
        await link.close()
        return _handshake_failed(exc, details, started)
    tls: Any = link.writer.get_extra_info("ssl_object")
    version = tls.version() or "?"
    der = tls.getpeercert(binary_form=True)
    cert = describe_certificate(der, target.host)
    details.update(version=version, cipher=(tls.cipher() or ("?",))[0], certificate=cert)
    chain = verified_chain(tls)
    if chain:
        details["chain"] = chain
    status, code = Status.OK, "tls.ok"
    store = details["ca"]["store"]
    summary = f"{version} with a valid certificate for {target.host}, trusted by the {store}."
    advice = ""
    days = cert.get("daysLeft")
    if isinstance(days, int) and days < EXPIRY_WARNING_DAYS:
        status, code = Status.WARNING, "tls.expires_soon"
        summary = f"The server's certificate ends in {days} days ({cert['notAfter']})."
        advice = "Tell the server's administrators: after that date no connection will work."
    elif version in ("TLSv1", "TLSv1.1", "SSLv3"):
        status, code = Status.WARNING, "tls.old_version"
        summary = f"The server offers only {version}, which is outdated."
        advice = "Ask the server's administrators to enable TLS 1.2 or 1.3."
    await link.close()
    return Step("tls", status, _elapsed(started), summary, code, advice, details)


async def _verify_failed(
    target: Target,
    exc: ssl.SSLCertVerificationError,
    details: dict[str, Any],
    started: float,
    timeout: float,
) -> Step:
    """Name what is wrong with the certificate (looked at again without verification)."""
    verify_code = int(getattr(exc, "verify_code", 0) or 0)
    details["verification"] = str(getattr(exc, "verify_message", "") or exc)
    cert = await _unverified_certificate(target, timeout)
    if cert:
        details["certificate"] = cert
    store = "the CA bundle given" if details["ca"]["store"] == "CA bundle" else "the system store"
    if verify_code == _EXPIRED:
        summary = f"The server's certificate has expired ({cert.get('notAfter', '?')})."
        code = "tls.expired"
        advice = "Tell the server's administrators; also check this computer's date and time."
    elif verify_code == _HOSTNAME_MISMATCH:
        names = ", ".join(cert.get("names", [])) or "other names"
        summary = f"The server's certificate is for {names}, not for {target.host}."
        code = "tls.hostname_mismatch"
        advice = (
            "Use a host name the certificate names in the URL, or ask the server's "
            "administrators for a certificate that names this one."
        )
    elif verify_code in _UNTRUSTED:
        issuer = cert.get("issuer", "an unknown issuer")
        kind = "self-signed " if cert.get("selfSigned") else ""
        summary = f"The server's {kind}certificate (issued by {issuer}) is not trusted by {store}."
        code = "tls.untrusted"
        advice = (
            "If the server uses a private or company CA, or a proxy inspects TLS, get that CA's "
            "certificate (PEM) and give it as the profile's CA bundle (--ca-bundle FILE). Never "
            "turn verification off."
        )
    else:
        summary = f"The server's certificate could not be verified ({details['verification']})."
        code = "tls.verify_failed"
        advice = (
            "Give the server's CA certificate with --ca-bundle FILE, or ask its administrators."
        )
    return Step("tls", Status.FAILED, _elapsed(started), summary, code, advice, details)


async def _unverified_certificate(target: Target, timeout: float) -> dict[str, Any]:
    """The server's certificate, read with verification off (only to describe it)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    link = Link(addresses=[target.proxy.host if target.proxy else target.host])
    try:
        if await _reconnect(target, link, timeout):
            assert link.writer is not None
            await asyncio.wait_for(
                link.writer.start_tls(context, server_hostname=target.host), timeout
            )
            der = link.writer.get_extra_info("ssl_object").getpeercert(binary_form=True)
            return describe_certificate(der, target.host) if der else {}
    except (ssl.SSLError, OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
        pass
    finally:
        await link.close()
    return {}


async def _reconnect(target: Target, link: Link, timeout: float) -> bool:
    """TCP (and the proxy's tunnel) again, quietly; True when it worked."""
    if (await tcp_step(target, link, timeout)).status is not Status.OK:
        return False
    if target.proxy is None:
        return True
    return (await proxy_step(target, link, timeout)).status is Status.OK


def _handshake_failed(exc: BaseException, details: dict[str, Any], started: float) -> Step:
    text = f"{getattr(exc, 'reason', '') or ''} {exc}".upper()
    details["error"] = str(exc) or type(exc).__name__
    if isinstance(exc, TimeoutError):
        return Step(
            "tls",
            Status.FAILED,
            _elapsed(started),
            "The TLS handshake got no answer in time.",
            "tls.timeout",
            "Something between you and the server holds the connection: check the URL's port "
            "and any firewall or proxy.",
            details,
        )
    if any(
        m in text
        for m in (
            "WRONG_VERSION_NUMBER",
            "HTTP_REQUEST",
            "PACKET_LENGTH_TOO_LONG",
            "RECORD_LAYER_FAILURE",
            "UNKNOWN_PROTOCOL",
        )
    ):
        return Step(
            "tls",
            Status.FAILED,
            _elapsed(started),
            "The server's port does not speak TLS.",
            "tls.not_tls",
            "The URL says https:// but the port serves plain HTTP (or something else): check "
            "the scheme and port of the URL.",
            details,
        )
    return Step(
        "tls",
        Status.FAILED,
        _elapsed(started),
        "The TLS handshake failed"
        + (
            " (the connection was closed)."
            if isinstance(exc, OSError | asyncio.IncompleteReadError)
            else "."
        ),
        "tls.handshake_failed",
        "The server and this computer found no common TLS version or cipher, or something "
        "between them closed the connection. Check the URL's port and any proxy or firewall.",
        details,
    )
